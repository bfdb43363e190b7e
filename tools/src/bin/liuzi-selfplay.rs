//! `liuzi-selfplay`: the engine against itself in-process at a fixed playout count a stone
//! (both colours, one search thread a game), openings from a record file or random ones, each
//! finished game appended to `--out` as one JSON line with every searched stone's value; a
//! second run on the same file resumes it (docs/selfplay.md).

use clap::Parser;
use liuzi::config::{EngineConfig, SearchKind};
use liuzi_tools::match_runner::opening_args::OpeningArgs;
use liuzi_tools::match_runner::openings::make_openings;
use liuzi_tools::selfplay::play::ChildRecording;
use liuzi_tools::selfplay::runner::{run_selfplay, RunPlan};
use liuzi_tools::selfplay::settings::{content_name, run_settings};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

#[derive(Parser)]
#[command(
    name = "liuzi-selfplay",
    version,
    about = "Self-play games of Liuzi at fixed playouts, with the search's values, for training the evaluator (resumable)"
)]
struct Cli {
    /// Games file (JSON Lines): created with a settings header, or resumed when it exists
    /// (its games are skipped; a file of other settings is refused).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Games of the run, by index from 0 (a resumed run may raise it).
    #[arg(long, value_name = "N")]
    games: usize,
    /// Playouts a stone (one search thread).
    #[arg(long, default_value_t = 400, value_name = "N")]
    playouts: u64,
    /// Games played at once, each on its own thread.
    #[arg(long, default_value_t = 1, value_name = "K")]
    concurrency: usize,
    /// Configuration file (TOML) [default: engine-config/default.toml, else the built-in one].
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Pattern weights file (overrides engine.weights).
    #[arg(long, value_name = "FILE")]
    weights: Option<PathBuf>,
    /// Learned evaluator file (overrides engine.evaluator).
    #[arg(long, value_name = "FILE")]
    evaluator: Option<PathBuf>,
    /// Opening book file, or `none` (overrides engine.book).
    #[arg(long, value_name = "FILE")]
    book: Option<PathBuf>,
    #[command(flatten)]
    openings: OpeningArgs,
    /// Beside each searched stone's value, record up to N of the root's most visited stones with
    /// their own visits and values (positions one stone off the game, for the evaluator's
    /// trainer: `liuzi-train-eval --siblings-per-game`); 0 records none.
    #[arg(long, default_value_t = 0, value_name = "N")]
    children: usize,
    /// ...only those with at least this many visits.
    #[arg(long, default_value_t = 32, value_name = "V")]
    child_min_visits: u32,
    /// Seed of the run: game i's engine seed comes from it and i.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// More log detail on stderr: -v info, -vv debug (RUST_LOG wins when set).
    #[arg(short, long, action = clap::ArgAction::Count)]
    verbose: u8,
}

/// Raised by SIGINT/SIGTERM: the line being written is finished, then the run stops.
static STOP: AtomicBool = AtomicBool::new(false);

/// Exit status of a run ended by a termination signal (128 + SIGINT, as shells report).
const SIGNALLED: i32 = 130;

/// The engine's configuration for self-play: the file and the options, one thread a game.
fn engine_config(cli: &Cli) -> Result<EngineConfig, String> {
    let (mut config, source) =
        EngineConfig::load(cli.config.as_deref()).map_err(|e| e.to_string())?;
    if let Some(weights) = &cli.weights {
        config.engine.weights = weights.clone();
    }
    if let Some(evaluator) = &cli.evaluator {
        config.engine.evaluator = evaluator.clone();
    }
    if let Some(book) = &cli.book {
        config.engine.book = book.clone();
    }
    config.engine.threads = 1;
    config.search.playouts = cli.playouts;
    config
        .validate()
        .map_err(|e| format!("command-line options: {e}"))?;
    if config.engine.search != SearchKind::Mcts {
        return Err("self-play records the MCTS's values: engine.search must be mcts".into());
    }
    tracing::info!(%source, playouts = cli.playouts, "configuration loaded");
    Ok(config)
}

fn run(cli: &Cli) -> Result<bool, String> {
    if cli.playouts == 0 {
        return Err("--playouts must be at least 1 (self-play searches a fixed count)".into());
    }
    if cli.games == 0 {
        return Err("--games must be at least 1".into());
    }
    let config = engine_config(cli)?;
    let source = cli.openings.source(cli.seed);
    // A record file is named by content: one edited under the same name gives other openings.
    let openings_text = match &cli.openings.openings {
        Some(path) => format!("{} ({})", cli.openings.describe(), content_name(path)?),
        None => cli.openings.describe(),
    };
    let openings = make_openings(&source, config.engine.board_size, cli.games)?;
    let children = ChildRecording {
        count: cli.children,
        min_visits: cli.child_min_visits,
    };
    let mut settings = run_settings(&config, &openings_text, cli.seed)?;
    if children.count > 0 {
        // Only then: files written without children keep their headers and resume.
        settings.insert(
            "children".into(),
            format!(
                "{} of at least {} visits",
                children.count, children.min_visits
            ),
        );
    }
    let plan = RunPlan {
        config: &config,
        settings,
        openings,
        seed: cli.seed,
        concurrency: cli.concurrency.max(1),
        children,
    };
    let installed = ctrlc::set_handler(|| {
        if !STOP.swap(true, Ordering::SeqCst) {
            eprintln!(
                "liuzi-selfplay: stopping (the games in progress are dropped; run again to resume)"
            );
        }
    });
    if let Err(e) = installed {
        tracing::warn!("no signal handler ({e}): a kill may tear the last line (cut on resume)");
    }
    let summary = run_selfplay(&plan, &cli.out, &STOP)?;
    let hours = summary.seconds / 3600.0;
    eprintln!(
        "{} games played ({} were in {} already) in {:.0} s: {:.1} games/hour, {:.2} searched stones/s, {:.0} stones a game",
        summary.played,
        summary.already,
        cli.out.display(),
        summary.seconds,
        summary.played as f64 / hours.max(1e-9),
        summary.searched as f64 / summary.seconds.max(1e-9),
        summary.stones as f64 / summary.played.max(1) as f64,
    );
    Ok(!summary.stopped)
}

fn main() {
    let cli = Cli::parse();
    liuzi_tools::stderr_log::init(cli.verbose);
    match run(&cli) {
        Ok(true) => {}
        Ok(false) => std::process::exit(SIGNALLED),
        Err(message) => {
            eprintln!("liuzi-selfplay: {message}");
            std::process::exit(1);
        }
    }
}
