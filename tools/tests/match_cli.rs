//! End-to-end runs of `liuzi-match` with the scripted `fake-engine`: records, resume after an
//! interrupt, SPRT stop, gauntlet and round-robin, engine files.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const MATCH: &str = env!("CARGO_BIN_EXE_liuzi-match");
const FAKE: &str = env!("CARGO_BIN_EXE_fake-engine");

fn engine(name: &str, args: &str) -> String {
    format!("name={name} cmd='{FAKE} {args}'")
}

fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(MATCH)
        .current_dir(dir)
        .args(args)
        .output()
        .expect("liuzi-match runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn results(dir: &Path, file: &str) -> Vec<serde_json::Value> {
    std::fs::read_to_string(dir.join(file))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).expect("valid JSON line"))
        .collect()
}

#[test]
fn match_writes_results_sgf_and_games_with_a_table() {
    let dir = tempfile::tempdir().unwrap();
    let a = engine("alpha", "--seed 1");
    let b = engine("beta", "--protocol sau --noise --seed 2");
    let out = run(
        dir.path(),
        &[
            "--engine",
            &a,
            "--engine",
            &format!("{b} proto=sau"),
            "--games",
            "4",
            "--sgf-dir",
            "sgf",
            "--games-out",
            "m.games",
            "--st",
            "2",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("alpha vs beta: 4 games"), "{stdout}");
    assert!(stdout.contains("LOS") || stdout.contains("Elo"), "{stdout}");
    let lines = results(dir.path(), "match-results.jsonl");
    assert_eq!(lines.len(), 4);
    let ids: BTreeSet<u64> = lines.iter().map(|l| l["game"].as_u64().unwrap()).collect();
    assert_eq!(ids, (0..4).collect());
    assert_eq!(
        std::fs::read_dir(dir.path().join("sgf")).unwrap().count(),
        4
    );
    let games = std::fs::read_to_string(dir.path().join("m.games")).unwrap();
    assert_eq!(games.lines().count(), 4);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("m.meta.tsv"))
            .unwrap()
            .lines()
            .count(),
        4
    );
    // The .games lines read back with the records module and match the results file.
    let records = liuzi::records::read_file(&dir.path().join("m.games")).unwrap();
    assert_eq!(records.len(), 4);
    // Colours swap within a pair.
    assert_eq!(lines[0]["black"], "alpha");
    assert_eq!(lines[1]["black"], "beta");
    // A second run without --resume refuses to mix matches.
    let again = run(
        dir.path(),
        &[
            "--engine",
            &a,
            "--engine",
            &format!("{b} proto=sau"),
            "--games",
            "4",
        ],
    );
    assert!(!again.status.success());
    assert!(
        text(&again.stderr).contains("--resume"),
        "{}",
        text(&again.stderr)
    );
}

#[test]
fn a_closed_stdout_costs_the_table_only() {
    // The reader of stdout is gone before the summary (a killed `| tee`): the games are all in
    // the results file, and the runner says so on stderr instead of panicking.
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (engine("alpha", "--seed 1"), engine("beta", "--seed 2"));
    let mut child = Command::new(MATCH)
        .current_dir(dir.path())
        .args(["--engine", &a, "--engine", &b, "--games", "2", "--st", "2"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("liuzi-match runs");
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        stderr.contains("could not be written to stdout"),
        "{stderr}"
    );
    assert_eq!(results(dir.path(), "match-results.jsonl").len(), 2);
}

#[test]
fn a_second_run_on_the_same_results_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let slow = engine("slow", "--behaviour slow --delay-ms 10 --seed 3");
    let quick = engine("quick", "--seed 4");
    let args = [
        "--engine",
        &slow,
        "--engine",
        &quick,
        "--games",
        "6",
        "--size",
        "9",
        "--results",
        "shared.jsonl",
    ];
    let first = Command::new(MATCH)
        .current_dir(dir.path())
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Once the first run has written a game it certainly holds the file.
    let start = Instant::now();
    while results(dir.path(), "shared.jsonl").is_empty() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no game finished"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // Both a fresh start and a resume would write into the running match's file.
    for extra in [&[][..], &["--resume"][..]] {
        let second = run(dir.path(), &[&args[..], extra].concat());
        assert!(!second.status.success());
        let err = text(&second.stderr);
        assert!(err.contains("in use by another liuzi-match run"), "{err}");
    }
    let out = first.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines = results(dir.path(), "shared.jsonl");
    let ids: BTreeSet<u64> = lines.iter().map(|l| l["game"].as_u64().unwrap()).collect();
    assert_eq!((lines.len(), ids), (6, (0..6).collect()));
}

#[test]
#[cfg(target_os = "linux")]
fn interrupted_match_resumes_without_losing_games() {
    let dir = tempfile::tempdir().unwrap();
    let marker = format!("{}", 700_000 + std::process::id());
    let slow = engine(
        "slow",
        &format!("--behaviour slow --delay-ms 15 --seed {marker}"),
    );
    let quick = engine("quick", "--seed 4");
    let args = [
        "--engine",
        &slow,
        "--engine",
        &quick,
        "--games",
        "8",
        "--size",
        "9",
        "--random-openings",
        "--sgf-dir",
        "sgf",
        "--concurrency",
        "2",
    ];
    let child = Command::new(MATCH)
        .current_dir(dir.path())
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while results(dir.path(), "match-results.jsonl").len() < 2 {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no games finished"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    let out = child.wait_with_output().unwrap();
    let interrupted = results(dir.path(), "match-results.jsonl");
    if interrupted.len() < 8 {
        assert_eq!(out.status.code(), Some(130), "{}", text(&out.stderr));
        assert!(
            text(&out.stderr).contains("--resume"),
            "{}",
            text(&out.stderr)
        );
    }
    // No engine outlives the interrupted runner.
    std::thread::sleep(Duration::from_millis(200));
    let survivors = std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| std::fs::read(e.ok()?.path().join("cmdline")).ok())
        .filter(|cmd| String::from_utf8_lossy(cmd).contains(&marker))
        .count();
    assert_eq!(survivors, 0, "engines left running after the interrupt");

    let resumed = run(dir.path(), &[&args[..], &["--resume"]].concat());
    assert!(resumed.status.success(), "{}", text(&resumed.stderr));
    let all = results(dir.path(), "match-results.jsonl");
    assert_eq!(all.len(), 8);
    // Games finished before the interrupt are kept as they were.
    assert_eq!(&all[..interrupted.len()], &interrupted[..]);
    let ids: BTreeSet<u64> = all.iter().map(|l| l["game"].as_u64().unwrap()).collect();
    assert_eq!(ids, (0..8).collect());
    assert_eq!(
        std::fs::read_dir(dir.path().join("sgf")).unwrap().count(),
        8
    );
    assert!(
        text(&resumed.stdout).contains("slow vs quick: 8 games"),
        "{}",
        text(&resumed.stdout)
    );

    // Resuming with different engines is refused.
    let other = engine("other", "--seed 5");
    let wrong = run(
        dir.path(),
        &[
            "--engine", &slow, "--engine", &other, "--games", "8", "--size", "9", "--resume",
        ],
    );
    assert!(!wrong.status.success());
    assert!(
        text(&wrong.stderr).contains("schedules"),
        "{}",
        text(&wrong.stderr)
    );
}

#[test]
fn sprt_stops_a_decided_match() {
    let dir = tempfile::tempdir().unwrap();
    let good = engine("good", "--seed 1");
    let bad = engine("bad", "--behaviour illegal --after 0");
    let out = run(
        dir.path(),
        &[
            "--engine",
            &good,
            "--engine",
            &bad,
            "--games",
            "400",
            "--size",
            "9",
            "--sprt",
            "elo0=0,elo1=50",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("H1 accepted"), "{stdout}");
    let played = results(dir.path(), "match-results.jsonl").len();
    assert!((2..400).contains(&played), "played {played}");
    assert!(results(dir.path(), "match-results.jsonl")
        .iter()
        .all(|l| l["reason"] == "illegal"));
}

#[test]
fn sprt_starts_no_game_after_the_decision() {
    use liuzi_tools::match_runner::report::Tally;
    use liuzi_tools::match_runner::results::GameLine;
    use liuzi_tools::stats::{EloModel, SprtConfig, SprtDecision};
    // The loser plays an illegal stone at once, so games take milliseconds: a worker that took
    // its next game before the collector counted the last one would run far past the decision.
    let concurrency = 3;
    let dir = tempfile::tempdir().unwrap();
    let good = engine("good", "--seed 1");
    let bad = engine("bad", "--behaviour illegal --after 0");
    let out = run(
        dir.path(),
        &[
            "--engine",
            &good,
            "--engine",
            &bad,
            "--games",
            "400",
            "--size",
            "9",
            "--concurrency",
            &concurrency.to_string(),
            "--sprt",
            "elo0=0,elo1=100",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("H1 accepted"),
        "{}",
        text(&out.stdout)
    );
    // Replay the results file in the order the games were recorded.
    let config = SprtConfig {
        elo0: 0.0,
        elo1: 100.0,
        alpha: 0.05,
        beta: 0.05,
        model: EloModel::Logistic,
    };
    let lines: Vec<GameLine> = results(dir.path(), "match-results.jsonl")
        .into_iter()
        .map(|v| serde_json::from_value(v).unwrap())
        .collect();
    let mut tally = Tally::new(vec!["good".into(), "bad".into()], &[(0, 1)]);
    let decided_at = lines
        .iter()
        .position(|line| {
            tally.add(line);
            tally.sprt(&config).unwrap().decision != SprtDecision::Continue
        })
        .expect("the test decides");
    let after = lines.len() - (decided_at + 1);
    assert!(
        after <= concurrency,
        "{after} games recorded after the decision at game {}",
        decided_at + 1
    );
}

#[test]
fn progress_has_an_eta_on_a_terminal_and_plain_lines_elsewhere() {
    let dir = tempfile::tempdir().unwrap();
    let a = engine("alpha", "--seed 1");
    let b = engine("beta", "--seed 2");
    let args = |results: &str| {
        [
            "--engine",
            &a,
            "--engine",
            &b,
            "--games",
            "4",
            "--size",
            "9",
            "--results",
            results,
        ]
        .map(String::from)
    };
    // Stderr a pipe: one plain line per game, nothing drawn.
    let plain = run(
        dir.path(),
        &args("plain.jsonl").each_ref().map(String::as_str),
    );
    assert!(plain.status.success(), "{}", text(&plain.stderr));
    let log = text(&plain.stderr);
    assert!(log.lines().any(|l| l.starts_with("[4/4 games")), "{log}");
    assert!(
        !log.contains('\x1b') && !log.contains('\r') && !log.contains("ETA"),
        "{log}"
    );
    // A terminal: `script` (util-linux) runs the match on a pseudo-terminal.
    let mut command = vec![MATCH.to_string()];
    command.extend(args("tty.jsonl"));
    let Ok(tty) = Command::new("script")
        .args(["-qec", &shell_words::join(&command), "/dev/null"])
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .output()
    else {
        eprintln!("no `script` command: the terminal half of this test is skipped");
        return;
    };
    assert!(tty.status.success(), "{}", text(&tty.stdout));
    let screen = text(&tty.stdout);
    assert!(
        screen.contains("ETA") && screen.contains("games"),
        "{screen}"
    );
    assert_eq!(results(dir.path(), "tty.jsonl").len(), 4);
}

#[test]
fn gauntlet_and_round_robin_schedule_every_pairing() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("engines.toml");
    std::fs::write(
        &file,
        format!(
            "[[engine]]\nname = \"e1\"\ncommand = [\"{FAKE}\", \"--seed\", \"1\"]\n\n\
             [[engine]]\nname = \"e2\"\ncommand = [\"{FAKE}\", \"--seed\", \"2\"]\n\n\
             [[engine]]\nname = \"e3\"\ncommand = \"{FAKE} --protocol cloudict --size 9\"\nprotocol = \"cloudict\"\n"
        ),
    )
    .unwrap();
    let rr = run(
        dir.path(),
        &[
            "--engines",
            "engines.toml",
            "--mode",
            "round-robin",
            "--games",
            "2",
            "--size",
            "9",
            "--results",
            "rr.jsonl",
        ],
    );
    assert!(rr.status.success(), "{}", text(&rr.stderr));
    let pairs: BTreeSet<(String, String)> = results(dir.path(), "rr.jsonl")
        .iter()
        .map(|l| {
            let mut p = [
                l["black"].as_str().unwrap().to_string(),
                l["white"].as_str().unwrap().to_string(),
            ];
            p.sort();
            (p[0].clone(), p[1].clone())
        })
        .collect();
    assert_eq!(pairs.len(), 3);
    assert_eq!(results(dir.path(), "rr.jsonl").len(), 6);
    // liuzi-rate reads the results file and ranks all three engines.
    let rate = Command::new(env!("CARGO_BIN_EXE_liuzi-rate"))
        .current_dir(dir.path())
        .args(["rr.jsonl", "--anchor", "e1", "--anchor-elo", "1500"])
        .output()
        .unwrap();
    assert!(rate.status.success(), "{}", text(&rate.stderr));
    let table = text(&rate.stdout);
    assert_eq!(
        table
            .lines()
            .filter(|l| matches!(l.split_whitespace().nth(1), Some("e1" | "e2" | "e3")))
            .count(),
        3,
        "{table}"
    );
    assert!(table.contains("+1500.0"), "{table}");
    assert!(table.contains("6 games, 3 engines"), "{table}");
    let gauntlet = run(
        dir.path(),
        &[
            "--engines",
            "engines.toml",
            "--use",
            "e3",
            "--use",
            "e1",
            "--use",
            "e2",
            "--mode",
            "gauntlet",
            "--games",
            "2",
            "--size",
            "9",
            "--results",
            "g.jsonl",
        ],
    );
    assert!(gauntlet.status.success(), "{}", text(&gauntlet.stderr));
    let g = results(dir.path(), "g.jsonl");
    assert_eq!(g.len(), 4);
    assert!(g.iter().all(|l| l["black"] == "e3" || l["white"] == "e3"));
}

#[test]
fn bad_setups_fail_before_the_first_game() {
    let dir = tempfile::tempdir().unwrap();
    let a = engine("a", "");
    let missing = "name=m cmd=/nonexistent/engine";
    let out = run(
        dir.path(),
        &["--engine", &a, "--engine", missing, "--games", "2"],
    );
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("/nonexistent/engine"),
        "{}",
        text(&out.stderr)
    );
    let sized = engine("s", "--only-size 19");
    let out = run(
        dir.path(),
        &[
            "--engine", &a, "--engine", &sized, "--games", "2", "--size", "9",
        ],
    );
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("9x9"), "{}", text(&out.stderr));
    let sau = format!("{} proto=sau", engine("sau", "--protocol sau"));
    let out = run(
        dir.path(),
        &["--engine", &a, "--engine", &sau, "--random-openings"],
    );
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("placements"),
        "{}",
        text(&out.stderr)
    );
    assert!(
        !dir.path().join("match-results.jsonl").exists()
            || results(dir.path(), "match-results.jsonl").is_empty()
    );
}

/// `(file name, game ids marked in it)` of every engine log in `dir` whose name starts with
/// `engine.`.
fn marked_games(dir: &Path, engine: &str) -> Vec<(String, Vec<u64>)> {
    let mut files: Vec<(String, Vec<u64>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(&format!("{engine}.")))
        .map(|name| {
            let ids = std::fs::read_to_string(dir.join(&name))
                .unwrap()
                .lines()
                .filter_map(|l| l.strip_prefix("liuzi-match: game "))
                .map(|rest| rest.split(' ').next().unwrap().parse().unwrap())
                .collect();
            (name, ids)
        })
        .collect();
    files.sort();
    files
}

#[test]
fn engine_logs_mark_each_game_and_keep_concurrent_games_in_separate_files() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (engine("alpha", "--seed 1"), engine("beta", "--seed 2"));
    for (concurrency, results_file, logs) in
        [("1", "one.jsonl", "logs1"), ("2", "two.jsonl", "logs2")]
    {
        let out = run(
            dir.path(),
            &[
                "--engine",
                &a,
                "--engine",
                &b,
                "--games",
                "6",
                "--size",
                "9",
                "--random-openings",
                "--concurrency",
                concurrency,
                "--results",
                results_file,
                "--engine-logs",
                logs,
            ],
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        let played: BTreeSet<u64> = results(dir.path(), results_file)
            .iter()
            .map(|l| l["game"].as_u64().unwrap())
            .collect();
        assert_eq!(played, (0..6).collect());
        for name in ["alpha", "beta"] {
            let files = marked_games(&dir.path().join(logs), name);
            // Every game is marked once in each engine's logs, whichever worker played it.
            let mut marked: Vec<u64> = files.iter().flat_map(|(_, ids)| ids.clone()).collect();
            marked.sort();
            assert_eq!(marked, (0..6).collect::<Vec<u64>>(), "{files:?}");
            for (file, ids) in &files {
                if concurrency == "1" {
                    assert_eq!(file, &format!("{name}.stderr.log"), "{files:?}");
                } else if !ids.is_empty() {
                    // Only the start-up probe writes to the unnumbered file.
                    assert!(file.starts_with(&format!("{name}.w")), "{files:?}");
                }
            }
        }
    }
}
