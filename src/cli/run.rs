//! Start-up: logging, configuration, the engine, then the chosen front-end on stdin/stdout.

use super::{Cli, Command};
use crate::config::EngineConfig;
use crate::engine::{build_generator, load_book, Engine};
use crate::protocol::c6::{self, C6};
use crate::protocol::gtp::{self, Gtp};
use crate::protocol::input::Input;
use crate::protocol::stderr_queue::{self, QueuedStderr};
use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::time::Duration;

/// How long the last messages may take to reach stderr when the process ends.
const STDERR_FLUSH: Duration = Duration::from_secs(1);

/// Runs the program. `default` is the front-end when the command line names none: GTP for
/// `liuzi`, the Connect6 protocol for `liuzi-c6` (or any program file named so), so that
/// hosts that start an engine without arguments (ConnectMore) can use it.
pub fn main(default: Option<Command>) -> ExitCode {
    let default = default
        .or_else(program_name_default)
        .unwrap_or(Command::Gtp);
    let cli = Cli::parse_for(&default);
    tracing_subscriber::fmt()
        // Through a queue: an unread stderr must not freeze the engine.
        .with_writer(|| QueuedStderr)
        // Colour only for a terminal: GoGui's shell and log files get plain text.
        .with_ansi(io::stderr().is_terminal())
        // A closed stderr must not end a game (the default reports to stderr and panics).
        .log_internal_errors(false)
        .with_env_filter(tracing_subscriber::EnvFilter::new(cli.log_filter()))
        .init();
    let code = match run(&cli, default) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            let _ = writeln!(QueuedStderr, "liuzi: {message}");
            ExitCode::FAILURE
        }
    };
    stderr_queue::flush_within(STDERR_FLUSH);
    code
}

/// The Connect6 protocol when the program file is called `liuzi-c6` (a copy or a link).
fn program_name_default() -> Option<Command> {
    let arg0 = std::env::args_os().next()?;
    let stem = std::path::Path::new(&arg0)
        .file_stem()?
        .to_str()?
        .to_string();
    stem.starts_with("liuzi-c6").then_some(Command::C6 {
        letters: None,
        sau_placeholder: false,
    })
}

fn run(cli: &Cli, default: Command) -> Result<(), String> {
    let (mut config, source) =
        EngineConfig::load(cli.config.as_deref()).map_err(|e| e.to_string())?;
    let from_file = config.clone();
    cli.apply_overrides(&mut config);
    if config != from_file {
        config
            .validate()
            .map_err(|e| format!("command-line options: {e}"))?;
    }
    let command = cli.command.clone().unwrap_or(default);
    tracing::info!(%source, threads = config.thread_count(), seed = config.engine.seed, "configuration loaded");
    let engine = build_engine(&config)?;
    let served = match command {
        Command::Gtp => {
            let input = Input::start(io::stdin(), gtp::is_urgent);
            super::signals::on_termination(input.terminator());
            Gtp::new(engine, &config).serve(input, io::stdout())
        }
        Command::C6 { .. } => {
            let input = Input::start(io::stdin(), c6::is_urgent);
            super::signals::on_termination(input.terminator());
            C6::new(engine, &config).serve(input, io::stdout(), QueuedStderr)
        }
        Command::Bench(args) => {
            // Fixed work: the search bench takes 1 thread unless --threads says more.
            let search = crate::bench::SearchBenchOptions {
                threads: cli.threads,
                playouts: cli.playouts,
                cutoff: cli.playout_cutoff,
                value_mix: cli.value_mix,
                weights: cli.weights.clone(),
                evaluator: cli.evaluator.clone(),
                tree_prior_plies: config.search.tree_prior_plies,
            };
            return crate::bench::run(&args, &search, engine, &config, &mut io::stdout());
        }
    };
    match served {
        // The controller closing our stdout is the end of the session, not a failure.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other.map_err(|e| format!("I/O error: {e}")),
    }
}

/// The engine with its move generator: the seam where the search plugs in.
fn build_engine(config: &EngineConfig) -> Result<Engine, String> {
    let generator = build_generator(config).map_err(|e| format!("configuration: {e}"))?;
    let mut engine = Engine::new(config.engine.board_size, generator).map_err(|e| e.to_string())?;
    engine.set_book(load_book(config).map_err(|e| format!("configuration: {e}"))?);
    engine.clock_mut().default_stone_time = Some(config.stone_time());
    engine.clock_mut().policy = config.time_policy();
    Ok(engine)
}
