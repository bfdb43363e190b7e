//! liuzi-tune: SPSA tuning of engine settings by games, resumable (docs/matches.md,
//! "Tuning by SPSA"). Each iteration plays the engine with the tuned settings moved by +c_k·Δ
//! against the same engine moved by −c_k·Δ (or both against a reference engine), and moves the
//! settings along the result. The state file records every iteration; rerunning the same
//! command goes on from its last line.

use clap::Parser;
use liuzi_tools::match_runner::engine_spec::{parse_engine_flag, EngineSpec};
use liuzi_tools::match_runner::game::GameSetup;
use liuzi_tools::match_runner::openings::{make_openings, OpeningSource};
use liuzi_tools::match_runner::player::{PlayerContext, Timeouts};
use liuzi_tools::match_runner::process::CancelToken;
use liuzi_tools::match_runner::time_control::TimeControl;
use liuzi_tools::tune::play::{play_iteration, score_difference, IterationPlayers};
use liuzi_tools::tune::spec::TuneSpec;
use liuzi_tools::tune::spsa::{perturb, update};
use liuzi_tools::tune::state::{Iteration, StateFile};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

#[derive(Parser, Debug)]
#[command(
    version,
    about = "SPSA tuning of Liuzi's settings by games (resumable)"
)]
struct Args {
    /// The tuning spec (TOML): [spsa] iterations and gains, [[param]] key/start/min/max/c_end/r_end.
    #[arg(long, value_name = "FILE")]
    spec: PathBuf,
    /// The engine whose settings are tuned, as liuzi-match's --engine ("cmd='PROGRAM ARGS' ...");
    /// `--config FILE` with the perturbed settings is added to its command line.
    #[arg(long, value_name = "SPEC")]
    engine: String,
    /// A fixed opponent: both perturbed engines play it with each colour on the iteration's
    /// opening (four games) instead of each other (two).
    #[arg(long, value_name = "SPEC")]
    reference: Option<String>,
    /// The state file (JSON lines, one per iteration); an existing one is resumed.
    #[arg(long, value_name = "FILE")]
    state: PathBuf,
    /// Per-turn limit in seconds for engines without their own time control.
    #[arg(long, value_name = "SECONDS", conflicts_with = "tc")]
    st: Option<String>,
    /// Game clock for engines without their own: MAIN[+INC] seconds.
    #[arg(long, value_name = "MAIN[+INC]")]
    tc: Option<String>,
    /// Iterations to play in this run (default: up to the spec's planned number).
    #[arg(long, value_name = "N")]
    iterations: Option<u32>,
    /// Seed of the openings and of the perturbations.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Random openings: this many turns (2 = three stones) ...
    #[arg(long, default_value_t = 2, value_name = "TURNS")]
    opening_turns: usize,
    /// ... within this Chebyshev distance of the centre.
    #[arg(long, default_value_t = 3, value_name = "R")]
    opening_radius: usize,
    #[arg(long, default_value_t = 19)]
    size: usize,
    /// Slack over a time limit, for process and pipe latency: on every turn of a per-turn limit;
    /// with a game clock, once over the game (the time spent past an empty clock adds up).
    #[arg(long, default_value_t = 200, value_name = "MS")]
    margin_ms: u64,
    /// Append every engine's stderr to DIR/NAME.stderr.log.
    #[arg(long, value_name = "DIR")]
    engine_logs: Option<PathBuf>,
    /// Where the perturbed settings files go (default: STATE.d beside the state file).
    #[arg(long, value_name = "DIR")]
    work: Option<PathBuf>,
}

/// The tuned engine with the settings file `config` added to its command.
fn variant(base: &EngineSpec, name: &str, config: &Path) -> EngineSpec {
    let mut spec = base.clone();
    spec.name = name.to_string();
    spec.command.push("--config".into());
    spec.command.push(config.display().to_string());
    spec
}

fn write_file(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("{}: cannot write: {e}", path.display()))
}

fn run(args: Args) -> Result<(), String> {
    let spec = TuneSpec::load(&args.spec)?;
    let keys: Vec<String> = spec.params.iter().map(|p| p.key.clone()).collect();
    let base = parse_engine_flag(&args.engine).map_err(|e| format!("--engine: {e}"))?;
    if base
        .command
        .iter()
        .any(|w| w == "--config" || w.starts_with("--config="))
    {
        return Err(
            "--engine: its command sets --config, which liuzi-tune adds itself; put the \
                    settings that stay fixed on the command line, or tune from the defaults"
                .into(),
        );
    }
    let reference = args
        .reference
        .as_deref()
        .map(parse_engine_flag)
        .transpose()
        .map_err(|e| format!("--reference: {e}"))?;
    let time = TimeControl::from_flags(args.tc.as_deref(), args.st.as_deref())?;
    let (mut state, done) = StateFile::open(&args.state, &keys)?;
    let first = done.len() as u32;
    let mut theta = done
        .last()
        .map_or_else(|| spec.start(), |it| it.theta_after.clone());
    let last = match args.iterations {
        Some(n) => first.saturating_add(n).min(spec.iterations),
        None => spec.iterations,
    };
    if first > 0 {
        eprintln!(
            "liuzi-tune: resuming {} after iteration {}",
            args.state.display(),
            first - 1
        );
    }

    // The perturbed settings files, rewritten every iteration (the state file records them).
    let work = args
        .work
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("{}.d", args.state.display())));
    std::fs::create_dir_all(&work).map_err(|e| format!("{}: {e}", work.display()))?;
    let plus_path = std::path::absolute(work.join("plus.toml"))
        .map_err(|e| format!("{}: {e}", work.display()))?;
    let minus_path = plus_path.with_file_name("minus.toml");
    let plus = variant(&base, "plus", &plus_path);
    let minus = variant(&base, "minus", &minus_path);
    if let Some(dir) = &args.engine_logs {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let cancel = CancelToken::default();
    let handler_token = cancel.clone();
    ctrlc::set_handler(move || handler_token.cancel())
        .map_err(|e| format!("cannot install the Ctrl-C handler: {e}"))?;
    let context = PlayerContext {
        cancel: cancel.clone(),
        timeouts: Timeouts {
            startup: Duration::from_secs(30),
            command: Duration::from_secs(30),
            untimed_turn: Duration::from_secs(600),
            quit: Duration::from_secs(1),
        },
        stderr_dir: args.engine_logs.clone(),
        stderr_worker: None,
    };
    let players = IterationPlayers {
        plus: &plus,
        minus: &minus,
        reference: reference.as_ref(),
        context: &context,
    };
    let source = OpeningSource::Random {
        turns: args.opening_turns,
        radius: args.opening_radius,
        seed: args.seed,
    };
    let progress = liuzi_tools::progress::bar(u64::from(last.saturating_sub(first)), "iterations");
    for k in first..last {
        let opening = make_openings(&source, args.size, k as usize + 1)?
            .pop()
            .unwrap_or_default();
        let pert = perturb(&spec, &theta, k, args.seed);
        write_file(&plus_path, &spec.overrides(&pert.plus))?;
        write_file(&minus_path, &spec.overrides(&pert.minus))?;
        let setup = GameSetup {
            size: args.size,
            opening,
            // For engines without their own; play_iteration resolves each game's.
            time: [time; 2],
            margin: Duration::from_millis(args.margin_ms),
            untimed_turn: context.timeouts.untimed_turn,
        };
        let games = match play_iteration(&players, &setup) {
            Ok(games) => games,
            Err(_) if cancel.is_cancelled() => {
                liuzi_tools::progress::line(
                    &progress,
                    &format!(
                        "liuzi-tune: interrupted; iteration {k} is not recorded (rerun to resume)"
                    ),
                );
                break;
            }
            Err(e) => return Err(e),
        };
        let result = score_difference(&games);
        let after = update(&spec, &theta, k, &pert, result);
        state.append(&Iteration {
            iteration: k,
            keys: keys.clone(),
            theta: theta.clone(),
            delta: pert.delta.clone(),
            plus: pert.plus.clone(),
            minus: pert.minus.clone(),
            games,
            result,
            theta_after: after.clone(),
        })?;
        liuzi_tools::progress::line(
            &progress,
            &format!("iteration {k}: plus {result:+} -> {}", show(&keys, &after)),
        );
        progress.inc(1);
        theta = after;
    }
    progress.finish_and_clear();
    // The settings reached, as an engine configuration file.
    print!("{}", spec.overrides(&theta));
    Ok(())
}

fn show(keys: &[String], values: &[f64]) -> String {
    keys.iter()
        .zip(values)
        .map(|(k, v)| format!("{k} {v:.4}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn main() -> ExitCode {
    match run(Args::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("liuzi-tune: {e}");
            ExitCode::FAILURE
        }
    }
}
