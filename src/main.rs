//! `liuzi`: the engine binary. Parses the command line, loads the configuration, builds the
//! engine and hands stdin/stdout to the chosen protocol front-end.

mod cli;

use clap::Parser;
use cli::{Cli, Command};
use liuzi::config::EngineConfig;
use liuzi::engine::{build_generator, Engine, TimePolicy};
use liuzi::protocol::c6::C6;
use liuzi::protocol::gtp::Gtp;
use std::io::{self, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    tracing_subscriber::fmt()
        .with_writer(io::stderr)
        .with_env_filter(tracing_subscriber::EnvFilter::new(cli.log_filter()))
        .init();
    match run(&cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("liuzi: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: &Cli) -> Result<(), String> {
    let (mut config, source) =
        EngineConfig::load(cli.config.as_deref()).map_err(|e| e.to_string())?;
    cli.apply_overrides(&mut config);
    tracing::info!(%source, threads = config.thread_count(), seed = config.engine.seed, "configuration loaded");
    let engine = build_engine(&config)?;
    let command = cli.command.clone().unwrap_or(Command::Gtp);
    let served = match command {
        Command::Gtp => Gtp::new(engine, &config).run(io::stdin(), io::stdout()),
        Command::C6 { .. } => C6::new(engine, &config).run(io::stdin(), io::stdout(), io::stderr()),
        Command::BenchRuler { replays, emit } => {
            return bench_ruler(engine, &config, replays, emit)
        }
        Command::BenchSolver { nodes, repeat } => return bench_solver(nodes, repeat),
        Command::Bench => {
            // Fixed work, one fresh search per position: 1 thread unless --threads says more.
            let report = liuzi::bench::search::run_bench(cli.threads.unwrap_or(1).max(1));
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

/// The engine with its move generator: the seam where the search plugs in.
fn build_engine(config: &EngineConfig) -> Result<Engine, String> {
    let generator = build_generator(config).map_err(|e| format!("configuration: {e}"))?;
    let mut engine = Engine::new(config.engine.board_size, generator).map_err(|e| e.to_string())?;
    engine.clock_mut().default_stone_time = Some(config.stone_time());
    engine.clock_mut().policy = TimePolicy::from_config(config);
    Ok(engine)
}

/// Times the GoGui ruler storm through the whole GTP front-end (see `liuzi::bench`), or
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
            .write_all(liuzi::bench::ruler_storm_input(replays).as_bytes())
            .and_then(|_| stdout.flush())
            .map_err(|e| format!("I/O error: {e}"));
    }
    let report = liuzi::bench::run_ruler_bench(engine, config, replays)
        .map_err(|e| format!("I/O error: {e}"))?;
    print!("{}", report.text());
    if report.errors != report.expected_errors() {
        return Err("unexpected error replies in the storm".to_string());
    }
    Ok(())
}

/// Times the VCDT solver on the regression suite's positions (see `liuzi::tactics::bench`).
fn bench_solver(nodes: u64, repeat: usize) -> Result<(), String> {
    let limits = liuzi::tactics::SolverLimits {
        max_nodes: nodes,
        ..Default::default()
    };
    let report = liuzi::tactics::bench(&limits, repeat);
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
