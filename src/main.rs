//! `liuzi`: the engine binary. Parses the command line, loads the configuration, builds the
//! engine and hands stdin/stdout to the chosen protocol front-end.

mod cli;

use clap::Parser;
use cli::{Cli, Command};
use liuzi::config::EngineConfig;
use liuzi::engine::{build_generator, Engine, TimePolicy};
use liuzi::protocol::c6::C6;
use liuzi::protocol::gtp::Gtp;
use std::io;
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
        Command::Bench(args) => {
            // Fixed work: the search bench takes 1 thread unless --threads says more.
            let search = liuzi::bench::SearchBenchOptions {
                threads: cli.threads,
                playouts: cli.playouts,
                cutoff: cli.playout_cutoff,
                weights: cli.weights.clone(),
                evaluator: cli.evaluator.clone(),
            };
            return liuzi::bench::run(&args, &search, engine, &config, &mut io::stdout());
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
