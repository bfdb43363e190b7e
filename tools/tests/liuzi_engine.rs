//! Matches against the real `liuzi` engine binary, in each protocol it speaks.

use std::path::PathBuf;
use std::process::Command;

/// The workspace's `liuzi` binary. `cargo test --workspace` has already built it beside this test
/// (the engine crate's own integration tests need it); only when this test runs alone is it
/// built here, in the same profile directory.
fn liuzi_binary() -> PathBuf {
    let test_exe = std::env::current_exe().expect("test executable path");
    // target/<profile>/deps/liuzi_engine-<hash> -> target/<profile>/liuzi
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

#[test]
fn liuzi_plays_clean_games_in_every_protocol() {
    let liuzi = liuzi_binary();
    let liuzi = liuzi.to_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    // Small fixed playout budgets on one thread keep the games quick and reproducible; the
    // three engines differ in budget and seed.
    let engines = [
        format!("name=gtp cmd='{liuzi} gtp --threads 1 --playouts 30 --seed 1'"),
        format!("name=cloudict proto=cloudict cmd='{liuzi} c6 --threads 1 --playouts 60 --seed 2'"),
        format!(
            "name=sau proto=sau cmd='{liuzi} c6 --letters sau --sau-placeholder --threads 1 --playouts 30 --seed 3'"
        ),
    ];
    let mut args = vec![
        "--mode",
        "round-robin",
        "--games",
        "2",
        "--st",
        "10",
        "--sgf-dir",
        "sgf",
    ];
    for e in &engines {
        args.extend(["--engine", e.as_str()]);
    }
    let out = Command::new(env!("CARGO_BIN_EXE_liuzi-match"))
        .current_dir(dir.path())
        .args(&args)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let results = std::fs::read_to_string(dir.path().join("match-results.jsonl")).unwrap();
    let lines: Vec<serde_json::Value> = results
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 6);
    for l in &lines {
        // No engine misbehaved: every game ended on the board.
        assert!(l["reason"] == "six" || l["reason"] == "full_board", "{l}");
    }
    for record in std::fs::read_dir(dir.path().join("sgf")).unwrap() {
        let games = liuzi::records::read_file(&record.unwrap().path()).unwrap();
        games[0].validate().unwrap();
    }
}
