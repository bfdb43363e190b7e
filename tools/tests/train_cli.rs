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

/// Games from the centre stone to a six or 71 stones (whole turns): a six taken when there is
/// one, a block four times in five, otherwise the stone `quiet` picks among the empty cells
/// within 2 lines of a stone (given in board order).
fn write_games_with(
    path: &Path,
    n: usize,
    seed: u64,
    quiet: impl Fn(&Board, &[Point], &mut Xoshiro256PlusPlus) -> Point,
) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
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
                quiet(&b, &near, &mut rng)
            };
            b.play(pick).unwrap();
        }
        lines.push_str(&format_line(&GameRecord::from_board(&b)));
        lines.push('\n');
    }
    std::fs::write(path, lines).unwrap();
}

/// Games of random stones near earlier ones (see [`write_games_with`]).
fn write_games(path: &Path, n: usize) {
    write_games_with(path, n, 5, |_, near, rng| {
        near[rng.gen_range(0..near.len())]
    });
}

/// Games whose players mostly place a stone beside the most of their own (ties and one stone in
/// ten at random): a mover's stone is better than a random one, which comparisons can learn.
fn write_builders_games(path: &Path, n: usize) {
    write_games_with(path, n, 8, |b, near, rng| {
        if rng.gen_bool(0.1) {
            return near[rng.gen_range(0..near.len())];
        }
        let mover = b.to_move();
        let own = |p: Point| {
            b.history()
                .iter()
                .enumerate()
                .filter(|(k, s)| Board::color_of_stone(*k) == mover && s.distance(p) <= 1)
                .count()
        };
        let most = near.iter().map(|&p| own(p)).max().unwrap();
        let best: Vec<Point> = near.iter().copied().filter(|&p| own(p) == most).collect();
        best[rng.gen_range(0..best.len())]
    });
}

/// `liuzi-train-eval --model quadratic` on the records `games` into `out` (phases split at 20
/// stones, 30% held out, two threads), with `extra` options.
fn train_quadratic(games: &str, out: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "--games",
        games,
        "--out",
        out,
        "--phases",
        "20",
        "--validation",
        "0.3",
        "--threads",
        "2",
        "--model",
        "quadratic",
    ];
    args.extend(extra);
    Command::new(env!("CARGO_BIN_EXE_liuzi-train-eval"))
        .args(&args)
        .output()
        .unwrap()
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
    // By default a tree-prior section too (issue #15): every group and length-6 line patterns.
    let tree = w.tree().expect("a tree section");
    assert_eq!(tree.spec(), &liuzi::policy::FeatureSpec::full());
    assert_eq!(tree.line_length(), 6);
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(p("w.weights.report.json")).unwrap())
            .unwrap();
    assert!(!report["sweeps"].as_array().unwrap().is_empty());
    assert!(report["playout_section"]["final_validation"]["mean_log_evidence"].is_number());
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
    // `mean_log_evidence` is the tree priors'; the playout section's is beside it.
    for key in ["mean_log_evidence", "playout_mean_log_evidence"] {
        assert!(
            eval[key].as_f64().unwrap() > eval["uniform_mean_log_evidence"].as_f64().unwrap(),
            "{key}: {eval}"
        );
    }

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
    let b = eval["playout_mean_log_evidence"].as_f64().unwrap();
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

/// `--tree-lines 0` writes a one-section (version 1) file; a tree section without the playout
/// groups, or with patterns too long for the engine's tables, is refused before any work.
#[test]
fn tree_section_options() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    write_games(Path::new(&p("g.games")), 12);
    let (games, one_out, bad_out) = (p("g.games"), p("one.weights"), p("bad.weights"));
    let base = [
        "train",
        "--games",
        &games,
        "--threads",
        "1",
        "--max-sweeps",
        "2",
    ];
    let mut one = base.to_vec();
    one.extend([
        "--tree-lines",
        "0",
        "--groups",
        "own4,tactic",
        "--out",
        &one_out,
    ]);
    run(&one);
    let text = std::fs::read_to_string(p("one.weights")).unwrap();
    assert!(text.starts_with("liuzi-weights 1\n"), "{}", &text[..40]);
    for (extra, says) in [
        (["--tree-lines", "9"].as_slice(), "--tree-lines 9"),
        (
            ["--groups", "own4,cross", "--tree-groups", "own4,tactic"].as_slice(),
            "--tree-groups",
        ),
    ] {
        let mut args = base.to_vec();
        args.extend(extra);
        args.extend(["--out", &bad_out]);
        let out = Command::new(BIN).args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success() && err.contains(says),
            "{extra:?}: {err}"
        );
        assert!(!Path::new(&bad_out).exists());
    }
}

#[test]
fn empty_records_are_refused_and_nothing_is_written() {
    // Issue #18 item 6: train and eval on an empty file exited 0 with uniform weights and NaN.
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("empty.games");
    std::fs::write(&games, "").unwrap();
    let weights = dir.path().join("w.weights");
    let g = games.to_str().unwrap();
    let out = Command::new(BIN)
        .args(["train", "--games", g, "--threads", "1", "--out"])
        .arg(&weights)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("empty.games") && err.contains("no positions"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        1,
        "only the games file"
    );

    liuzi::policy::Gammas::uniform().save(&weights).unwrap();
    let out = Command::new(BIN)
        .args(["eval", "--games", g, "--weights"])
        .arg(&weights)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(out.stdout.is_empty(), "no JSON line with NaN");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("empty.games") && err.contains("no positions"),
        "{err}"
    );
}

/// Every file in `dir` besides the games is a whole output: no temporary or empty file, and
/// weights only with their report and plot.
fn assert_outputs_whole(dir: &Path) {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for name in &names {
        assert!(
            ["g.games", "w.weights", "r.json", "c.svg"].contains(&name.as_str()),
            "stray file {name} in {names:?}"
        );
        let len = std::fs::metadata(dir.join(name)).unwrap().len();
        assert!(len > 0, "{name} is empty");
    }
    if names.contains(&"w.weights".to_string()) {
        assert!(
            names.contains(&"r.json".into()) && names.contains(&"c.svg".into()),
            "{names:?}"
        );
        let report: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("r.json")).unwrap()).unwrap();
        assert!(report["sweeps"].is_array());
        assert!(std::fs::read_to_string(dir.join("c.svg"))
            .unwrap()
            .trim_end()
            .ends_with("</svg>"));
        liuzi::policy::Gammas::load(&dir.join("w.weights")).unwrap();
    }
}

#[cfg(unix)]
#[test]
fn a_kill_leaves_the_whole_outputs_or_none() {
    // Issue #18 item 10: the report and plot were written after the weights, non-atomically, so
    // a kill left weights without a report, a 0-byte report or a stray temporary file.
    let games_dir = tempfile::tempdir().unwrap();
    let games = games_dir.path().join("g.games");
    write_games(&games, 400);
    for delay_ms in [None, Some(0), Some(300), Some(1000)] {
        let dir = tempfile::tempdir().unwrap();
        std::fs::copy(&games, dir.path().join("g.games")).unwrap();
        let weights = dir.path().join("w.weights");
        let mut child = Command::new(BIN)
            .args(["train", "--threads", "1", "--max-sweeps", "2", "--games"])
            .arg(dir.path().join("g.games"))
            .arg("--out")
            .arg(&weights)
            .arg("--report")
            .arg(dir.path().join("r.json"))
            .arg("--plot")
            .arg(dir.path().join("c.svg"))
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        match delay_ms {
            // The moment the weights appear: the report must be there already.
            None => {
                while !weights.exists() && child.try_wait().unwrap().is_none() {
                    std::thread::sleep(std::time::Duration::from_micros(200));
                }
            }
            Some(ms) => std::thread::sleep(std::time::Duration::from_millis(ms)),
        }
        nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(child.id() as i32),
            nix::sys::signal::Signal::SIGTERM,
        )
        .unwrap();
        child.wait().unwrap();
        assert_outputs_whole(dir.path());
    }
}

#[test]
fn paper_experiment_reports_every_iteration() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("g.games");
    write_games(&games, 60);
    let report = dir.path().join("l6.json");
    let plot = dir.path().join("l6.svg");
    let out = run(&[
        "paper",
        "--set",
        "l6",
        "--iterations",
        "3",
        "--test",
        "0.2",
        "--threads",
        "1",
        "--games",
        games.to_str().unwrap(),
        "--report",
        report.to_str().unwrap(),
        "--plot",
        plot.to_str().unwrap(),
    ]);
    // A header and one line per iteration: iteration, train, test log-evidence, top-1, top-5.
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    for (i, line) in lines[1..].iter().enumerate() {
        let fields: Vec<f64> = line.split(' ').map(|f| f.parse().unwrap()).collect();
        assert_eq!(fields[0], (i + 1) as f64);
        assert!(fields[1] < 0.0 && fields[2] < 0.0, "{line}");
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(json["sweeps"].as_array().unwrap().len(), 3);
    assert!(json["spec"].as_str().unwrap().contains("length 6/6/6/6"));
    assert!(std::fs::read_to_string(&plot).unwrap().contains("</svg>"));
    let bad = Command::new(BIN)
        .args(["paper", "--set", "l9", "--games"])
        .arg(&games)
        .args(["--report", "x", "--plot", "y"])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("unknown feature set `l9`"));
}

/// `liuzi-train-eval --baseline`: the baseline is scored on the same held-out positions as the
/// new file, overall and per input file. Retrained with the same seed, the file the first run
/// wrote is the model the second run fits, so the two score alike to the last digit; a missing
/// baseline is an error naming it, before any work and with nothing written.
#[test]
fn train_eval_scores_a_baseline_on_the_same_held_out_positions() {
    const EVAL_BIN: &str = env!("CARGO_BIN_EXE_liuzi-train-eval");
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    write_games(Path::new(&p("g.games")), 60);
    let train = |out: &str, extra: &[&str]| {
        let mut args = vec![
            "--games".to_string(),
            p("g.games"),
            "--out".to_string(),
            p(out),
            "--phases".to_string(),
            "20".to_string(),
            "--validation".to_string(),
            "0.3".to_string(),
            "--threads".to_string(),
            "1".to_string(),
        ];
        args.extend(extra.iter().map(|s| s.to_string()));
        Command::new(EVAL_BIN).args(&args).output().unwrap()
    };
    let first = train("a.eval", &[]);
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let second = train("b.eval", &["--baseline", &p("a.eval")]);
    assert!(
        second.status.success(),
        "{}",
        String::from_utf8_lossy(&second.stderr)
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(p("b.eval.report.json")).unwrap()).unwrap();
    let inputs = report["per_input"].as_array().unwrap();
    assert_eq!(inputs.len(), 1);
    let positions = inputs[0]["positions_validation"].as_u64().unwrap();
    assert!(positions > 0, "{report}");
    assert_eq!(inputs[0]["new"], inputs[0]["baseline"], "{report}");
    assert_eq!(report["baseline_validation"], inputs[0]["new"], "{report}");
    // The first run had no baseline.
    let first_report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(p("a.eval.report.json")).unwrap()).unwrap();
    assert!(first_report["baseline_validation"].is_null());
    assert_eq!(first_report["per_input"][0]["new"], inputs[0]["new"]);

    let bad = train("c.eval", &["--baseline", &p("missing.eval")]);
    assert!(!bad.status.success());
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("missing.eval"), "{err}");
    assert!(!Path::new(&p("c.eval")).exists());
}

/// `liuzi-train-eval --model quadratic`: the file holds logistic phases that the engine's loader
/// reads, each phase's penalty is chosen from the grid on the inner split, and the file as the
/// engine evaluates it (compiled) scores what the trainer's own reference scored.
#[test]
fn train_eval_quadratic_model_writes_logistic_phases() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    write_games(Path::new(&p("g.games")), 60);
    let train = |out: &str, extra: &[&str]| train_quadratic(&p("g.games"), &p(out), extra);
    let out = train("q.eval", &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(p("q.eval")).unwrap();
    assert_eq!(text.matches(" logistic\n").count(), 2, "{text}");
    let evaluator = liuzi::eval::Evaluator::load(Path::new(&p("q.eval"))).unwrap();
    assert!(matches!(
        evaluator.phase(30),
        liuzi::eval::Phase::Logistic(_)
    ));
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(p("q.eval.report.json")).unwrap()).unwrap();
    assert_eq!(report["model"], "quadratic");
    for phase in report["per_phase"].as_array().unwrap() {
        let grid = phase["quadratic_grid_scores"].as_array().unwrap();
        assert_eq!(grid.len(), 4, "{phase}");
        let chosen = phase["quadratic_l2"].as_f64().unwrap();
        let best = grid
            .iter()
            .min_by(|a, b| a[1].as_f64().unwrap().total_cmp(&b[1].as_f64().unwrap()))
            .unwrap();
        assert_eq!(best[0].as_f64().unwrap(), chosen, "{phase}");
    }
    let reference = report["validation"]["quadratic_with_rules"]["log_loss"]
        .as_f64()
        .unwrap();
    let saved = report["per_input"][0]["new"]["log_loss"].as_f64().unwrap();
    assert!((reference - saved).abs() < 1e-9, "{reference} vs {saved}");

    // A fixed penalty is used as given; a bad one is refused before anything is written.
    let fixed = train("f.eval", &["--quadratic-l2", "0.001"]);
    assert!(
        fixed.status.success(),
        "{}",
        String::from_utf8_lossy(&fixed.stderr)
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(p("f.eval.report.json")).unwrap()).unwrap();
    assert_eq!(report["per_phase"][0]["quadratic_l2"], 0.001);
    let bad = train("b.eval", &["--quadratic-l2", "lots"]);
    assert!(!bad.status.success());
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(
        err.contains("--quadratic-l2") && err.contains("lots"),
        "{err}"
    );
    assert!(!Path::new(&p("b.eval")).exists());
}

/// `liuzi-train-eval --comparisons`: the report scores the new file and a quadratic baseline on
/// the same held-out comparisons, and comparison training prefers the game's stones more often
/// than the same fit without it; the options' misuses are refused before anything is written.
#[test]
fn train_eval_comparisons_are_trained_and_scored() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    write_builders_games(Path::new(&p("g.games")), 80);
    let train = |out: &str, extra: &[&str]| {
        let mut args = vec!["--quadratic-l2", "0.001"];
        args.extend(extra);
        train_quadratic(&p("g.games"), &p(out), &args)
    };
    let ok = |out: &std::process::Output| {
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        )
    };
    let report = |name: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(p(name)).unwrap()).unwrap()
    };
    ok(&train("plain.eval", &[]));
    assert!(report("plain.eval.report.json")["comparisons"].is_null());
    for (out, pick) in [("random.eval", "random"), ("fav.eval", "favourites")] {
        ok(&train(
            out,
            &[
                "--comparisons",
                "3",
                "--comparison-weight",
                "4",
                "--comparison-pick",
                pick,
                "--baseline",
                &p("plain.eval"),
            ],
        ));
        let r = report(&format!("{out}.report.json"));
        let c = &r["comparisons"];
        assert_eq!(c["per_position"], 3, "{r}");
        assert_eq!(c["pick"], pick, "{r}");
        assert!(c["pairs_train"].as_u64().unwrap() > 100, "{r}");
        assert!(c["pairs_validation"].as_u64().unwrap() > 30, "{r}");
        let (new, base) = (
            c["new"]["log_loss"].as_f64().unwrap(),
            c["baseline"]["log_loss"].as_f64().unwrap(),
        );
        assert!(new < base, "{pick}: trained {new} against untrained {base}");
    }
    for (extra, needle) in [
        (&["--comparisons", "2", "--patterns"][..], "--comparisons"),
        (
            &["--comparisons", "2", "--comparison-weight", "0"][..],
            "--comparison-weight",
        ),
        (
            &["--comparisons", "2", "--comparison-pick", "favourites"][..],
            "--baseline",
        ),
        (&["--comparison-pick", "favourites"][..], "--comparisons N"),
    ] {
        let bad = train("bad.eval", extra);
        assert!(!bad.status.success(), "{extra:?}");
        let err = String::from_utf8_lossy(&bad.stderr);
        assert!(err.contains(needle), "{extra:?}: {err}");
        assert!(!Path::new(&p("bad.eval")).exists());
    }
}

/// `--match-games` records train from the first chosen stone: a file of match records alone
/// trains, and the same games read as match records give 3 positions a game fewer.
#[test]
fn match_games_skip_the_set_opening_stones() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    write_games(Path::new(&p("m.games")), 20);
    run(&[
        "train",
        "--match-games",
        &p("m.games"),
        "--out",
        &p("m.weights"),
        "--max-sweeps",
        "2",
        "--tree-lines",
        "0",
        "--threads",
        "2",
        "--groups",
        "own4,nearest",
    ]);
    let positions = |flag: &str| {
        last_json(&run(&[
            "eval",
            "--weights",
            &p("m.weights"),
            flag,
            &p("m.games"),
        ]))["positions"]
            .as_u64()
            .unwrap()
    };
    assert_eq!(positions("--games") - positions("--match-games"), 3 * 20);
}
