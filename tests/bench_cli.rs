//! `liuzi bench ...` over the real binary: every bench ends with a JSON line, and a reader that
//! closes the pipe early (`liuzi bench ruler | head -0`) ends the bench quietly instead of a
//! panic (exit 101).

use std::process::{Command, Stdio};

const BENCHES: &[&[&str]] = &[
    &["bench", "--playouts", "30"],
    &["bench", "search", "--playouts", "30", "--weights", "none"],
    &["bench", "ruler", "--replays", "2"],
    &["bench", "ruler", "--replays", "2", "--emit"],
    &["bench", "solver", "--nodes", "200", "--repeat", "1"],
    &["bench", "update", "--per-position", "3", "--rounds", "1"],
    &["bench", "playouts", "--per-position", "3"],
];

fn liuzi(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_liuzi"));
    command
        .args(args)
        .stdin(Stdio::null())
        .stderr(Stdio::piped());
    command
}

/// The JSON line a successful `liuzi ARGS` bench ends with.
fn bench_json(args: &[&str]) -> serde_json::Value {
    let out = liuzi(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(stdout.trim_end().lines().last().unwrap()).unwrap()
}

#[test]
fn every_bench_ends_with_a_json_line() {
    for args in BENCHES.iter().filter(|a| !a.contains(&"--emit")) {
        let out = liuzi(args).output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{args:?}: {stderr}");
        let last = stdout.trim_end().lines().last().unwrap_or("");
        let json: serde_json::Value =
            serde_json::from_str(last).unwrap_or_else(|e| panic!("{args:?}: {e}: {stdout}"));
        assert!(json.is_object(), "{args:?}: {last}");
    }
}

#[test]
fn a_closed_stdout_ends_every_bench_without_a_panic() {
    for args in BENCHES {
        let mut child = liuzi(args).stdout(Stdio::piped()).spawn().unwrap();
        // The reader goes away before the bench writes (they all compute first).
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
    }
}

#[test]
fn bad_bench_files_are_errors_naming_them() {
    let out = liuzi(&["bench", "--weights", "/nonexistent/x.weights"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("/nonexistent/x.weights"), "{stderr}");
}

/// With the shipped two-section weights (tree priors near the root), one thread, the
/// bench's seed and fixed playouts give the same search twice. The tree section is what the
/// priors use, as deep as `search.tree_prior_plies` says: tree priors at every depth give
/// another search, and so does a one-section file.
#[test]
fn tree_weights_search_is_deterministic_and_uses_the_tree_section() {
    let dir = tempfile::tempdir().unwrap();
    let everywhere = dir.path().join("everywhere.toml");
    std::fs::write(&everywhere, "[search]\ntree_prior_plies = 0\n").unwrap();
    let signature = |weights: &str, config: Option<&std::path::Path>| {
        let path = format!("{}/{weights}", env!("CARGO_MANIFEST_DIR"));
        let mut args = vec!["bench", "search", "--playouts", "150", "--weights", &path];
        if let Some(c) = config {
            args.extend(["--config", c.to_str().unwrap()]);
        }
        bench_json(&args)["signature"].as_str().unwrap().to_string()
    };
    let default = "engine-config/default.weights";
    let shipped = signature(default, None);
    assert_eq!(shipped, signature(default, None));
    let deep = signature(default, Some(&everywhere));
    assert_eq!(deep, signature(default, Some(&everywhere)));
    assert_ne!(shipped, deep);
    assert_ne!(shipped, signature("tests/data/cross.weights", None));
}

/// `--value-mix 1` values the leaves by the evaluator alone (no playouts): the same fixed
/// descents, deterministic, and another search than the default mix; out of range, an error
/// naming the key.
#[test]
fn value_mix_changes_the_bench_search_and_is_checked() {
    let run = |mix: Option<&str>| {
        let mut args = vec!["bench", "search", "--playouts", "150"];
        if let Some(m) = mix {
            args.extend(["--value-mix", m]);
        }
        let json = bench_json(&args);
        (
            json["signature"].as_str().unwrap().to_string(),
            json["playouts"].as_u64().unwrap(),
        )
    };
    let leaf_only = run(Some("1"));
    assert_eq!(leaf_only, run(Some("1")));
    let default = run(None);
    assert_eq!(leaf_only.1, default.1);
    assert_ne!(leaf_only.0, default.0);
    let out = liuzi(&["bench", "--value-mix", "2"]).output().unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("search.value_mix"), "{stderr}");
}
