//! `liuzi bench ruler`: GoGui's ruler storm ([`super::ruler_storm`]) through the whole GTP
//! front-end (line reading, framing, replies), timed.

use super::ruler_storm::{long_game, ruler_storm};
use crate::config::EngineConfig;
use crate::engine::Engine;
use crate::protocol::gtp::Gtp;
use std::io::{self, Write};
use web_time::Instant;

/// Stones of the replayed game (the observed GoGui game had 235).
pub const STORM_GAME_STONES: usize = 235;

/// What one run of the storm did.
#[derive(Clone, Debug, PartialEq)]
pub struct RulerReport {
    pub commands: usize,
    pub replays: usize,
    pub reply_bytes: usize,
    /// Error replies (`?`): one per ten replays is expected (the last stone sent again).
    pub errors: usize,
    pub seconds: f64,
}

impl RulerReport {
    pub fn expected_errors(&self) -> usize {
        self.replays / 10
    }

    /// The lines `liuzi bench ruler` prints, the last one JSON.
    pub fn text(&self) -> String {
        let json = serde_json::json!({
            "bench": "ruler",
            "commands": self.commands,
            "replays": self.replays,
            "reply_bytes": self.reply_bytes,
            "errors": self.errors,
            "seconds": self.seconds,
            "commands_per_second": self.commands as f64 / self.seconds.max(1e-9),
        });
        let lines = format!(
            "ruler storm: {} commands ({} replays of a {STORM_GAME_STONES}-stone game)\n\
             replies:     {} bytes, {} errors (expected {})\n\
             time:        {:.3} s, {:.0} commands/s\n",
            self.commands,
            self.replays,
            self.reply_bytes,
            self.errors,
            self.expected_errors(),
            self.seconds,
            self.commands as f64 / self.seconds
        );
        format!("{lines}{json}\n")
    }
}

/// The storm of `replays` replays as GTP input: one command a line.
pub fn ruler_storm_input(replays: usize) -> String {
    let game = long_game(STORM_GAME_STONES, 19);
    let mut input = ruler_storm(&game, replays).join("\n");
    input.push('\n');
    input
}

/// Runs the storm of `replays` replays through a GTP front-end on `engine` and times it.
pub fn run_ruler_bench(
    engine: Engine,
    config: &EngineConfig,
    replays: usize,
) -> io::Result<RulerReport> {
    let input = ruler_storm_input(replays);
    let mut gtp = Gtp::new(engine, config);
    let mut replies = CountingSink::default();
    let start = Instant::now();
    gtp.run(input.as_bytes(), &mut replies)?;
    Ok(RulerReport {
        commands: input.lines().count(),
        replays,
        reply_bytes: replies.bytes,
        errors: replies.errors,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// Counts reply bytes and error replies (`?` at the start of a line) without storing them.
#[derive(Default)]
struct CountingSink {
    bytes: usize,
    errors: usize,
    at_line_start: bool,
}

impl Write for CountingSink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.bytes == 0 {
            self.at_line_start = true;
        }
        for &b in buf {
            if self.at_line_start && b == b'?' {
                self.errors += 1;
            }
            self.at_line_start = b == b'\n';
        }
        self.bytes += buf.len();
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::NearestPointGenerator;

    #[test]
    fn a_small_storm_counts_its_commands_and_the_expected_errors() {
        let config = EngineConfig::builtin();
        let engine = Engine::new(19, Box::new(NearestPointGenerator)).unwrap();
        let report = run_ruler_bench(engine, &config, 20).unwrap();
        let game = long_game(STORM_GAME_STONES, 19);
        assert_eq!(report.commands, ruler_storm(&game, 20).len());
        assert_eq!((report.errors, report.expected_errors()), (2, 2));
        // Every command gets at least `=\n\n`.
        assert!(report.reply_bytes >= 3 * report.commands);
        let text = report.text();
        assert!(text.starts_with(&format!(
            "ruler storm: {} commands (20 replays",
            report.commands
        )));
        assert!(text.contains("2 errors (expected 2)"), "{text}");
    }
}
