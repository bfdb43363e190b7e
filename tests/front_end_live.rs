//! Tests over pipes against the real binaries: a long search stopped by `gogui-interrupt`,
//! GoGui's `# interrupt` and SIGTERM (a queued `quit` or the end of the input no longer
//! stops it; tests/gtp_conventions.rs checks that they wait); GoGui's auto-run analyze
//! sequence; pondering reproducible; a binary started alone in an empty folder and with a
//! one-key configuration elsewhere; `liuzi-c6` with no arguments through a whole game.

#[path = "support/engine_process.rs"]
mod engine_process;

use engine_process::*;
use liuzi::notation::{format_c6_stone, parse_c6_stone, LetterOrder};
use liuzi::rules::{Board, Point};
use std::time::{Duration, Instant};

/// 40 s a stone, one thread: a `genmove` that would think for 40 s unless stopped.
fn slow_engine(dir: &std::path::Path) -> EngineProcess {
    let config = write_config(
        dir,
        "slow.toml",
        "[engine]\nthreads = 1\n[time]\nstone_seconds = 40.0\n",
    );
    EngineProcess::start(LIUZI, &["--config", &config])
}

/// Starts `2 genmove w` on a position that needs a real search, waits `think`, and returns the
/// process.
fn thinking(dir: &std::path::Path, think: Duration) -> EngineProcess {
    let mut e = slow_engine(dir);
    e.send("1 play b K10");
    assert_eq!(e.reply(), "=1");
    e.send("2 genmove w");
    std::thread::sleep(think);
    e
}

/// A stop request is obeyed at once: the issues ask for half a second; the bound leaves slack
/// for a loaded test machine and is still far below the 40 s think.
fn assert_prompt(asked: Instant) {
    let took = asked.elapsed();
    assert!(took < Duration::from_millis(1500), "{took:?}");
}

fn assert_stone(reply: &str, id: &str) {
    let vertex = reply
        .strip_prefix(&format!("={id} "))
        .unwrap_or_else(|| panic!("expected a stone for id {id}: {reply:?}"));
    assert!(
        liuzi::notation::parse_gtp(vertex, 19).is_some(),
        "{reply:?}"
    );
}

#[test]
fn gogui_interrupt_stops_a_long_alphabeta_search_too() {
    let dir = tempfile::tempdir().unwrap();
    let config = write_config(
        dir.path(),
        "slow-ab.toml",
        "[engine]\nthreads = 1\nsearch = \"alphabeta\"\n[time]\nstone_seconds = 40.0\n",
    );
    let mut e = EngineProcess::start(LIUZI, &["--config", &config]);
    e.send("1 play b K10");
    assert_eq!(e.reply(), "=1");
    e.send("2 play w L11");
    assert_eq!(e.reply(), "=2");
    e.send("3 play w J9");
    assert_eq!(e.reply(), "=3");
    e.send("4 genmove b");
    std::thread::sleep(Duration::from_millis(1500));
    let asked = Instant::now();
    e.send("5 gogui-interrupt");
    assert_stone(&e.reply(), "4");
    assert_prompt(asked);
    assert_eq!(e.reply(), "=5");
    e.send("6 quit");
    assert_eq!(e.reply(), "=6");
    assert_eq!(e.exit_within(Duration::from_secs(2)), Some(true));
}

#[test]
fn gogui_interrupt_stops_the_search_only_and_keeps_ids_and_order() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = thinking(dir.path(), Duration::from_millis(1500));
    let asked = Instant::now();
    e.send("3 gogui-interrupt");
    assert_stone(&e.reply(), "2");
    assert_prompt(asked);
    assert_eq!(e.reply(), "=3");
    // The engine goes on: the next command is answered normally, and in order.
    e.send("4 name");
    e.send("5 gogui-rules_side_to_move");
    assert_eq!(e.reply(), "=4 Liuzi");
    assert_eq!(e.reply(), "=5 white");
    // GoGui's own interrupt is a comment line: no reply, the search stops.
    e.send("6 genmove w");
    std::thread::sleep(Duration::from_millis(800));
    let asked = Instant::now();
    e.send("# interrupt");
    assert_stone(&e.reply(), "6");
    assert_prompt(asked);
    e.send("7 quit");
    assert_eq!(e.reply(), "=7");
    assert_eq!(e.exit_within(Duration::from_secs(2)), Some(true));
}

#[test]
fn an_interrupt_queued_behind_a_command_still_stops_it() {
    // Both lines arrive together: the interrupt is read while the genmove has not started.
    let dir = tempfile::tempdir().unwrap();
    let mut e = slow_engine(dir.path());
    e.send("1 play b K10");
    let start = Instant::now();
    e.send("2 genmove w\n3 gogui-interrupt\n4 gogui-rules_side_to_move");
    assert_eq!(e.reply(), "=1");
    assert_stone(&e.reply(), "2");
    assert_eq!(e.reply(), "=3");
    assert_eq!(e.reply(), "=4 white");
    assert!(
        start.elapsed() < Duration::from_secs(3),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn sigterm_stops_the_search_answers_the_stone_and_exits() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = thinking(dir.path(), Duration::from_millis(1500));
    let asked = Instant::now();
    let status = std::process::Command::new("kill")
        .args(["-TERM", &e.pid().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    assert_stone(&e.reply(), "2");
    assert_eq!(e.exit_within(Duration::from_millis(1500)), Some(true));
    assert_prompt(asked);
}

/// GoGui with auto-run and the analyze commands open: Black's forced first stone (no search),
/// then the analyze commands after every stone. Every reply is a success, and after `undo`
/// nothing describes a position that is gone. (Without the opening book, so that White's
/// stones are searched.)
#[test]
fn gogui_auto_run_analyze_sequence_gets_only_successes_and_no_stale_data() {
    let config = repo_path("tests/data/fast.toml").display().to_string();
    let mut e = EngineProcess::start(LIUZI, &["--config", &config, "--book", "none"]);
    let analyze = ["liuzi-visits", "liuzi-winrates", "liuzi-policy"];
    let mut replies = Vec::new();
    let mut run = |e: &mut EngineProcess, line: &str| {
        e.send(line);
        let reply = e.reply();
        assert!(reply.starts_with('='), "{line}: {reply}");
        replies.push(reply.clone());
        reply
    };
    run(&mut e, "clear_board");
    assert_eq!(run(&mut e, "genmove b"), "= K10");
    for command in analyze {
        run(&mut e, command);
    }
    assert_eq!(
        run(&mut e, "liuzi-visits"),
        "= TEXT no search: K10 is Black's opening stone (the centre)"
    );
    run(&mut e, "genmove w");
    let visits = run(&mut e, "liuzi-visits");
    assert!(visits.starts_with("= LABEL "), "{visits}");
    assert!(run(&mut e, "liuzi-winrates").starts_with("= INFLUENCE "));
    // Undo: the search's labels would be drawn on a position that no longer exists.
    run(&mut e, "undo");
    // The note gives the true reason, not "forced and book stones skip the search".
    let after_undo = run(&mut e, "liuzi-visits");
    assert_eq!(after_undo, "= TEXT no search since the undo");
    assert_eq!(
        run(&mut e, "liuzi-winrates"),
        "= TEXT no search since the undo"
    );
    assert!(run(&mut e, "liuzi-policy").starts_with("= INFLUENCE "));
    // A new stone by `play` drops it too.
    run(&mut e, "genmove w");
    run(&mut e, "play w L12");
    assert_eq!(
        run(&mut e, "liuzi-visits"),
        "= TEXT no search since L12 was played"
    );
    e.send("quit");
    assert_eq!(e.reply(), "=");
}

/// The same game twice: pondering off and on are each reproducible (one thread, fixed seed,
/// fixed playouts), and the pondering engine really answers every command.
#[test]
fn pondering_on_and_off_are_both_reproducible() {
    let dir = tempfile::tempdir().unwrap();
    // Playouts, not time, end every search (the time is far beyond them).
    let config = write_config(
        dir.path(),
        "fixed.toml",
        "[engine]\nthreads = 1\nseed = 7\n[time]\nstone_seconds = 60.0\n[search]\nplayouts = 300\n",
    );
    // The engine plays both sides: after each side's turn it ponders for the other.
    let game = [
        "genmove b",
        "genmove w",
        "genmove w",
        "genmove b",
        "genmove b",
        "genmove w",
        "genmove w",
        "genmove b",
        "genmove b",
    ];
    let play = |ponder: bool| -> Vec<String> {
        let mut args = vec!["--config", config.as_str()];
        if ponder {
            args.push("--ponder");
        }
        let mut e = EngineProcess::start(LIUZI, &args);
        let replies: Vec<String> = game
            .iter()
            .map(|line| {
                e.send(line);
                e.reply()
            })
            .collect();
        e.close_stdin();
        assert_eq!(e.exit_within(Duration::from_secs(10)), Some(true));
        replies
    };
    let off = play(false);
    assert_eq!(off, play(false));
    let on = play(true);
    assert_eq!(on, play(true));
    assert!(on.iter().all(|r| r.starts_with('=')), "{on:?}");
}

/// A copied or installed binary has no `engine-config/` beside it: it uses the copies built
/// into it.
#[test]
fn the_binary_alone_in_an_empty_folder_starts_and_plays() {
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("liuzi");
    std::fs::copy(LIUZI, &copy).unwrap();
    let mut e = EngineProcess::start_in(
        copy.to_str().unwrap(),
        &["--threads", "1", "--playouts", "50"],
        Some(dir.path()),
        Stderr::Null,
    );
    e.send("1 genmove b");
    assert_eq!(e.reply(), "=1 K10");
    e.send("2 genmove w");
    assert_stone(&e.reply(), "2");
    e.send("3 quit");
    assert_eq!(e.reply(), "=3");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

/// A file with only the keys it changes, in another folder: the paths it does not
/// set are the shipped files, not files beside it.
#[test]
fn a_one_key_config_in_another_folder_works() {
    let dir = tempfile::tempdir().unwrap();
    let config = write_config(dir.path(), "mine.toml", "[time]\nstone_seconds = 0.3\n");
    let mut e = EngineProcess::start_in(
        LIUZI,
        &["--config", &config, "--threads", "1"],
        Some(dir.path()),
        Stderr::Null,
    );
    e.send("1 play b K10");
    assert_eq!(e.reply(), "=1");
    let start = Instant::now();
    e.send("2 genmove w");
    assert_stone(&e.reply(), "2");
    // 0.3 s a stone keeps 0.27 s after the lag margin: a real search, not 12 ms.
    assert!(start.elapsed() < Duration::from_secs(3));
    e.send("3 quit");
    assert_eq!(e.reply(), "=3");
}

/// `liuzi-c6` with no arguments speaks the Connect6 protocol: a whole Cloudict-dialect game,
/// the test playing White with stones far from the action.
#[test]
fn liuzi_c6_without_arguments_plays_a_whole_cloudict_game() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = EngineProcess::start_in(LIUZI_C6, &[], Some(dir.path()), Stderr::Null);
    let stone = |p: Point| format_c6_stone(p, 19, LetterOrder::Cloudict);
    e.send("name");
    assert_eq!(e.line_starting("name "), "name Liuzi");
    e.send("depth 1");
    e.send("new black");
    let mut board = Board::standard();
    let read_move = |e: &mut EngineProcess, board: &mut Board| -> String {
        let line = e.line_starting("move ");
        let token = &line["move ".len()..];
        for i in (0..token.len()).step_by(2) {
            let p = parse_c6_stone(&token[i..i + 2], 19, LetterOrder::Cloudict).unwrap();
            if !board.is_over() && board.is_empty_at(p) {
                board.play(p).unwrap();
            }
        }
        line
    };
    assert_eq!(read_move(&mut e, &mut board), "move JJ");
    let mut turns = 0;
    while !board.is_over() {
        turns += 1;
        assert!(turns < 150, "the game never ended");
        // White: the first empty points from the bottom-left corner.
        let mut reply = String::new();
        for _ in 0..2 {
            let p = board.legal_points().next().unwrap();
            board.play(p).unwrap();
            reply.push_str(&stone(p));
        }
        assert!(!board.is_over(), "White's corner stones cannot win first");
        e.send(&format!("move {reply}"));
        read_move(&mut e, &mut board);
    }
    assert!(matches!(
        board.result(),
        liuzi::rules::GameResult::Win(liuzi::rules::Color::Black)
    ));
    e.send("quit");
    assert_eq!(e.exit_within(Duration::from_secs(5)), Some(true));
}

/// Stones from the opening book skip the search like forced ones: GoGui's auto-run analyze
/// after them gets successes that say so.
#[test]
fn gogui_analyze_after_book_stones_gets_successes() {
    let config = repo_path("tests/data/fast.toml").display().to_string();
    let mut e = EngineProcess::start(LIUZI, &["--config", &config]);
    assert_eq!(ask(&mut e, "genmove b"), "= K10");
    for _ in 0..2 {
        let stone = ask(&mut e, "genmove w");
        assert!(stone.starts_with("= "), "{stone}");
        let vertex = &stone["= ".len()..];
        for command in ["liuzi-visits", "liuzi-winrates"] {
            let reply = ask(&mut e, command);
            let note = format!("= TEXT no search: {vertex} came from the opening book");
            assert_eq!(reply, note, "{command}");
        }
        assert!(ask(&mut e, "liuzi-policy").starts_with("= INFLUENCE "));
    }
    assert_eq!(ask(&mut e, "quit"), "=");
}

/// GoGui's live graphics: `gogui-gfx:` blocks on stderr while a search runs, once the
/// controller has shown it is GoGui; none for other controllers.
#[test]
fn live_graphics_on_stderr_for_gogui_only() {
    let dir = tempfile::tempdir().unwrap();
    let config = write_config(
        dir.path(),
        "two.toml",
        "[engine]\nthreads = 1\n[time]\nstone_seconds = 2.0\n",
    );
    let stderr_of = |gogui: bool| -> (String, String) {
        let log = dir.path().join(format!("stderr-{gogui}.txt"));
        let mut e = EngineProcess::start_in(
            LIUZI,
            &["--config", &config, "--book", "none"],
            None,
            Stderr::File(log.clone()),
        );
        if gogui {
            assert_eq!(ask(&mut e, "gogui-rules_game_id"), "= Connect6");
        }
        assert_eq!(ask(&mut e, "play b K10"), "=");
        let stone = ask(&mut e, "genmove w");
        assert_eq!(ask(&mut e, "quit"), "=");
        assert_eq!(e.exit_within(Duration::from_secs(5)), Some(true));
        let stone = stone.strip_prefix("= ").unwrap().to_string();
        (std::fs::read_to_string(&log).unwrap(), stone)
    };
    let (shown, stone) = stderr_of(true);
    let blocks: Vec<&str> = shown
        .split("gogui-gfx:\n")
        .skip(1)
        .map(|b| b.split("\n\n").next().unwrap())
        .collect();
    assert!(blocks.len() >= 2, "no live blocks: {shown}");
    let block = blocks[0];
    assert!(block.starts_with("INFLUENCE "), "{block}");
    assert!(
        block.contains("\nLABEL ") && block.contains("\nTEXT "),
        "{block}"
    );
    // The last block shows the stone played, and the count never goes back.
    let last = blocks.last().unwrap();
    assert!(
        last.contains(&format!("\nSQUARE {stone}\nTEXT played {stone}")),
        "{last}"
    );
    let counts: Vec<u64> = blocks
        .iter()
        .filter_map(|b| b.split("\nTEXT ").nth(1))
        .filter_map(|t| t.split(" playouts in ").next()?.parse().ok())
        .collect();
    assert!(counts.windows(2).all(|w| w[0] <= w[1]), "{counts:?}");
    assert!(!stderr_of(false).0.contains("gogui-gfx"));
}

fn ask(e: &mut EngineProcess, line: &str) -> String {
    e.send(line);
    e.reply()
}

/// Connect6 protocol: `Searching i/n` progress lines for ConnectMore before the move, none in
/// the SAU dialect.
#[test]
fn c6_progress_lines_for_cloudict_hosts_only() {
    let lines_before_move = |args: &[&str]| -> Vec<String> {
        let mut e = EngineProcess::start(LIUZI, args);
        e.send("new white");
        e.send("depth 3");
        e.send("move JJ");
        let lines = e.lines_until("move ");
        e.send("quit");
        assert_eq!(e.exit_within(Duration::from_secs(5)), Some(true));
        lines
    };
    // Without the opening book, which would answer the centre at once.
    let cloudict = lines_before_move(&["--threads", "1", "--book", "none", "c6"]);
    let progress: Vec<&String> = cloudict
        .iter()
        .filter(|l| l.starts_with("Searching "))
        .collect();
    assert!(!progress.is_empty(), "{cloudict:?}");
    for line in &progress {
        let (i, n) = line["Searching ".len()..].split_once('/').unwrap();
        assert!(
            i.parse::<u32>().unwrap() < n.parse::<u32>().unwrap(),
            "{line}"
        );
    }
    assert_eq!(cloudict.len(), progress.len() + 1);
    let sau = lines_before_move(&["--threads", "1", "c6", "--letters", "sau"]);
    assert_eq!(sau.len(), 1, "{sau:?}");
}

/// Logs into a pipe or file carry no ANSI colour codes.
#[test]
fn logs_into_a_pipe_are_plain_text() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("stderr.txt");
    let config = repo_path("tests/data/fast.toml").display().to_string();
    let mut e = EngineProcess::start_in(
        LIUZI,
        &["--config", &config, "-vv"],
        None,
        Stderr::File(log.clone()),
    );
    assert_eq!(ask(&mut e, "play b K10"), "=");
    assert!(ask(&mut e, "genmove w").starts_with("= "));
    assert_eq!(ask(&mut e, "quit"), "=");
    assert_eq!(e.exit_within(Duration::from_secs(5)), Some(true));
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains("INFO"), "{text}");
    assert!(!text.contains('\u{1b}'), "{text}");
}

/// Pondering in the Connect6 protocol: on between turns, and the same moves every run.
#[test]
fn c6_pondering_is_reproducible() {
    let dir = tempfile::tempdir().unwrap();
    let config = write_config(
        dir.path(),
        "fixed.toml",
        "[engine]\nthreads = 1\nseed = 5\n[time]\nturn_seconds = 60.0\n[search]\nplayouts = 200\n",
    );
    let play = || -> Vec<String> {
        let mut e = EngineProcess::start(LIUZI, &["--config", &config, "--ponder", "c6"]);
        e.send("new black");
        let mut moves = vec![e.line_starting("move ")];
        for turn in ["AASS", "ASSA", "CAQS"] {
            e.send(&format!("move {turn}"));
            moves.push(e.line_starting("move "));
        }
        e.send("quit");
        assert_eq!(e.exit_within(Duration::from_secs(10)), Some(true));
        moves
    };
    let first = play();
    assert_eq!(first.len(), 4);
    assert_eq!(first, play());
}
