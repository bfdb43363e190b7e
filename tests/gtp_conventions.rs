//! Tests over pipes against the real binary: commands run in their order in GTP and in the
//! Connect6 protocol (a queued `quit` or the end of the input waits for the search before it),
//! the live analysis stream (`lz-analyze`, `kata-analyze`, `genmove_analyze`), and the run-time
//! settings (`liuzi-set-param`, `liuzi-get-param`, GoGui's parameter dialogs).

#[path = "support/engine_process.rs"]
mod engine_process;

use engine_process::*;
use std::time::{Duration, Instant};

/// Fixed work that the clock never cuts: one thread, a seed, 600 playouts a stone, a minute of
/// time each.
fn fixed_config(dir: &std::path::Path) -> String {
    write_config(
        dir,
        "fixed.toml",
        "[engine]\nthreads = 1\nseed = 3\nbook = \"none\"\n[time]\nstone_seconds = 60.0\n\
         [search]\nplayouts = 600\n",
    )
}

/// Everything the engine writes on stdout until it exits.
fn all_output(e: &mut EngineProcess) -> Vec<String> {
    let mut lines = Vec::new();
    while let Some(line) = e.line_within(Duration::from_secs(60)) {
        lines.push(line);
    }
    assert_eq!(e.exit_within(Duration::from_secs(5)), Some(true));
    lines
}

const SETUP: &str = "boardsize 19\nclear_board\nplay b j10\ngenmove w";

/// The replies of `SETUP`, then `liuzi-visits` (the search's root visits), then the end:
/// `quit` or the end of the input; `pause` waits for the stone before sending the rest.
fn session(config: &str, end_with_quit: bool, pause: bool) -> Vec<String> {
    let mut e = EngineProcess::start(LIUZI, &["--config", config]);
    let rest = if end_with_quit {
        "liuzi-visits\nquit"
    } else {
        "liuzi-visits"
    };
    if pause {
        e.send(SETUP);
        let mut head = Vec::new();
        for _ in 0..4 {
            head.push(e.reply());
        }
        e.send(rest);
        e.close_stdin();
        let mut lines: Vec<String> = head
            .iter()
            .flat_map(|r| [r.clone(), String::new()])
            .collect();
        lines.extend(all_output(&mut e));
        lines
    } else {
        e.send(&format!("{SETUP}\n{rest}"));
        e.close_stdin();
        all_output(&mut e)
    }
}

#[test]
fn a_queued_quit_or_the_end_of_input_waits_for_the_search() {
    let dir = tempfile::tempdir().unwrap();
    let config = fixed_config(dir.path());
    let paused = session(&config, true, true);
    let visits = paused
        .iter()
        .find(|l| l.starts_with("TEXT "))
        .unwrap_or_else(|| panic!("{paused:?}"));
    // The whole search ran: hundreds of visits at the root, not the one or two of a cut search.
    let n: u32 = visits["TEXT ".len()..]
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(n >= 300, "{visits}");
    assert_eq!(
        session(&config, true, false),
        paused,
        "piped genmove + quit"
    );
    let without_quit: Vec<String> = paused[..paused.len() - 2].to_vec();
    assert_eq!(
        session(&config, false, false),
        without_quit,
        "piped genmove + end of input"
    );
}

/// Under a clock the piped search uses its time too, instead of answering at once.
#[test]
fn a_piped_search_on_a_clock_uses_its_time() {
    let dir = tempfile::tempdir().unwrap();
    let config = write_config(
        dir.path(),
        "clock.toml",
        "[engine]\nthreads = 1\nbook = \"none\"\n[time]\nstone_seconds = 1.5\n\
         lag_margin_seconds = 0.0\n[search]\nearly_stop = false\n",
    );
    for ending in ["quit\n", ""] {
        let mut e = EngineProcess::start(LIUZI, &["--config", &config]);
        let start = Instant::now();
        e.send(&format!("{SETUP}\n{ending}"));
        e.close_stdin();
        let lines = all_output(&mut e);
        let took = start.elapsed();
        assert!(
            took >= Duration::from_millis(1300),
            "{ending:?}: answered after {took:?}: {lines:?}"
        );
        assert!(lines.iter().any(|l| l.starts_with("= ") && l.len() > 2));
    }
}

/// One `info` group of a report line, as key-value pairs and the pv.
#[derive(Debug)]
struct Info {
    fields: Vec<(String, String)>,
    pv: Vec<String>,
}

impl Info {
    fn get(&self, key: &str) -> &str {
        let found = self.fields.iter().find(|(k, _)| k == key);
        &found.unwrap_or_else(|| panic!("no {key} in {self:?}")).1
    }
}

/// Parses a report line the way GUIs do: `info` starts a group, `pv` runs to the next `info`.
fn parse_report(line: &str) -> Vec<Info> {
    let mut groups = Vec::new();
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words.first(), Some(&"info"), "{line}");
    let mut i = 0;
    while i < words.len() {
        assert_eq!(words[i], "info", "{line}");
        i += 1;
        let mut info = Info {
            fields: Vec::new(),
            pv: Vec::new(),
        };
        while i < words.len() && words[i] != "info" {
            if words[i] == "pv" {
                i += 1;
                while i < words.len() && words[i] != "info" {
                    info.pv.push(words[i].to_string());
                    i += 1;
                }
            } else {
                info.fields
                    .push((words[i].to_string(), words[i + 1].to_string()));
                i += 2;
            }
        }
        groups.push(info);
    }
    groups
}

/// The lines of a streaming reply up to its blank line, and when each arrived.
fn stream_lines(e: &mut EngineProcess) -> Vec<(Instant, String)> {
    let mut lines = Vec::new();
    loop {
        let line = e.line();
        if line.is_empty() {
            return lines;
        }
        lines.push((Instant::now(), line));
    }
}

fn ask(e: &mut EngineProcess, line: &str) -> String {
    e.send(line);
    e.reply()
}

fn analysis_engine() -> EngineProcess {
    EngineProcess::start(LIUZI, &["--threads", "1", "--book", "none"])
}

#[test]
fn lz_analyze_streams_every_interval_until_the_next_command() {
    let mut e = analysis_engine();
    e.send("1 play b K10");
    assert_eq!(e.reply(), "=1");
    e.send("2 lz-analyze w 20");
    assert_eq!(e.line(), "=2");
    let started = Instant::now();
    std::thread::sleep(Duration::from_millis(2000));
    e.send("3 name");
    let lines = stream_lines(&mut e);
    let ended = started.elapsed();
    assert_eq!(
        e.reply(),
        "=3 Liuzi",
        "the next command runs after the stream"
    );
    // About ten reports in two seconds at 0.2 s; at least one per interval of the first second
    // and a half, whatever the machine's load.
    assert!(lines.len() >= 5, "{} lines in {ended:?}", lines.len());
    let mut last_visits = 0;
    for (_, line) in &lines {
        let groups = parse_report(line);
        let best = &groups[0];
        assert_eq!(best.get("order"), "0");
        assert_eq!(best.get("player"), "W");
        assert_eq!(best.get("stone"), "1");
        let winrate: u32 = best.get("winrate").parse().unwrap();
        let lcb: u32 = best.get("lcb").parse().unwrap();
        assert!(winrate <= 10000 && lcb <= winrate, "{line}");
        assert!(best.get("prior").parse::<u32>().unwrap() <= 10000);
        assert_eq!(best.pv[0], best.get("move"));
        let visits: u32 = groups
            .iter()
            .map(|g| g.get("visits").parse::<u32>().unwrap())
            .sum();
        assert!(visits >= last_visits, "{line}");
        last_visits = visits;
        let orders: Vec<usize> = groups
            .iter()
            .map(|g| g.get("order").parse().unwrap())
            .collect();
        assert_eq!(orders, (0..groups.len()).collect::<Vec<_>>());
    }
    // The pv goes on past this stone: White's second stone, then Black's pair.
    assert!(
        lines.iter().any(|(_, l)| parse_report(l)[0].pv.len() >= 3),
        "{lines:?}"
    );
    // kata-analyze: the same with decimals; the second stone of White's turn.
    e.send("4 play w L11");
    assert_eq!(e.reply(), "=4");
    e.send("5 kata-analyze 10");
    assert_eq!(e.line(), "=5");
    std::thread::sleep(Duration::from_millis(800));
    e.send("");
    let lines = stream_lines(&mut e);
    assert!(!lines.is_empty());
    let best = &parse_report(&lines[0].1)[0];
    assert_eq!((best.get("player"), best.get("stone")), ("W", "2"));
    let w: f64 = best.get("winrate").parse().unwrap();
    assert!((0.0..=1.0).contains(&w) && best.get("winrate").contains('.'));
    e.send("6 quit");
    assert_eq!(e.reply(), "=6");
}

#[test]
fn genmove_analyze_streams_then_plays_and_works_after_a_book_stone() {
    let mut e = analysis_engine();
    e.send("1 play b K10");
    assert_eq!(e.reply(), "=1");
    e.send("2 time_settings 0 1 1");
    assert_eq!(e.reply(), "=2");
    e.send("3 genmove_analyze w 10");
    assert_eq!(e.line(), "=3");
    let lines = stream_lines(&mut e);
    let (play, reports) = lines.split_last().unwrap();
    let stone = play.1.strip_prefix("play ").expect("ends with play X");
    assert!(!reports.is_empty(), "{lines:?}");
    for (_, line) in reports {
        parse_report(line);
    }
    assert_eq!(ask(&mut e, "4 gogui-rules_side_to_move"), "=4 white");
    assert_eq!(ask(&mut e, &format!("5 play w {stone}")), "?5 illegal move");
    // Black's opening stone skips the search: the stream says so in its own form.
    e.send("6 clear_board");
    assert_eq!(e.reply(), "=6");
    e.send("7 kata-genmove_analyze b 10");
    assert_eq!(e.line(), "=7");
    let lines = stream_lines(&mut e);
    assert_eq!(lines.len(), 2, "{lines:?}");
    let info = &parse_report(&lines[0].1)[0];
    assert_eq!(info.get("move"), "K10");
    assert_eq!(info.get("visits"), "0");
    assert_eq!(info.get("reason"), "opening");
    assert_eq!(lines[1].1, "play K10");
    // With the opening book on, a book stone says `reason book`.
    let mut booked = EngineProcess::start(LIUZI, &["--threads", "1"]);
    booked.send("genmove b");
    assert_eq!(booked.reply(), "= K10");
    booked.send("genmove_analyze w 10");
    assert_eq!(booked.line(), "=");
    let lines = stream_lines(&mut booked);
    assert_eq!(
        parse_report(&lines[0].1)[0].get("reason"),
        "book",
        "{lines:?}"
    );
    // lz-analyze of a position searches it whatever the book says.
    booked.send("lz-analyze 10");
    assert_eq!(booked.line(), "=");
    std::thread::sleep(Duration::from_millis(700));
    booked.send("name");
    let lines = stream_lines(&mut booked);
    assert!(!lines.is_empty());
    assert!(parse_report(&lines[0].1)[0].get("visits") != "0");
}

#[test]
fn analysis_commands_are_known_and_check_their_arguments() {
    let mut e = analysis_engine();
    for command in [
        "lz-analyze",
        "kata-analyze",
        "genmove_analyze",
        "lz-genmove_analyze",
        "kata-genmove_analyze",
        "liuzi-set-param",
        "liuzi-get-param",
        "kata-set-param",
        "kata-get-param",
    ] {
        assert_eq!(ask(&mut e, &format!("known_command {command}")), "= true");
    }
    let listed = ask(&mut e, "list_commands");
    assert!(listed.contains("\nlz-analyze\n") && listed.contains("\nliuzi-set-param\n"));
    // Black is to move: White's analysis is refused, as is an unknown key; state unchanged.
    assert!(ask(&mut e, "lz-analyze w 10").starts_with("? black is to play"));
    assert!(ask(&mut e, "kata-analyze 10 ownership true").starts_with("? syntax error"));
    assert!(ask(&mut e, "genmove_analyze w").starts_with("? black is to play"));
    assert_eq!(ask(&mut e, "gogui-rules_side_to_move"), "= black");
}

#[test]
fn settings_round_trip_and_refusals_are_the_config_files() {
    let mut e = analysis_engine();
    let original = ask(&mut e, "liuzi-get-param search.exploration");
    assert_eq!(original, "= 0.25");
    assert_eq!(ask(&mut e, "liuzi-set-param search.exploration 0.4"), "=");
    assert_eq!(ask(&mut e, "liuzi-get-param search.exploration"), "= 0.4");
    assert_eq!(ask(&mut e, "kata-get-param search.exploration"), "= 0.4");
    assert_eq!(ask(&mut e, "liuzi-set-param time.stone_seconds 0.2"), "=");
    assert_eq!(ask(&mut e, "liuzi-set-param search.pair_order both"), "=");
    assert_eq!(ask(&mut e, "liuzi-get-param search.pair_order"), "= both");
    // The change holds across a new game.
    assert_eq!(ask(&mut e, "clear_board"), "=");
    assert_eq!(ask(&mut e, "liuzi-get-param search.exploration"), "= 0.4");
    // The clock setting is in force: a searched stone takes about 0.2 s, not 5 s.
    assert_eq!(ask(&mut e, "play b K10"), "=");
    let start = Instant::now();
    assert!(ask(&mut e, "genmove w").starts_with("= "));
    assert!(
        start.elapsed() < Duration::from_secs(3),
        "{:?}",
        start.elapsed()
    );
    // Refusals: the configuration file's messages, naming the key; nothing changes.
    let refusals = [
        (
            "liuzi-set-param search.exploration -1",
            "search.exploration must be",
        ),
        (
            "liuzi-set-param search.explorashun 1",
            "unknown key `search.explorashun`",
        ),
        (
            "liuzi-set-param search.exploration abc",
            "search.exploration",
        ),
        (
            "liuzi-set-param time.first_stone_share 0.99",
            "time.first_stone_share must be in",
        ),
        ("liuzi-set-param engine.threads 2", "cannot change"),
        ("liuzi-set-param search.exploration", "missing value"),
        (
            "liuzi-get-param search.nothing",
            "unknown key `search.nothing`",
        ),
    ];
    for (line, message) in refusals {
        let reply = ask(&mut e, line);
        assert!(
            reply.starts_with("? ") && reply.contains(message),
            "{line}: {reply}"
        );
    }
    assert_eq!(ask(&mut e, "liuzi-get-param search.exploration"), "= 0.4");
    // Every setting listed reads back as itself.
    let all = ask(&mut e, "liuzi-get-param");
    let all = all.strip_prefix("= ").unwrap().to_string();
    assert!(all.lines().any(|l| l == "time.stone_seconds 0.2"), "{all}");
    for line in all.lines().take(12) {
        let (key, value) = line.split_once(' ').unwrap();
        assert_eq!(
            ask(&mut e, &format!("liuzi-set-param {key} {value}")),
            "=",
            "{line}"
        );
    }
}

#[test]
fn gogui_lists_the_settings_as_parameter_dialogs() {
    let mut e = analysis_engine();
    let commands = ask(&mut e, "gogui-analyze_commands");
    assert!(
        commands.contains("\nparam/Search settings/liuzi-param search"),
        "{commands}"
    );
    let dialog = ask(&mut e, "liuzi-param search");
    assert!(dialog.contains("\n[string] exploration 0.25\n"), "{dialog}");
    assert!(dialog.contains("\n[bool] reuse_tree 1\n"), "{dialog}");
    // GoGui sends the changed key and value back; booleans as 1 and 0.
    assert_eq!(ask(&mut e, "liuzi-param search reuse_tree 0"), "=");
    assert_eq!(ask(&mut e, "liuzi-get-param search.reuse_tree"), "= false");
    assert!(ask(&mut e, "liuzi-param search exploration -2").starts_with("? search.exploration"));
    assert!(ask(&mut e, "liuzi-param engine threads 2").starts_with("? unknown section"));
    let time = ask(&mut e, "liuzi-param time");
    assert!(
        time.contains("[string] depth_turn_seconds [0.5,1.0,2.0,"),
        "{time}"
    );
}

/// The Connect6 protocol runs its lines in order too: a `quit` right behind `move` waits for
/// the answer (Cloudict itself reads `quit` only after its search).
#[test]
fn c6_a_queued_quit_waits_for_the_move() {
    let dir = tempfile::tempdir().unwrap();
    let config = write_config(
        dir.path(),
        "c6.toml",
        "[engine]\nthreads = 1\nseed = 5\nbook = \"none\"\n[time]\nturn_seconds = 60.0\n\
         [search]\nplayouts = 400\n",
    );
    let moves = |pause: bool| -> Vec<String> {
        let mut e = EngineProcess::start(LIUZI, &["--config", &config, "c6"]);
        e.send("new white\nmove JJ");
        if pause {
            let first = e.line_starting("move ");
            e.send("quit");
            e.close_stdin();
            let mut rest = all_output(&mut e);
            rest.insert(0, first);
            rest.retain(|l| l.starts_with("move "));
            rest
        } else {
            e.send("quit");
            e.close_stdin();
            let mut lines = all_output(&mut e);
            lines.retain(|l| l.starts_with("move "));
            lines
        }
    };
    let paused = moves(true);
    assert_eq!(paused.len(), 1, "{paused:?}");
    assert_eq!(moves(false), paused);
}
