//! liuzi-match: Connect6 engine-vs-engine matches, gauntlets and round-robins over GTP or the
//! Connect6 protocol (Cloudict / SAU). See docs/matches.md.

use clap::Parser;
use liuzi_tools::match_runner::engine_spec::{load_engine_file, parse_engine_flag, EngineSpec};
use liuzi_tools::match_runner::opening_args::OpeningArgs;
use liuzi_tools::match_runner::openings::make_openings;
use liuzi_tools::match_runner::player::{PlayerContext, Timeouts};
use liuzi_tools::match_runner::process::CancelToken;
use liuzi_tools::match_runner::records_out::GamesOutput;
use liuzi_tools::match_runner::report::Tally;
use liuzi_tools::match_runner::results::ResultsFile;
use liuzi_tools::match_runner::runner::{
    check_finished, run_match, MatchEnd, MatchOutputs, MatchPlan,
};
use liuzi_tools::match_runner::schedule::{self, Colours, Mode};
use liuzi_tools::match_runner::time_control::TimeControl;
use liuzi_tools::stats::{EloModel, SprtConfig, SprtDecision};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(Parser, Debug)]
#[command(
    version,
    about = "Connect6 engine-vs-engine matches (GTP and Connect6 protocol)"
)]
struct Args {
    /// TOML file with [[engine]] tables (name, command, dir, protocol, init, tc/st, env).
    #[arg(long, value_name = "FILE")]
    engines: Option<PathBuf>,
    /// Use only these engines of --engines, in this order (default: all, in file order).
    #[arg(long = "use", value_name = "NAME")]
    use_engines: Vec<String>,
    /// An engine given inline: "name=N cmd='PROGRAM ARGS' [proto=gtp|cloudict|sau] [dir=D]
    /// [tc=MAIN+INC | st=SECONDS] [init='CMD']... [env=K=V]... [placements=true|false]".
    #[arg(long = "engine", value_name = "SPEC")]
    engine_flags: Vec<String>,
    /// match (2 engines), gauntlet (the first against the others) or round-robin.
    #[arg(long, value_enum)]
    mode: Option<Mode>,
    /// Games per pairing, played in colour-swapped pairs on the same opening.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// `swapped` (colour-swapped pairs), or `first-white` / `first-black`: one game an opening,
    /// the first engine of each pairing always that colour (one colour's game at half the cost).
    #[arg(long, value_enum, default_value_t = Colours::Swapped)]
    colours: Colours,
    #[arg(long, default_value_t = 19)]
    size: usize,
    /// Game clock for engines without their own: MAIN[+INC] seconds, e.g. 60+0.5.
    #[arg(long, value_name = "MAIN[+INC]", conflicts_with = "st")]
    tc: Option<String>,
    /// Per-turn limit in seconds for engines without their own time control.
    #[arg(long, value_name = "SECONDS")]
    st: Option<String>,
    /// Slack over a time limit, for process and pipe latency: on every turn of a per-turn limit;
    /// with a game clock, once over the game (the time spent past an empty clock adds up).
    #[arg(long, default_value_t = 200, value_name = "MS")]
    margin_ms: u64,
    /// Longest turn allowed to an engine without a time control before it loses on time.
    #[arg(long, default_value_t = 600.0, value_name = "SECONDS")]
    untimed_turn: f64,
    /// Time allowed for start-up, the handshake and start-up commands.
    #[arg(long, default_value_t = 30.0, value_name = "SECONDS")]
    startup_timeout: f64,
    /// Time allowed for commands other than move requests (boardsize, play, time_left, ...).
    #[arg(long, default_value_t = 10.0, value_name = "SECONDS")]
    command_timeout: f64,
    #[command(flatten)]
    openings: OpeningArgs,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1, value_name = "N")]
    concurrency: usize,
    /// Results file (JSON Lines, one finished game a line).
    #[arg(long, default_value = "match-results.jsonl", value_name = "FILE")]
    results: PathBuf,
    /// Continue the match recorded in --results, skipping the games it holds.
    #[arg(long)]
    resume: bool,
    /// Write every game as SGF into this directory.
    #[arg(long, value_name = "DIR")]
    sgf_dir: Option<PathBuf>,
    /// Write every game as a .games line (19x19), with metadata in the matching .meta.tsv.
    #[arg(long, value_name = "FILE")]
    games_out: Option<PathBuf>,
    /// Event name in records and results.
    #[arg(long, default_value = "liuzi-match")]
    event: String,
    /// Stop when the SPRT decides: "elo0=0,elo1=10[,alpha=0.05,beta=0.05][,model=logistic]"
    /// (model logistic or normalized Elo, as fastchess and fishtest; the first engine is the
    /// candidate, the second the baseline). See docs/match-statistics.md.
    #[arg(long, value_name = "SPEC")]
    sprt: Option<String>,
    /// Start fresh engine processes for every game (default: reuse them, restart after a fault).
    #[arg(long)]
    restart: bool,
    /// Append each engine's stderr to DIR/<name>.stderr.log (default: discarded); with
    /// --concurrency above 1, to DIR/<name>.w<k>.stderr.log for worker k. Each game is marked.
    #[arg(long, value_name = "DIR")]
    engine_logs: Option<PathBuf>,
    /// Do not start every engine once before the match to check it.
    #[arg(long)]
    no_probe: bool,
    /// More logging on stderr (-v info, -vv debug, -vvv protocol traffic); RUST_LOG overrides.
    #[arg(short, long, action = clap::ArgAction::Count)]
    verbose: u8,
}

fn parse_sprt(text: &str) -> Result<SprtConfig, String> {
    let mut config = SprtConfig {
        elo0: 0.0,
        elo1: f64::NAN,
        alpha: 0.05,
        beta: 0.05,
        model: EloModel::Logistic,
    };
    for item in text.split([',', ' ']).filter(|s| !s.is_empty()) {
        let (key, value) = item
            .split_once('=')
            .ok_or_else(|| format!("--sprt: `{item}` is not key=value"))?;
        if key == "model" {
            config.model = EloModel::parse(value)
                .ok_or_else(|| format!("--sprt: model `{value}` is not logistic or normalized"))?;
            continue;
        }
        let value: f64 = value
            .parse()
            .map_err(|_| format!("--sprt: {key} `{value}` is not a number"))?;
        match key {
            "elo0" => config.elo0 = value,
            "elo1" => config.elo1 = value,
            "alpha" => config.alpha = value,
            "beta" => config.beta = value,
            _ => {
                return Err(format!(
                    "--sprt: unknown key `{key}` (elo0, elo1, alpha, beta, model)"
                ))
            }
        }
    }
    if config.elo1.is_nan() {
        return Err("--sprt: elo1=... is required".into());
    }
    config.validate().map_err(|e| format!("--sprt: {e}"))?;
    Ok(config)
}

fn seconds(value: f64, flag: &str) -> Result<Duration, String> {
    Duration::try_from_secs_f64(value)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| format!("{flag}: `{value}` is not a positive number of seconds"))
}

fn collect_engines(args: &Args) -> Result<Vec<EngineSpec>, String> {
    let mut engines = Vec::new();
    if let Some(path) = &args.engines {
        let from_file = load_engine_file(path)?;
        if args.use_engines.is_empty() {
            engines.extend(from_file);
        } else {
            for name in &args.use_engines {
                let spec = from_file
                    .iter()
                    .find(|e| &e.name == name)
                    .ok_or_else(|| format!("--use {name}: no such engine in {}", path.display()))?;
                engines.push(spec.clone());
            }
        }
    } else if !args.use_engines.is_empty() {
        return Err("--use needs --engines FILE".into());
    }
    for flag in &args.engine_flags {
        engines.push(parse_engine_flag(flag)?);
    }
    Ok(engines)
}

fn build_plan(args: &Args, cancel: CancelToken) -> Result<MatchPlan, String> {
    let engines = collect_engines(args)?;
    let mode = args.mode.unwrap_or(Mode::Match);
    let pairings = schedule::pairings(mode, engines.len())?;
    if args.games == 0 {
        return Err("--games must be at least 1".into());
    }
    if args.colours != Colours::Swapped && args.sprt.is_some() {
        return Err("--sprt counts colour-swapped pairs: it needs --colours swapped".into());
    }
    let schedule = schedule::build(&pairings, args.games, args.colours);
    let source = args.openings.source(args.seed);
    let openings = make_openings(&source, args.size, schedule::openings_needed(&schedule))?;
    let default_time = TimeControl::from_flags(args.tc.as_deref(), args.st.as_deref())?;
    if let Some(dir) = &args.engine_logs {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let plan = MatchPlan {
        engines,
        pairings,
        schedule,
        openings,
        size: args.size,
        default_time,
        margin: Duration::from_millis(args.margin_ms),
        event: args.event.clone(),
        concurrency: args.concurrency,
        restart_every_game: args.restart,
        sprt: args.sprt.as_deref().map(parse_sprt).transpose()?,
        context: PlayerContext {
            cancel,
            timeouts: Timeouts {
                startup: seconds(args.startup_timeout, "--startup-timeout")?,
                command: seconds(args.command_timeout, "--command-timeout")?,
                untimed_turn: seconds(args.untimed_turn, "--untimed-turn")?,
                quit: Duration::from_secs(1),
            },
            stderr_dir: args.engine_logs.clone(),
            stderr_worker: None,
        },
    };
    if liuzi::rules::Board::new(plan.size).is_none() {
        return Err(format!(
            "--size {}: supported sizes are {}..={}",
            plan.size,
            liuzi::rules::MIN_SIZE,
            liuzi::rules::MAX_SIZE
        ));
    }
    plan.validate()?;
    Ok(plan)
}

/// The live progress: on a terminal a bar over the scheduled games with an ETA under the
/// progress line; elsewhere one plain line per finished game (parseable logs).
struct Progress {
    bar: indicatif::ProgressBar,
    total: usize,
    sprt: Option<SprtConfig>,
    /// Games finished before this run (a resume): not part of the ETA's rate.
    resumed: Option<u64>,
}

impl Progress {
    fn new(total: usize, sprt: Option<SprtConfig>) -> Progress {
        Progress {
            bar: liuzi_tools::progress::styled(
                total as u64,
                "{msg}\n[{elapsed_precise}] {wide_bar} {pos}/{len} games (ETA {eta})",
            ),
            total,
            sprt,
            resumed: None,
        }
    }

    fn show(&mut self, tally: &Tally, running: usize) {
        let line = tally.progress_line(self.total, running, self.sprt.as_ref());
        if self.bar.is_hidden() {
            if tally.games() > 0 {
                eprintln!("{line}");
            }
            return;
        }
        if self.resumed.is_none() {
            self.resumed = Some(tally.games());
            self.bar.set_position(tally.games());
            self.bar.reset_eta();
        }
        self.bar.set_position(tally.games());
        self.bar.set_message(line);
    }

    fn finish(&mut self) {
        // Leaves the last state (totals, LLR) on the screen.
        self.bar.finish();
    }
}

fn init_logging(verbose: u8) {
    let default = match verbose {
        0 => "warn",
        1 => "info",
        2 => "debug",
        _ => "trace",
    };
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .init();
}

fn run(args: Args) -> Result<ExitCode, String> {
    let cancel = CancelToken::default();
    let handler_token = cancel.clone();
    ctrlc::set_handler(move || handler_token.cancel())
        .map_err(|e| format!("cannot install the Ctrl-C handler: {e}"))?;
    let plan = build_plan(&args, cancel.clone())?;
    let (results, finished) = ResultsFile::open(&args.results, args.resume, plan.schedule.len())?;
    check_finished(&plan, &finished).map_err(|e| format!("{}: {e}", args.results.display()))?;
    if let Some(dir) = &args.sgf_dir {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let games = match &args.games_out {
        Some(path) => Some(GamesOutput::create(path, plan.size, &finished)?),
        None => None,
    };
    let mut outputs = MatchOutputs {
        results,
        sgf_dir: args.sgf_dir.clone(),
        games,
    };
    if let Some(dir) = &args.sgf_dir {
        // Records of games finished before a resume (rewritten: cheap, and repairs a crash between writes).
        for line in &finished {
            liuzi_tools::match_runner::records_out::write_sgf(dir, line)?;
        }
    }
    if !args.no_probe {
        plan.probe_engines()?;
    }
    if !finished.is_empty() {
        eprintln!(
            "resuming: {} game(s) already in {}",
            finished.len(),
            args.results.display()
        );
    }
    let mut progress = Progress::new(plan.schedule.len(), plan.sprt);
    let summary = run_match(&plan, &mut outputs, &finished, &mut |t, r| {
        progress.show(t, r)
    });
    progress.finish();
    let summary = summary?;
    report(&summary.tally.render(plan.sprt.as_ref()));
    Ok(match summary.end {
        MatchEnd::Completed => ExitCode::SUCCESS,
        MatchEnd::Sprt(decision) => {
            report(&format!(
                "SPRT stopped the match: {}\n",
                if decision == SprtDecision::AcceptH1 {
                    "H1 accepted"
                } else {
                    "H0 accepted"
                }
            ));
            ExitCode::SUCCESS
        }
        MatchEnd::Interrupted => {
            eprintln!(
                "interrupted; finished games are in {} (continue with --resume)",
                args.results.display()
            );
            ExitCode::from(130)
        }
    })
}

/// Writes the final table to stdout. Every game is already in the results file, so a reader
/// that has gone away (a killed `| tee`) costs only this copy: a note on stderr, not a panic.
fn report(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        eprintln!("liuzi-match: the summary could not be written to stdout ({e}); the results file has every game");
    }
}

fn main() -> ExitCode {
    let args = Args::parse();
    init_logging(args.verbose);
    match run(args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("liuzi-match: {e}");
            ExitCode::FAILURE
        }
    }
}
