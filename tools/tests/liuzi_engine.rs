//! Matches against the real `liuzi` engine binary, in each protocol it speaks.

mod common;
use common::liuzi_binary;

use std::process::Command;

#[test]
fn liuzi_plays_clean_games_in_every_protocol() {
    let liuzi = liuzi_binary();
    // The shipped configuration by path: the binary may live in any CARGO_TARGET_DIR.
    let config = concat!(env!("CARGO_MANIFEST_DIR"), "/../engine-config/default.toml");
    let liuzi = format!("{} --config {config}", liuzi.to_str().unwrap());
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
