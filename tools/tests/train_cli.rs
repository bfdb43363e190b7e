//! `liuzi-train` end to end on small self-made records: train writes loadable weights, a report and
//! a plot; eval ends with the JSON line; the Coulom `mm` round trip (export-mm, mm,
//! import-ratings) gives weights that evaluate like the built-in fit.

use liuzi::records::{games::format_line, GameRecord};
use liuzi::rules::{Board, Point};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::path::Path;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_liuzi-train");

/// Games of random stones near earlier ones that take a six when one is on the board (71 stones
/// at most: whole turns).
fn write_games(path: &Path, n: usize) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let mut lines = String::new();
    for _ in 0..n {
        let mut b = Board::standard();
        b.play(Point::new(9, 9)).unwrap();
        while !b.is_over() && b.stone_count() < 71 {
            let wins = liuzi::patterns::winning_points(&b);
            let blocks = liuzi::patterns::blocking_points(&b);
            let pick = if !wins.is_empty() {
                wins.to_points(19)[0]
            } else if !blocks.is_empty() && rng.gen_bool(0.8) {
                blocks.to_points(19)[0]
            } else {
                let near: Vec<Point> = b
                    .legal_points()
                    .filter(|p| b.history().iter().any(|s| s.distance(*p) <= 2))
                    .collect();
                near[rng.gen_range(0..near.len())]
            };
            b.play(pick).unwrap();
        }
        lines.push_str(&format_line(&GameRecord::from_board(&b)));
        lines.push('\n');
    }
    std::fs::write(path, lines).unwrap();
}

fn run(args: &[&str]) -> String {
    let out = Command::new(BIN).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn last_json(stdout: &str) -> serde_json::Value {
    serde_json::from_str(stdout.lines().last().expect("a JSON line")).unwrap()
}

#[test]
fn train_eval_and_mm_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    write_games(Path::new(&p("g.games")), 40);

    run(&[
        "train",
        "--games",
        &p("g.games"),
        "--out",
        &p("w.weights"),
        "--max-sweeps",
        "4",
        "--threads",
        "2",
        "--groups",
        "own4,nearest,tactic",
    ]);
    let w = liuzi::policy::Gammas::load(Path::new(&p("w.weights"))).unwrap();
    assert_eq!(w.spec().groups().len(), 3);
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(p("w.weights.report.json")).unwrap())
            .unwrap();
    assert!(!report["sweeps"].as_array().unwrap().is_empty());
    assert!(std::fs::read_to_string(p("w.weights.curve.svg"))
        .unwrap()
        .starts_with("<svg"));

    let eval = last_json(&run(&[
        "eval",
        "--weights",
        &p("w.weights"),
        "--games",
        &p("g.games"),
    ]));
    for key in ["positions", "mean_log_evidence", "top1", "top5"] {
        assert!(eval[key].is_number(), "{key} missing: {eval}");
    }
    assert!(
        eval["mean_log_evidence"].as_f64().unwrap()
            > eval["uniform_mean_log_evidence"].as_f64().unwrap()
    );

    run(&[
        "export-mm",
        "--games",
        &p("g.games"),
        "--groups",
        "own4,nearest,tactic",
        "--out",
        &p("g.mm"),
    ]);
    run(&[
        "mm",
        "--input",
        &p("g.mm"),
        "--output",
        &p("ratings.txt"),
        "--tolerance",
        "1e-6",
    ]);
    run(&[
        "import-ratings",
        "--ratings",
        &p("ratings.txt"),
        "--groups",
        "own4,nearest,tactic",
        "--out",
        &p("mm.weights"),
    ]);
    let via_mm = last_json(&run(&[
        "eval",
        "--weights",
        &p("mm.weights"),
        "--games",
        &p("g.games"),
    ]));
    assert_eq!(via_mm["positions"], eval["positions"]);
    // Both fits maximise the same posterior on (nearly) the same data: the mm fit sees every
    // position, the trainer 90% of them, so they agree loosely on this tiny set.
    let a = via_mm["mean_log_evidence"].as_f64().unwrap();
    let b = eval["mean_log_evidence"].as_f64().unwrap();
    assert!((a - b).abs() < 0.5, "{a} vs {b}");
}

#[test]
fn bad_inputs_fail_with_a_message() {
    let out = Command::new(BIN)
        .args([
            "eval",
            "--weights",
            "/nonexistent/x.weights",
            "--games",
            "/nonexistent/g.games",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("x.weights") && err.contains("missing"),
        "{err}"
    );
}
