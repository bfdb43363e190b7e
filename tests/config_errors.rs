//! A bad setting stops start-up with a message naming the file and the TOML key, over the real
//! binary: values that once aborted the process (a tree or table larger than the machine's
//! memory) and values whose errors once named a code field (`search.c_uct` for `exploration`).

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `liuzi ARGS gtp` with `quit` on stdin; returns (exit code, stderr).
fn run(args: &[&str]) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_liuzi"))
        .args(args)
        .arg("gtp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("liuzi starts");
    // The engine may already have exited: a closed pipe is fine.
    let _ = child.stdin.take().unwrap().write_all(b"quit\n");
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn config_file(dir: &tempfile::TempDir, text: &str) -> String {
    let path = dir.path().join("bad.toml");
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

#[test]
fn settings_too_large_for_memory_are_refused_naming_the_key() {
    let total = liuzi::search::common::physical_memory().unwrap_or(128 << 30);
    if total >= 128 << 30 {
        eprintln!("skipped: this machine has room for 64 GiB");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for (text, key) in [
        ("[search]\nmax_nodes = 2147483647\n", "search.max_nodes"),
        ("[alphabeta]\nhash_mb = 65536\n", "alphabeta.hash_mb"),
    ] {
        let path = config_file(&dir, text);
        let (code, stderr) = run(&["--config", &path]);
        assert_eq!(code, Some(1), "{text:?}: {stderr}");
        assert!(
            stderr.contains(&path) && stderr.contains(key),
            "{text:?}: {stderr}"
        );
    }
}

#[test]
fn parameter_errors_name_the_file_and_the_toml_key() {
    let dir = tempfile::tempdir().unwrap();
    for (text, key) in [
        ("[search]\nexploration = -1.0\n", "search.exploration"),
        ("[search]\nprior_weight = -2.0\n", "search.prior_weight"),
        ("[search]\nprior_visits = 0\n", "search.prior_visits"),
        ("[search]\nvalue_mix = 2.0\n", "search.value_mix"),
        (
            "[search]\nsolver_pair_share = 2.0\n",
            "search.solver_pair_share",
        ),
        ("[alphabeta]\nroot_width = 0\n", "alphabeta.root_width"),
    ] {
        let path = config_file(&dir, text);
        let (code, stderr) = run(&["--config", &path]);
        assert_eq!(code, Some(1), "{text:?}: {stderr}");
        assert!(
            stderr.contains(&path) && stderr.contains(key),
            "{text:?}: {stderr}"
        );
    }
    // A value from the command line names the key it overrides.
    let (code, stderr) = run(&["--threads", "300"]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("engine.threads"), "{stderr}");
}
