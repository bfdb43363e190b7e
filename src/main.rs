//! `liuzi`: the engine binary. Parses the command line, loads the configuration, builds the
//! engine and hands stdin/stdout to the chosen protocol front-end.

mod cli;

use clap::Parser;
use cli::{Cli, Command};
use liuzi::config::EngineConfig;
use liuzi::engine::{build_generator, Engine, TimePolicy};
use liuzi::protocol::c6::C6;
use liuzi::protocol::gtp::{storm, Gtp};
use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Instant;

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
            let report = liuzi::search::bench::run_bench(cli.threads.unwrap_or(1).max(1));
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

/// Times the GoGui ruler storm through the whole GTP front-end (line reading, framing, replies).
fn bench_ruler(
    engine: Engine,
    config: &EngineConfig,
    replays: usize,
    emit: bool,
) -> Result<(), String> {
    if replays == 0 {
        return Err("--replays must be at least 1".to_string());
    }
    let game = storm::long_game(235, 19);
    let commands = storm::ruler_storm(&game, replays);
    let mut input = commands.join("\n");
    input.push('\n');
    if emit {
        let mut stdout = io::stdout().lock();
        return stdout
            .write_all(input.as_bytes())
            .and_then(|_| stdout.flush())
            .map_err(|e| format!("I/O error: {e}"));
    }
    let mut gtp = Gtp::new(engine, config);
    let mut replies = CountingSink::default();
    let start = Instant::now();
    gtp.run(input.as_bytes(), &mut replies)
        .map_err(|e| format!("I/O error: {e}"))?;
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "ruler storm: {} commands ({replays} replays of a 235-stone game)",
        commands.len()
    );
    println!(
        "replies:     {} bytes, {} errors (expected {})",
        replies.bytes,
        replies.errors,
        replays / 10
    );
    println!(
        "time:        {seconds:.3} s, {:.0} commands/s",
        commands.len() as f64 / seconds
    );
    if replies.errors != replays / 10 {
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
