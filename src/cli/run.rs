//! Start-up: logging, configuration, the engine, then the chosen front-end on stdin/stdout.

use super::{Cli, Command};
use crate::config::EngineConfig;
use crate::engine::{build_generator, Engine, TimePolicy};
use crate::protocol::c6::{self, C6};
use crate::protocol::gtp::{self, Gtp};
use crate::protocol::input::Input;
use clap::Parser;
use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

/// Runs the program. `default` is the front-end when the command line names none: GTP for
/// `liuzi`, the Connect6 protocol for `liuzi-c6` (or any program file named so), so that
/// hosts that start an engine without arguments (ConnectMore) can use it.
pub fn main(default: Option<Command>) -> ExitCode {
    let cli = Cli::parse();
    let default = default
        .or_else(program_name_default)
        .unwrap_or(Command::Gtp);
    tracing_subscriber::fmt()
        .with_writer(io::stderr)
        // Colour only for a terminal: GoGui's shell and log files get plain text.
        .with_ansi(io::stderr().is_terminal())
        // A closed stderr must not end a game (the default reports to stderr and panics).
        .log_internal_errors(false)
        .with_env_filter(tracing_subscriber::EnvFilter::new(cli.log_filter()))
        .init();
    match run(&cli, default) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            let _ = writeln!(io::stderr(), "liuzi: {message}");
            ExitCode::FAILURE
        }
    }
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
    cli.apply_overrides(&mut config);
    let command = cli.command.clone().unwrap_or(default);
    tracing::info!(%source, threads = config.thread_count(), seed = config.engine.seed, "configuration loaded");
    let engine = build_engine(&config)?;
    let served = match command {
        Command::Gtp => {
            let input = Input::start(io::stdin(), gtp::is_urgent);
            on_termination(&input);
            Gtp::new(engine, &config).serve(input, io::stdout())
        }
        Command::C6 { .. } => {
            let input = Input::start(io::stdin(), c6::is_urgent);
            on_termination(&input);
            C6::new(engine, &config).serve(input, io::stdout(), io::stderr())
        }
        Command::BenchRuler { replays, emit } => {
            return bench_ruler(engine, &config, replays, emit)
        }
        Command::BenchSolver { nodes, repeat } => return bench_solver(nodes, repeat),
        Command::Bench => {
            // Fixed work, one fresh search per position: 1 thread unless --threads says more.
            let report = crate::search::bench::run_bench(cli.threads.unwrap_or(1).max(1));
            print!("{}", report.text);
            return Ok(());
        }
    };
    match served {
        // The controller closing our stdout is the end of the session, not a failure.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other.map_err(|e| format!("I/O error: {e}")),
    }
}

/// SIGTERM, SIGINT and SIGHUP stop a running search (its stone is still answered) and end the
/// session like the end of the input.
fn on_termination(input: &Input) {
    if let Err(e) = ctrlc::set_handler(input.terminator()) {
        tracing::warn!(error = %e, "cannot catch termination signals");
    }
}

/// The engine with its move generator: the seam where the search plugs in.
fn build_engine(config: &EngineConfig) -> Result<Engine, String> {
    let generator = build_generator(config).map_err(|e| format!("configuration: {e}"))?;
    let mut engine = Engine::new(config.engine.board_size, generator).map_err(|e| e.to_string())?;
    engine.clock_mut().default_stone_time = Some(config.stone_time());
    engine.clock_mut().policy = TimePolicy::from_config(config);
    Ok(engine)
}

/// Times the GoGui ruler storm through the whole GTP front-end (see `crate::bench`), or
/// prints the storm's commands with `--emit`.
fn bench_ruler(
    engine: Engine,
    config: &EngineConfig,
    replays: usize,
    emit: bool,
) -> Result<(), String> {
    if replays == 0 {
        return Err("--replays must be at least 1".to_string());
    }
    if emit {
        let mut stdout = io::stdout().lock();
        return stdout
            .write_all(crate::bench::ruler_storm_input(replays).as_bytes())
            .and_then(|_| stdout.flush())
            .map_err(|e| format!("I/O error: {e}"));
    }
    let report = crate::bench::run_ruler_bench(engine, config, replays)
        .map_err(|e| format!("I/O error: {e}"))?;
    print!("{}", report.text());
    if report.errors != report.expected_errors() {
        return Err("unexpected error replies in the storm".to_string());
    }
    Ok(())
}

/// Times the VCDT solver on the regression suite's positions (see `crate::tactics::bench`).
fn bench_solver(nodes: u64, repeat: usize) -> Result<(), String> {
    let limits = crate::tactics::SolverLimits {
        max_nodes: nodes,
        ..Default::default()
    };
    let report = crate::tactics::bench(&limits, repeat);
    println!(
        "solver: {} solves ({} wins, {} without a VCDT, {} unknown), {nodes} nodes at most each",
        report.positions, report.wins, report.no_vcdt, report.unknown
    );
    println!(
        "nodes:  {} in {:.3} s, {:.0} nodes/s",
        report.nodes,
        report.seconds,
        report.nodes_per_second()
    );
    Ok(())
}
