//! Issue 74 over pipes against the real binary: commands run in their order (a queued `quit` or
//! the end of the input waits for the search before it), the live analysis stream
//! (`lz-analyze`, `kata-analyze`, `genmove_analyze`), and the run-time settings
//! (`liuzi-set-param`, `liuzi-get-param`).

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
