//! The `liuzi` and `liuzi-c6` programs: the command line (which front-end to run and the
//! options that override the configuration file) and the start-up ([`run`]). The top layer:
//! it depends on everything, nothing depends on it.

mod run;
mod signals;

pub use run::main;

use crate::config::{EngineConfig, Letters, SearchKind};
use clap::{ArgAction, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

const ABOUT: &str = "Liuzi (六子): a Connect6 engine (19x19; Black opens with one stone, then two \
stones a turn; six or more in a row wins).";

/// The long help; [`command`] adds which protocol the binary starts in.
const LONG_ABOUT: &str = "\
Liuzi (六子): a Connect6 engine (19x19 by default, 6..=25 on request; Black opens with one stone,
then each side places two stones a turn; six or more in a row wins; a full board is a draw).

PROTOCOLS (stdin/stdout; stdout carries the protocol only, logs go to stderr)
  gtp   GTP v2, one stone per `play`/`genmove` in the order B, WW, BB, ...; vertices A-T without I,
        row 1 at the bottom. Includes GoGui's gogui-rules_* commands, so GoGui can use Liuzi both
        as the program and as the rule referee (ruler).
  c6    The Connect6 protocol of Chinese competitions: Cloudict, ConnectMore and the SAU platform
        (name / new black|white / move XXXX / black|white XXXX / next / depth d / quit). Stones
        are two letters A..S (column, then row from the bottom; `--letters sau` reads rows from
        the top); a turn is four letters.

SEARCH
  `--search mcts` (the default) plays by Monte-Carlo tree search with Bradley-Terry priors and
  playouts; `--search alphabeta` by iterative-deepening alpha-beta whose leaves are scored by the
  learned evaluator (engine-config/default.eval). Both use the same threat rules and clock, and
  both open from the opening book (engine-config/default.book, expert games' first turns) while
  the position is in it; `--book none` searches from the first turn.

CONFIGURATION
  Settings come from engine-config/default.toml (looked up in the working directory and above the
  executable; built-in copies of it, the weights and the evaluator are used when none is found),
  or from `--config FILE`, which only needs the keys it changes: its relative paths are taken
  from its folder, the paths it does not set are the shipped files. Command-line options
  override the file; protocol commands (time_settings, depth) override both. RUST_LOG (e.g.
  RUST_LOG=liuzi=debug) or -v/-vv set the log detail on stderr (coloured only on a terminal).

RUNNING
  Commands run in their order: a queued `quit` or the end of the input waits for the search
  before it. SIGTERM/SIGINT/SIGHUP, GTP `gogui-interrupt` and GoGui's `# interrupt` stop a
  running search at once; the stone asked for is still answered. `--ponder` thinks on the
  opponent's time. GTP extensions: `lz-analyze`/`kata-analyze` live analysis and
  `liuzi-set-param`/`liuzi-get-param` (docs/analysis.md).";

#[derive(Parser, Debug)]
#[command(name = "liuzi", version, about = ABOUT)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,

    /// Configuration file (TOML) [default: engine-config/default.toml]
    #[arg(long, global = true, value_name = "FILE")]
    pub config: Option<PathBuf>,

    /// Pattern weights file (overrides engine.weights)
    #[arg(long, global = true, value_name = "FILE")]
    pub weights: Option<PathBuf>,

    /// Search threads; 0 = one per core (overrides engine.threads)
    #[arg(long, global = true, value_name = "N")]
    pub threads: Option<usize>,

    /// Random seed; 0 = a new one every run (overrides engine.seed)
    #[arg(long, global = true, value_name = "N")]
    pub seed: Option<u64>,

    /// Playouts per stone; 0 = by time only (overrides search.playouts)
    #[arg(long, global = true, value_name = "N")]
    pub playouts: Option<u64>,

    /// Search method: Monte-Carlo tree search or alpha-beta (overrides engine.search)
    #[arg(long, global = true, value_enum, value_name = "METHOD")]
    pub search: Option<SearchArg>,

    /// Learned evaluator file (overrides engine.evaluator)
    #[arg(long, global = true, value_name = "FILE")]
    pub evaluator: Option<PathBuf>,

    /// Opening book file, or `none` to search from the first turn (overrides engine.book)
    #[arg(long, global = true, value_name = "FILE")]
    pub book: Option<PathBuf>,

    /// MCTS: stop playouts after N stones and score them by the evaluator; 0 = full playouts
    /// (overrides search.playout_cutoff)
    #[arg(long, global = true, value_name = "N")]
    pub playout_cutoff: Option<u32>,

    /// MCTS: λ of the leaf value, reward (1 − λ)·playout + λ·evaluator; at 1 no playout is run
    /// (overrides search.value_mix)
    #[arg(long, global = true, value_name = "LAMBDA")]
    pub value_mix: Option<f32>,

    /// Think on the opponent's time (overrides protocol.ponder)
    #[arg(long, global = true)]
    pub ponder: bool,

    /// More log detail on stderr: -v info, -vv debug, -vvv trace (RUST_LOG wins when set)
    #[arg(short, long, global = true, action = ArgAction::Count)]
    pub verbose: u8,
}

#[derive(Subcommand, Debug, Clone, PartialEq)]
pub enum Command {
    /// Speak GTP v2 with GoGui's gogui-rules_* extension
    Gtp,
    /// Speak the Connect6 protocol (Cloudict, ConnectMore, SAU platform)
    C6 {
        /// Letter order of stones: cloudict = column then row from the bottom; sau = from the top
        #[arg(long, value_enum)]
        letters: Option<LetterArg>,
        /// Write Black's opening stone as `move JJ@@` (SAU platform template)
        #[arg(long)]
        sau_placeholder: bool,
    },
    /// Benchmarks: search (the default), ruler, solver, update, playouts; each ends with a
    /// JSON line
    Bench(crate::bench::BenchArgs),
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum SearchArg {
    Mcts,
    Alphabeta,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum LetterArg {
    Cloudict,
    Sau,
}

/// The command line of the binary whose front-end without a subcommand is `default`: its name
/// and its help say which protocol it starts in (`liuzi`: GTP, `liuzi-c6`: c6).
pub fn command(default: &Command) -> clap::Command {
    let c6 = matches!(default, Command::C6 { .. });
    let (name, starts) = if c6 {
        ("liuzi-c6", "c6")
    } else {
        ("liuzi", "gtp")
    };
    let long_about = format!(
        "{LONG_ABOUT}\n\n`{name}` without a subcommand speaks {starts} (the default of this \
         binary); `liuzi` starts in gtp, `liuzi-c6` in c6."
    );
    let mark = |sub: clap::Command, is_default: bool| {
        if is_default {
            let about = format!("{} (the default)", sub.get_about().unwrap_or_default());
            sub.about(about)
        } else {
            sub
        }
    };
    <Cli as clap::CommandFactory>::command()
        .name(name)
        .bin_name(name)
        .long_about(long_about)
        .mut_subcommand("gtp", |sub| mark(sub, !c6))
        .mut_subcommand("c6", |sub| mark(sub, c6))
}

impl Cli {
    /// The command line of the binary whose default front-end is `default`.
    pub fn parse_for(default: &Command) -> Cli {
        let matches = command(default).get_matches();
        <Cli as clap::FromArgMatches>::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
    }

    /// Applies the command-line overrides to `config`.
    pub fn apply_overrides(&self, config: &mut EngineConfig) {
        if let Some(weights) = &self.weights {
            config.engine.weights = weights.clone();
        }
        if let Some(threads) = self.threads {
            config.engine.threads = threads;
        }
        if let Some(seed) = self.seed {
            config.engine.seed = seed;
        }
        if let Some(playouts) = self.playouts {
            config.search.playouts = playouts;
        }
        if let Some(search) = self.search {
            config.engine.search = match search {
                SearchArg::Mcts => SearchKind::Mcts,
                SearchArg::Alphabeta => SearchKind::AlphaBeta,
            };
        }
        if let Some(evaluator) = &self.evaluator {
            config.engine.evaluator = evaluator.clone();
        }
        if let Some(book) = &self.book {
            config.engine.book = book.clone();
        }
        if let Some(cutoff) = self.playout_cutoff {
            config.search.playout_cutoff = cutoff;
        }
        if let Some(lambda) = self.value_mix {
            config.search.value_mix = lambda;
        }
        if self.ponder {
            config.protocol.ponder = true;
        }
        if let Some(Command::C6 {
            letters,
            sau_placeholder,
        }) = &self.command
        {
            if let Some(letters) = letters {
                config.c6.letters = match letters {
                    LetterArg::Cloudict => Letters::Cloudict,
                    LetterArg::Sau => Letters::Sau,
                };
            }
            if *sau_placeholder {
                config.c6.write_placeholder = true;
            }
        }
    }

    /// The log filter: RUST_LOG when set, else warnings plus what -v asks for.
    pub fn log_filter(&self) -> String {
        match std::env::var("RUST_LOG") {
            Ok(filter) if !filter.trim().is_empty() => filter,
            _ => match self.verbose {
                0 => "warn",
                1 => "info",
                2 => "debug",
                _ => "trace",
            }
            .to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each binary's help names its own default protocol.
    #[test]
    fn help_says_which_protocol_each_binary_starts_in() {
        let c6 = Command::C6 {
            letters: None,
            sau_placeholder: false,
        };
        for (default, name, own, other) in [
            (Command::Gtp, "liuzi", "gtp", "c6"),
            (c6, "liuzi-c6", "c6", "gtp"),
        ] {
            let help = command(&default).render_long_help().to_string();
            assert!(help.contains(&format!("`{name}` without a subcommand speaks {own}")));
            // The subcommand list: `gtp  Speak GTP v2 ...`, `c6  Speak the Connect6 ...`.
            let entry = |sub: &str| {
                help.lines()
                    .find(|l| l.trim_start().starts_with(sub) && l.contains("Speak"))
                    .unwrap_or_else(|| panic!("no {sub} entry: {help}"))
                    .to_string()
            };
            assert!(entry(own).contains("(the default)"), "{help}");
            assert!(!entry(other).contains("(the default)"), "{help}");
        }
    }
}
