//! Tests over pipes against the real binary: each input that used
//! to panic, hang, eat the memory or lose a file gets a clear error or a fix.

#[path = "support/engine_process.rs"]
mod engine_process;

use engine_process::*;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn fast_config() -> String {
    repo_path("tests/data/fast.toml").display().to_string()
}

fn gtp() -> EngineProcess {
    EngineProcess::start(LIUZI, &["--config", &fast_config()])
}

fn ask(e: &mut EngineProcess, line: &str) -> String {
    e.send(line);
    e.reply()
}

fn make_fifo(path: &Path) {
    let ok = Command::new("mkfifo").arg(path).status().unwrap().success();
    assert!(ok, "mkfifo {}", path.display());
}

/// `loadsgf` of an empty or blank `.games` file panicked (exit 101).
#[test]
fn loadsgf_of_an_empty_games_file_is_an_error_and_the_engine_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = gtp();
    for (name, text) in [("empty.games", ""), ("blank.games", "\n\n  \n")] {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        let reply = ask(&mut e, &format!("loadsgf {}", path.display()));
        assert!(reply.starts_with("? cannot load"), "{name}: {reply}");
        assert!(reply.contains(name), "{reply}");
    }
    assert_eq!(ask(&mut e, "name"), "= Liuzi");
    assert_eq!(ask(&mut e, "genmove b"), "= K10");
}

/// With stderr closed by its reader, a log event panicked (exit 101) — in c6 at
/// the default level via `error`, in GTP with -v.
#[test]
fn a_closed_stderr_never_ends_a_game() {
    let config = fast_config();
    let mut c6 = EngineProcess::start_in(LIUZI, &["--config", &config, "c6"], None, Stderr::Closed);
    c6.send("new white");
    c6.send("move JJ");
    assert!(c6.line_starting("move ").len() == "move ABCD".len());
    c6.send("error");
    c6.send("print");
    c6.send("move AAAB");
    assert!(c6.line_starting("move ").starts_with("move "));
    c6.close_stdin();
    assert_eq!(c6.exit_within(Duration::from_secs(10)), Some(true));

    let mut g = EngineProcess::start_in(LIUZI, &["--config", &config, "-vv"], None, Stderr::Closed);
    assert_eq!(ask(&mut g, "play b K10"), "=");
    assert!(ask(&mut g, "genmove w").starts_with("= "));
    assert!(ask(&mut g, "play w Z99").starts_with("? "));
    assert!(ask(&mut g, "genmove w").starts_with("= "));
    g.close_stdin();
    assert_eq!(g.exit_within(Duration::from_secs(10)), Some(true));
}

/// `time_settings 999999999 0 0` planned ~3e7 s a turn, and nothing stopped it.
/// The plan is capped, and a termination signal stops the search (the end of the
/// input waits for it, as for every command).
#[test]
fn a_huge_clock_search_stops_at_a_signal() {
    let mut e = EngineProcess::start(LIUZI, &["--threads", "1"]);
    assert_eq!(ask(&mut e, "time_settings 999999999 0 0"), "=");
    assert_eq!(ask(&mut e, "play b K10"), "=");
    e.send("genmove w");
    std::thread::sleep(Duration::from_millis(1000));
    e.close_stdin();
    let closed = Instant::now();
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &e.pid().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    assert!(e.reply().starts_with("= "));
    assert_eq!(e.exit_within(Duration::from_millis(1500)), Some(true));
    assert!(closed.elapsed() < Duration::from_millis(1500));
}

/// Negative clock values were clamped to 0 silently.
#[test]
fn negative_time_settings_and_time_left_are_refused() {
    let mut e = gtp();
    for bad in [
        "time_settings -1 0 0",
        "time_settings 10 -5 1",
        "time_settings 10 5 -1",
        "time_left b -3 0",
        "time_left w 10 -1",
        "time_left b -0.5 0",
    ] {
        let reply = ask(&mut e, bad);
        assert!(reply.starts_with("? syntax error"), "{bad}: {reply}");
    }
    assert_eq!(ask(&mut e, "time_settings 10 5 1"), "=");
    assert_eq!(ask(&mut e, "time_left b 0.25 0"), "=");
}

/// /dev/zero and FIFOs as files: refused at once with an error naming the file.
#[test]
fn devices_and_fifos_are_refused_as_files() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe.sgf");
    make_fifo(&fifo);
    let mut e = gtp();
    for path in ["/dev/zero".to_string(), fifo.display().to_string()] {
        let start = Instant::now();
        let reply = ask(&mut e, &format!("loadsgf {path}"));
        assert!(reply.starts_with("? cannot load"), "{reply}");
        assert!(
            reply.contains(&path) && reply.contains("not a regular file"),
            "{reply}"
        );
        assert!(start.elapsed() < Duration::from_secs(2));
    }
    assert_eq!(ask(&mut e, "name"), "= Liuzi");
    drop(e);

    let fifo_config = dir.path().join("pipe.toml");
    make_fifo(&fifo_config);
    let cases: Vec<(Vec<String>, String)> = vec![
        (
            vec!["--config".into(), "/dev/zero".into()],
            "/dev/zero".into(),
        ),
        (
            vec!["--config".into(), fifo_config.display().to_string()],
            fifo_config.display().to_string(),
        ),
        (
            vec!["--weights".into(), "/dev/zero".into()],
            "/dev/zero".into(),
        ),
        (
            vec!["--weights".into(), fifo.display().to_string()],
            fifo.display().to_string(),
        ),
        (
            vec![
                "--evaluator".into(),
                "/dev/zero".into(),
                "--playout-cutoff".into(),
                "10".into(),
            ],
            "/dev/zero".into(),
        ),
    ];
    for (args, named) in cases {
        let start = Instant::now();
        let mut child = Command::new(LIUZI)
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut status = None;
        while start.elapsed() < Duration::from_secs(10) {
            if let Some(s) = child.try_wait().unwrap() {
                status = Some(s);
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let Some(status) = status else {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{args:?}: still running after 10 s");
        };
        let mut stderr = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
        assert_eq!(status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.contains(&named) && stderr.contains("not a regular file"),
            "{args:?}: {stderr}"
        );
    }
}

/// `printsgf FILE` overwrote any writable file.
#[test]
fn printsgf_keeps_an_existing_file_unless_told_to_overwrite() {
    let dir = tempfile::tempdir().unwrap();
    let existing = dir.path().join("precious.txt");
    std::fs::write(&existing, "keep me\n").unwrap();
    let mut e = gtp();
    assert_eq!(ask(&mut e, "genmove b"), "= K10");
    let reply = ask(&mut e, &format!("printsgf {}", existing.display()));
    assert!(
        reply.starts_with("? ") && reply.contains("exists"),
        "{reply}"
    );
    assert_eq!(std::fs::read_to_string(&existing).unwrap(), "keep me\n");
    let fresh = dir.path().join("game.sgf");
    assert_eq!(ask(&mut e, &format!("printsgf {}", fresh.display())), "=");
    assert!(std::fs::read_to_string(&fresh).unwrap().contains(";B[jj]"));
    assert_eq!(
        ask(
            &mut e,
            &format!("printsgf {} overwrite", existing.display())
        ),
        "="
    );
    assert!(std::fs::read_to_string(&existing)
        .unwrap()
        .contains(";B[jj]"));
    assert!(ask(&mut e, &format!("printsgf {} please", fresh.display())).starts_with("? "));
}

/// In c6, a stone after a game won by a single stone was refused with "the
/// previous turn is unfinished" instead of "the game is over".
#[test]
fn c6_a_stone_after_a_single_stone_win_says_the_game_is_over() {
    let out = Command::new(LIUZI)
        .args(["--config", &fast_config(), "c6"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            let mut stdin = child.stdin.take().unwrap();
            stdin.write_all(
                b"new white\nblack AAAA\nwhite SSQS\nblack BACA\nwhite OSMS\nblack DAEA\n\
                  white KSIS\nmove FA\nmove KA\nwhite KAKB\nquit\n",
            )?;
            drop(stdin);
            child.wait_with_output()
        })
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success());
    assert!(stderr.contains("black wins"), "{stderr}");
    assert_eq!(stderr.matches("the game is over").count(), 2, "{stderr}");
    assert!(!stderr.contains("unfinished"), "{stderr}");
}
