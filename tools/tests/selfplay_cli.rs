//! `liuzi-selfplay` and `liuzi-train-eval --selfplay` end to end: a run, its resumption with
//! more games, a refused file of other settings, a stop by SIGINT that leaves whole lines, and
//! the trainer's soft labels from the file.

use std::path::Path;
use std::process::{Command, Output};

const SELFPLAY: &str = env!("CARGO_BIN_EXE_liuzi-selfplay");
const TRAIN_EVAL: &str = env!("CARGO_BIN_EXE_liuzi-train-eval");

/// The command of a run of `games` random-opening games at `playouts` a stone into `out`.
fn selfplay_command(out: &Path, games: usize, playouts: u64) -> Command {
    let mut command = Command::new(SELFPLAY);
    command
        .args(["--out", out.to_str().unwrap()])
        .args(["--games", &games.to_string()])
        .args(["--playouts", &playouts.to_string()])
        .args(["--random-openings", "--seed", "7", "--concurrency", "2"]);
    command
}

fn selfplay(out: &Path, games: usize, playouts: u64) -> Output {
    selfplay_command(out, games, playouts).output().unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The games of a file, whose every line must parse.
fn game_lines(path: &Path) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.ends_with('\n'), "whole lines only");
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(lines[0]["selfplay_format"].is_number(), "{}", lines[0]);
    lines[1..].to_vec()
}

#[test]
fn a_run_resumes_refuses_other_settings_and_trains_the_evaluator() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("s.jsonl");
    let run = selfplay(&out, 16, 16);
    assert!(run.status.success(), "{}", stderr(&run));
    assert_eq!(game_lines(&out).len(), 16);
    let more = selfplay(&out, 20, 16);
    assert!(more.status.success(), "{}", stderr(&more));
    assert!(
        stderr(&more).contains("4 games played (16 were in"),
        "{}",
        stderr(&more)
    );
    let mut ids: Vec<u64> = game_lines(&out)
        .iter()
        .map(|g| g["game"].as_u64().unwrap())
        .collect();
    ids.sort_unstable();
    assert_eq!(ids, (0..20).collect::<Vec<u64>>());

    let other = selfplay(&out, 20, 32);
    assert!(!other.status.success());
    let err = stderr(&other);
    assert!(
        err.contains("s.jsonl") && err.contains("playouts = 16") && err.contains("32"),
        "{err}"
    );

    // A training run on `file` writing NAME.eval and its report, with the smoke test's small
    // phases and split, plus `args`.
    let train = |file: &Path, name: &str, args: &[&str]| {
        let eval = dir.path().join(format!("{name}.eval"));
        Command::new(TRAIN_EVAL)
            .args(["--selfplay", file.to_str().unwrap()])
            .args(["--out", eval.to_str().unwrap()])
            .args(["--phases", "30", "--validation", "0.3", "--per-game", "40"])
            .args(["--min-stones", "8", "--threads", "2"])
            .args(args)
            .output()
            .unwrap()
    };
    let report_of = |name: &str| -> serde_json::Value {
        let path = dir.path().join(format!("{name}.eval.report.json"));
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    };
    let soft = ["--model", "quadratic", "--value-label-mix", "0.5"];
    let trained = train(&out, "0.5-quadratic", &soft);
    assert!(trained.status.success(), "{}", stderr(&trained));
    let report = report_of("0.5-quadratic");
    assert_eq!(report["value_label_mix"], 0.5);
    assert!(report["inputs"][0].as_str().unwrap().ends_with("s.jsonl"));
    assert!(report["positions_train"].as_u64().unwrap() > 100);
    // The games are read in index order, so a file holding the same games in another order
    // trains the same evaluator; --selfplay-games keeps a run's first games.
    let text = std::fs::read_to_string(&out).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[1..].reverse();
    let reversed = dir.path().join("reversed.jsonl");
    std::fs::write(&reversed, lines.join("\n") + "\n").unwrap();
    let run = train(&reversed, "reversed", &soft);
    assert!(run.status.success(), "{}", stderr(&run));
    let body = |name: &str| -> Vec<String> {
        // The `source` line names the input file (and the checksum covers it); the rest must
        // agree.
        let text = std::fs::read_to_string(dir.path().join(format!("{name}.eval"))).unwrap();
        text.lines()
            .filter(|l| !l.starts_with("source") && !l.starts_with("checksum"))
            .map(str::to_owned)
            .collect()
    };
    let (a, b) = (body("0.5-quadratic"), body("reversed"));
    assert_eq!(a.len(), b.len());
    if let Some(k) = (0..a.len()).find(|&k| a[k] != b[k]) {
        panic!("line {k} differs:\n{}\n{}", a[k], b[k]);
    }
    let first_args = [&soft[..], &["--selfplay-games", "12"]].concat();
    let run = train(&reversed, "first", &first_args);
    assert!(run.status.success(), "{}", stderr(&run));
    let first = report_of("first");
    let skipped: u64 = first["games_skipped"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    let used = first["games_train"].as_u64().unwrap()
        + first["games_validation"].as_u64().unwrap()
        + skipped;
    assert_eq!(used, 12, "{first}");
    let missing = train(
        &out,
        "missing",
        &["--model", "quadratic", "--selfplay-games", "21"],
    );
    assert!(!missing.status.success());
    assert!(
        stderr(&missing).contains("s.jsonl") && stderr(&missing).contains("holds 20"),
        "{}",
        stderr(&missing)
    );
    assert!(!dir.path().join("missing.eval").exists());

    let refused = train(
        &out,
        "0.5-qda",
        &["--model", "qda", "--value-label-mix", "0.5"],
    );
    assert!(!refused.status.success());
    assert!(
        stderr(&refused).contains("--model quadratic"),
        "{}",
        stderr(&refused)
    );
}

#[cfg(unix)]
#[test]
fn sigint_stops_after_whole_lines_and_the_run_resumes() {
    use nix::sys::signal::{kill, Signal};
    use nix::unistd::Pid;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("s.jsonl");
    let mut child = selfplay_command(&out, 400, 16)
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while std::fs::read_to_string(&out).map_or(0, |t| t.lines().count()) < 4 {
        assert!(start.elapsed().as_secs() < 60, "no games written");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    kill(Pid::from_raw(child.id() as i32), Signal::SIGINT).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    let written = game_lines(&out).len();
    assert!((3..400).contains(&written), "{written}");
    // The resumed run keeps those games and plays a few more.
    let more = selfplay(&out, written + 2, 16);
    assert!(more.status.success(), "{}", stderr(&more));
    assert_eq!(game_lines(&out).len(), written + 2);
}
