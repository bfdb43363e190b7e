//! The command line: help text, configuration errors, logs on stderr only.

mod common;

use common::{fast_config, run_liuzi};

#[test]
fn help_explains_protocols_options_and_config() {
    let run = run_liuzi(&["--help"], b"");
    assert!(run.success);
    for needle in [
        "PROTOCOLS",
        "gtp",
        "c6",
        "gogui-rules_",
        "SAU",
        "CONFIGURATION",
        "engine-config/default.toml",
        "--config",
        "--weights",
        "--threads",
        "--seed",
        "--playouts",
        "--search",
        "--evaluator",
        "--playout-cutoff",
        "--value-mix",
        "--verbose",
        "RUST_LOG",
    ] {
        assert!(
            run.stdout.contains(needle),
            "--help lacks {needle}:\n{}",
            run.stdout
        );
    }
    let c6 = run_liuzi(&["c6", "--help"], b"");
    assert!(c6.stdout.contains("--letters") && c6.stdout.contains("--sau-placeholder"));
}

#[test]
fn bad_configuration_is_a_clear_error_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("typo.toml");
    std::fs::write(&path, "[engine]\nthreds = 2\n").unwrap();
    let run = run_liuzi(&["--config", path.to_str().unwrap()], b"name\n");
    assert!(!run.success);
    assert!(run.stdout.is_empty());
    let expected = format!("liuzi: {}: unknown key `engine.threds`", path.display());
    assert!(run.stderr.contains(&expected), "{}", run.stderr);

    let missing = run_liuzi(&["--config", "/nonexistent/liuzi.toml"], b"");
    assert!(!missing.success);
    assert!(
        missing
            .stderr
            .contains("/nonexistent/liuzi.toml: cannot read"),
        "{}",
        missing.stderr
    );
}

#[test]
fn a_value_mix_out_of_range_is_refused_naming_the_key() {
    for bad in ["1.5", "NaN"] {
        let run = run_liuzi(&["--value-mix", bad, "gtp"], b"name\n");
        assert!(!run.success, "--value-mix {bad} was accepted");
        assert!(run.stdout.is_empty());
        assert!(
            run.stderr.contains("search.value_mix must be in 0..=1"),
            "{}",
            run.stderr
        );
    }
    // λ = 1 (leaves valued without playouts) plays.
    let args = ["--config", &fast_config(), "--value-mix", "1", "gtp"];
    let run = run_liuzi(&args, b"genmove b\n");
    assert!(run.success, "{}", run.stderr);
    assert!(run.stdout.starts_with("= "), "{}", run.stdout);
}

#[test]
fn options_are_accepted_and_logs_stay_off_stdout() {
    let args = [
        "-vv",
        "--config",
        &fast_config(),
        "--threads",
        "1",
        "--seed",
        "5",
        "--playouts",
        "10",
        "--weights",
        "none",
        "gtp",
    ];
    let run = run_liuzi(&args, b"name\ngenmove b\n");
    assert!(run.success, "{}", run.stderr);
    let replies: Vec<&str> = run.stdout.split_terminator("\n\n").collect();
    assert_eq!(replies[0], "= Liuzi");
    assert!(replies[1].starts_with("= "));
    assert_eq!(replies.len(), 2);
    assert!(
        run.stderr.contains("configuration loaded"),
        "{}",
        run.stderr
    );

    let bad = run_liuzi(&["--threads", "many"], b"");
    assert!(!bad.success);
    assert!(bad.stdout.is_empty());
}

#[test]
fn a_missing_or_broken_weights_file_stops_start_up_naming_the_file() {
    let missing = run_liuzi(
        &["--weights", "/nonexistent/liuzi.weights", "gtp"],
        b"name\n",
    );
    assert!(!missing.success);
    assert!(missing.stdout.is_empty(), "{}", missing.stdout);
    assert!(
        missing.stderr.contains("/nonexistent/liuzi.weights") && missing.stderr.contains("missing"),
        "{}",
        missing.stderr
    );
    let not_weights = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
    let corrupt = run_liuzi(&["--weights", not_weights, "gtp"], b"name\n");
    assert!(!corrupt.success);
    assert!(
        corrupt.stderr.contains("Cargo.toml") && corrupt.stderr.contains("corrupt"),
        "{}",
        corrupt.stderr
    );
}

#[test]
fn bench_ruler_runs_a_small_storm() {
    let run = run_liuzi(&["bench", "ruler", "--replays", "20"], b"");
    assert!(run.success, "{}", run.stderr);
    assert!(
        run.stdout.contains("ruler storm: ") && run.stdout.contains("commands/s"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("2 errors (expected 2)"),
        "{}",
        run.stdout
    );
}

#[test]
fn alphabeta_plays_legal_stones_over_gtp() {
    let input = b"genmove b\ngenmove w\ngenmove w\nplay b K10\nquit\n";
    let run = run_liuzi(
        &["--config", &fast_config(), "--search", "alphabeta", "gtp"],
        input,
    );
    assert!(run.success, "{}", run.stderr);
    let replies = common::gtp_replies(&run.stdout);
    assert_eq!(replies.len(), 5, "{:?}", replies);
    let stones: Vec<&str> = replies[..3]
        .iter()
        .map(|r| r.trim_start_matches("= "))
        .collect();
    for s in &stones {
        assert!(liuzi::notation::parse_gtp(s, 19).is_some(), "{s}");
    }
    assert!(stones[0] != stones[1] && stones[1] != stones[2] && stones[0] != stones[2]);
    // K10 is refused when the engine already played there, accepted otherwise.
    let k10_taken = stones.contains(&"K10");
    assert_eq!(replies[3].starts_with('?'), k10_taken, "{:?}", replies);
}
