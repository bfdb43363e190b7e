//! liuzi-tune against the real engine: iterations are recorded, resumed, and end in a settings
//! file the engine reads; a bad spec is refused naming the file and the key.

mod common;
use common::liuzi_binary;

use liuzi::config::EngineConfig;
use std::path::Path;
use std::process::Command;

const TUNE: &str = env!("CARGO_BIN_EXE_liuzi-tune");

const SPEC: &str = include_str!("data/tune-spec.toml");

fn tune(dir: &Path, iterations: u32) -> std::process::Output {
    // Fixed playouts and seeds: fast games that do not depend on the machine's speed. The
    // engine's own time control (st=0.5) must reach it; -v logs each stone's budget.
    let engine = format!(
        "name=liuzi cmd='{} gtp --threads 1 --playouts 20 --seed 3 -v' st=0.5",
        liuzi_binary().display()
    );
    Command::new(TUNE)
        .arg("--spec")
        .arg(dir.join("spec.toml"))
        .args(["--engine", &engine, "--iterations", &iterations.to_string()])
        .arg("--state")
        .arg(dir.join("state.jsonl"))
        .arg("--engine-logs")
        .arg(dir.join("logs"))
        .output()
        .expect("liuzi-tune runs")
}

/// The time budgets (seconds) the engine logged for its stones: `Searched, 0.027 s of 0.108 s`.
fn logged_budgets(log: &Path) -> Vec<f64> {
    let text = std::fs::read_to_string(log).unwrap();
    text.lines()
        .filter_map(|l| l.split(" s of ").nth(1)?.split(' ').next()?.parse().ok())
        .collect()
}

#[test]
fn iterations_are_recorded_resumed_and_end_in_a_config() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("spec.toml"), SPEC).unwrap();
    let out = tune(dir.path(), 2);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = tune(dir.path(), 1);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("resuming"));

    let text = std::fs::read_to_string(dir.path().join("state.jsonl")).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    for (k, line) in lines.iter().enumerate() {
        assert_eq!(line["iteration"], k as u64);
        // A direct pair: two games, colours swapped, each ended by a six or a full board.
        let games = line["games"].as_array().unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(
            (games[0]["black"].as_str(), games[1]["black"].as_str()),
            (Some("plus"), Some("minus"))
        );
        for g in games {
            let reason = g["reason"].as_str().unwrap();
            assert!(reason == "six" || reason == "full_board", "{reason}");
        }
        let c = line["theta_after"][0].as_f64().unwrap();
        assert!((0.1..=1.0).contains(&c));
        if k > 0 {
            assert_eq!(
                line["theta"],
                lines[k - 1]["theta_after"],
                "resumed from the last line"
            );
        }
    }
    // Both sides searched on the spec's 0.5 s a turn, not on the engine's untimed default.
    for side in ["plus", "minus"] {
        let budgets = logged_budgets(&dir.path().join(format!("logs/{side}.stderr.log")));
        assert!(!budgets.is_empty(), "{side} logged no stone");
        assert!(budgets.iter().all(|&b| b <= 0.5), "{side}: {budgets:?}");
    }
    // stdout: the settings reached, a file the engine reads.
    let config = String::from_utf8(out.stdout).unwrap();
    let parsed = EngineConfig::from_toml(&config, "stdout", Path::new(".")).unwrap();
    let last = lines[2]["theta_after"][0].as_f64().unwrap();
    assert!((f64::from(parsed.search.exploration) - last).abs() < 1e-6);
}

#[test]
fn a_bad_spec_is_refused_naming_the_file_and_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let bad = SPEC.replace("search.max_children", "search.max_childs");
    std::fs::write(dir.path().join("spec.toml"), bad).unwrap();
    let out = tune(dir.path(), 1);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("spec.toml") && err.contains("max_childs"),
        "{err}"
    );
    assert!(!dir.path().join("state.jsonl").exists(), "nothing written");
}
