//! Helpers shared by the integration tests.

use std::path::PathBuf;
use std::process::Command;

/// The workspace's `liuzi` binary. `cargo test --workspace` has already built it beside this test
/// (the engine crate's own integration tests need it); only when this test runs alone is it
/// built here, in the same profile directory.
pub fn liuzi_binary() -> PathBuf {
    let test_exe = std::env::current_exe().expect("test executable path");
    // target/<profile>/deps/<test>-<hash> -> target/<profile>/liuzi
    let profile_dir = test_exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("test executable lives in target/<profile>/deps");
    let binary = profile_dir.join(format!("liuzi{}", std::env::consts::EXE_SUFFIX));
    if !binary.exists() {
        let release = profile_dir
            .file_name()
            .is_some_and(|name| name == "release");
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let mut build = Command::new(cargo);
        build.args(["build", "--quiet", "-p", "liuzi", "--bin", "liuzi"]);
        if release {
            build.arg("--release");
        }
        let status = build
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .status()
            .expect("cargo runs");
        assert!(status.success(), "building liuzi failed");
    }
    assert!(binary.exists(), "no liuzi binary at {}", binary.display());
    binary
}
