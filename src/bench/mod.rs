//! Every benchmark behind one entry point, `liuzi bench search|ruler|solver|update|playouts`;
//! plain `liuzi bench` is `liuzi bench search`. Each prints its figures and ends with one JSON
//! line. Fixed work, never timed unit tests: speed targets are checked here.
//!
//! The top of the layer stack: the ruler storm drives the GTP front-end, so nothing below uses
//! this module. Output goes through [`run`], which treats a reader that went away (`liuzi bench
//! | head -0`) as the end of the output, not as a failure.

mod playouts;
mod ruler;
pub mod ruler_storm;
pub mod search;
mod solver;
mod update;

pub use playouts::run_playout_bench;
pub use ruler::{ruler_storm_input, run_ruler_bench, RulerReport, STORM_GAME_STONES};
pub use search::{run_search_bench, SearchBenchOptions};
pub use solver::{run_solver_bench, SolverReport};
pub use update::{run_game_update_bench, run_update_bench};

use crate::config::EngineConfig;
use crate::engine::Engine;
use clap::{Args, Subcommand};
use std::io::{self, Write};
use std::path::PathBuf;

/// `liuzi bench [WHAT]`.
#[derive(Args, Debug, Clone, PartialEq)]
pub struct BenchArgs {
    #[command(subcommand)]
    pub what: Option<BenchCommand>,
}

#[derive(Subcommand, Debug, Clone, PartialEq)]
pub enum BenchCommand {
    /// The search (the default): fixed positions and playouts, the shipped weights and evaluator;
    /// playouts/s and the behaviour signature (reproducible with --threads 1, the default here).
    /// --threads, --playouts, --playout-cutoff, --value-mix, --weights and --evaluator change
    /// the work
    Search,
    /// GoGui's ruler command storm through the GTP front-end, timed
    Ruler {
        /// Replays of the 235-stone game (GoGui sent ~1,200 in one game)
        #[arg(long, default_value_t = 1200)]
        replays: usize,
        /// Print the storm's commands to stdout instead of running them (for `liuzi gtp <`)
        #[arg(long)]
        emit: bool,
    },
    /// The VCDT solver over the built-in regression positions: nodes/s
    Solver {
        /// Node limit of each solve
        #[arg(long, default_value_t = 30_000)]
        nodes: u64,
        /// Times through the positions
        #[arg(long, default_value_t = 5)]
        repeat: usize,
    },
    /// Keeping the policy board current: playout stones replayed, ns a stone
    Update {
        /// Playouts drawn from each bench position
        #[arg(long, default_value_t = 500)]
        per_position: usize,
        /// Timed replays of all the drawn stones
        #[arg(long, default_value_t = 5)]
        rounds: usize,
        /// Replay the stones in FILE (written by the first run), to compare builds on equal work
        #[arg(long, value_name = "FILE")]
        stones: Option<PathBuf>,
        /// Play and undo the stones of the first 2,000 games of FILE (.games, SGF, CCGC) instead
        #[arg(long, value_name = "FILE", conflicts_with = "stones")]
        games: Option<PathBuf>,
    },
    /// Playouts alone, without a tree, from the bench positions: playouts/s and stone kinds
    Playouts {
        /// Playouts from each bench position
        #[arg(long, default_value_t = 2_000)]
        per_position: u64,
    },
}

/// Runs `args` and writes its report to `out`. `search` holds the command line's changes to the
/// search bench; `engine` and `config` serve the ruler storm. A closed `out` ends the output
/// quietly; other failures are errors to report.
pub fn run(
    args: &BenchArgs,
    search: &SearchBenchOptions,
    engine: Engine,
    config: &EngineConfig,
    out: &mut dyn Write,
) -> Result<(), String> {
    let text = match args.what.clone().unwrap_or(BenchCommand::Search) {
        BenchCommand::Search => run_search_bench(search)?.text,
        BenchCommand::Ruler { replays, emit } => {
            if replays == 0 {
                return Err("--replays must be at least 1".to_string());
            }
            if emit {
                return write_out(out, &ruler_storm_input(replays));
            }
            let report =
                run_ruler_bench(engine, config, replays).map_err(|e| format!("I/O error: {e}"))?;
            write_out(out, &report.text())?;
            if report.errors != report.expected_errors() {
                return Err("unexpected error replies in the storm".to_string());
            }
            return Ok(());
        }
        BenchCommand::Solver { nodes, repeat } => run_solver_bench(nodes, repeat).text(),
        BenchCommand::Update {
            games: Some(games),
            rounds,
            ..
        } => run_game_update_bench(&games, rounds)?,
        BenchCommand::Update {
            per_position,
            rounds,
            stones,
            games: None,
        } => run_update_bench(per_position, rounds, stones.as_deref())?,
        BenchCommand::Playouts { per_position } => run_playout_bench(per_position),
    };
    write_out(out, &text)
}

/// Writes `text`; a reader that closed the pipe is not an error.
fn write_out(out: &mut dyn Write, text: &str) -> Result<(), String> {
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(format!("I/O error: {e}")),
        _ => Ok(()),
    }
}

/// User + system CPU time of this process so far, from `/proc/self/stat` (Linux; the kernel
/// reports it in ticks of 1/100 s on every mainstream configuration). `None` elsewhere.
pub fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which may hold spaces) start at field 3; utime and stime
    // are fields 14 and 15.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer whose reader went away.
    struct Closed;

    impl Write for Closed {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> io::Result<()> {
            Err(io::ErrorKind::BrokenPipe.into())
        }
    }

    #[test]
    fn a_closed_output_ends_the_bench_quietly() {
        assert_eq!(write_out(&mut Closed, "text\n"), Ok(()));
        let mut full = std::io::Cursor::new([0u8; 2]);
        assert!(write_out(&mut full, "more than two bytes").is_err());
    }
}
