//! `liuzi-train-eval`: trains the evaluator (per game phase, a Bayesian win / loss classifier
//! or, with `--model quadratic`, the same quadratic form fitted as a logistic regression) on
//! positions of recorded games labelled by their results, measures it on held-out games against
//! a linear logistic regression on the same features, and writes the evaluator file and a JSON
//! report. `--patterns` adds the pattern term to the quadratic form, fitted on its logit;
//! `--net H` adds the pattern net, fitted on the logit of both.
//! `--selfplay` adds `liuzi-selfplay` games, whose searched values `--value-label-mix` blends
//! into the labels the quadratic form and the pattern term train on.

use clap::Parser;
use liuzi::eval::{features, Evaluator, Phase};
use liuzi::records::GameRecord;
use liuzi_tools::eval_train::data::{
    sample_games, validation_games, Pick, Sample, SampleOptions, Skipped,
};
use liuzi_tools::eval_train::fit::{
    fit_phase, fitted_logit, in_range, phase_ranges, standardise, Comparison, ComparisonTally,
    FitOptions, PhaseFit, PATTERN_L2_GRID, QUADRATIC_L2_GRID,
};
use liuzi_tools::eval_train::logistic::{neg_log_likelihood, LogisticOptions};
use liuzi_tools::eval_train::metrics::{Scores, Tally};
use liuzi_tools::eval_train::net_fit::{self, EpochScores, NetOptions, NetRow};
use liuzi_tools::eval_train::sibling_order;
use liuzi_tools::report::file_names;
use liuzi_tools::selfplay::training::{read_selfplay, Sibling, ValuedGame};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Parser)]
#[command(
    name = "liuzi-train-eval",
    version,
    about = "Train Liuzi's position evaluator (per-phase Bayesian classifier or quadratic logistic regression) on game records"
)]
struct Cli {
    /// Game records (.games, SGF or CCGC); repeat for several files. Games without a winner
    /// (draws, unknown results) are left out.
    #[arg(long = "games", required_unless_present = "selfplay")]
    games: Vec<PathBuf>,
    /// Self-play games written by `liuzi-selfplay` (repeatable): sampled like --games, with
    /// the search's value of each searched position kept for --value-label-mix.
    #[arg(long = "selfplay", value_name = "FILE")]
    selfplay: Vec<PathBuf>,
    /// Only the self-play games whose index is below N (a run's first N games, in index
    /// order whatever order they were appended in): a fixed training set from a file that
    /// goes on growing. Every --selfplay file's games are read in index order.
    #[arg(long, value_name = "N", requires = "selfplay")]
    selfplay_games: Option<usize>,
    /// L in 0..=1: the quadratic form and the pattern term train on the soft label
    /// (1 − L)·result + L·(the search's value for the side to move), where a self-play game
    /// recorded one (elsewhere on the result). Needs --model quadratic; every score is still
    /// taken against the game's result.
    #[arg(long, default_value_t = 0.0, value_name = "L")]
    value_label_mix: f64,
    /// Up to K positions a self-play game one stone off it (the root stones the search
    /// compared with the one played, recorded by `liuzi-selfplay --children`), each labelled
    /// by the search's value of its stone alone; training games only (held-out scores stay on
    /// the games' own positions). Needs --model quadratic.
    #[arg(long, default_value_t = 0, value_name = "K", requires = "selfplay")]
    siblings_per_game: usize,
    /// Comparison training: at each sampled position, the game's stone is compared with N
    /// other stones near the fight, and the quadratic form also learns to value the position
    /// after the game's stone above the others for its mover (0: off). Needs --model
    /// quadratic, without --patterns or --net.
    #[arg(long, default_value_t = 0, value_name = "N")]
    comparisons: usize,
    /// Weight of the comparisons' mean log-loss against the positions' (> 0).
    #[arg(long, default_value_t = 1.0, value_name = "W")]
    comparison_weight: f64,
    /// Which near stones the game's is compared with: `random`, or `favourites`, those the
    /// --baseline evaluator values most for the mover (the stones it would have played).
    #[arg(long, value_enum, default_value_t = ComparisonPick::Random)]
    comparison_pick: ComparisonPick,
    /// Evaluator file to write.
    #[arg(long)]
    out: PathBuf,
    /// JSON report (default: the output path with `.report.json`).
    #[arg(long)]
    report: Option<PathBuf>,
    /// Seed of the position sample and of the train/validation split (by game).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Fraction of games held out for validation.
    #[arg(long, default_value_t = 0.1)]
    validation: f64,
    /// Positions sampled per game.
    #[arg(long, default_value_t = 16)]
    per_game: usize,
    /// `PATH=N`: positions sampled per game of the `--games` file PATH instead of --per-game
    /// (repeatable): a source weighted against the others, e.g. human games against many more
    /// engine games. Its held-out games are scored on as many positions.
    #[arg(long = "per-game-in", value_name = "PATH=N")]
    per_game_in: Vec<String>,
    /// Games with fewer stones are left out (early resignations).
    #[arg(long, default_value_t = 12)]
    min_stones: usize,
    /// Phase bounds in stones: phases are [0, b1), [b1, b2), ..., [bn, ∞).
    #[arg(long, value_delimiter = ',', default_value = "8,16,26,40,60")]
    phases: Vec<u32>,
    /// Weight α of the pooled covariance in each class's covariance (1 = linear discriminant);
    /// `auto` picks it per phase from 0, 0.25, 0.5, 0.75, 0.9, 1 on a fifth of the training
    /// games (together with --diagonal).
    #[arg(long, default_value = "auto")]
    pooled: String,
    /// Shrinkage λ of the covariances towards their diagonal; `auto` picks it per phase from
    /// 0, 0.03, 0.1, 0.3.
    #[arg(long, default_value = "auto")]
    diagonal: String,
    /// Ridge added to every standardised covariance diagonal.
    #[arg(long, default_value_t = 1e-3)]
    ridge: f64,
    /// L2 penalty of the logistic-regression baseline.
    #[arg(long, default_value_t = 1e-3)]
    l2: f64,
    /// The model the file stores: `qda` (the Bayesian discriminant) or `quadratic` (the same
    /// quadratic form fitted as a logistic regression).
    #[arg(long, value_enum, default_value_t = Model::Qda)]
    model: Model,
    /// L2 penalty on the quadratic logistic regression's mean log-loss; `auto` (the default
    /// with `--model quadratic`) picks it per phase from 1e-5, 1e-4, 1e-3, 1e-2 on a fifth of
    /// the training games. Given with `--model qda`, the regression is fitted and scored beside
    /// the discriminant.
    #[arg(long)]
    quadratic_l2: Option<String>,
    /// With `--model quadratic`: add the pattern term, per phase a weight for each empty
    /// cell's pattern (the four directions' classes) for either side, fitted on the quadratic's
    /// logit (the file is then format version 2).
    #[arg(long)]
    patterns: bool,
    /// L2 penalty on the pattern term's mean log-loss; `auto` (the default) picks it per phase
    /// from 1e-3, 1e-2, 1e-1 on a fifth of the training games.
    #[arg(long, requires = "patterns")]
    pattern_l2: Option<String>,
    /// With `--model quadratic`: add the pattern net with H hidden units (the file is then
    /// format version 3), trained after every phase's quadratic (and pattern term) on their
    /// logit, on the positions the rules leave to the model.
    #[arg(long, value_name = "H")]
    net: Option<usize>,
    /// The net's passes over its training positions (the best on the inner split is kept).
    #[arg(long, default_value_t = 12, requires = "net")]
    net_epochs: usize,
    /// The net's Adam step size (1e-3 overfitted from the first epoch on the full data).
    #[arg(long, default_value_t = 3e-4, requires = "net")]
    net_lr: f64,
    /// L2 penalty on the net's embeddings (in units of each id's typical count), added to the
    /// mean log-loss.
    #[arg(long, default_value_t = 1e-4, requires = "net")]
    net_l2: f64,
    /// Positions a minibatch of the net's fit.
    #[arg(long, default_value_t = 256, requires = "net")]
    net_batch: usize,
    /// Use at most this many games (in file order): quick runs.
    #[arg(long)]
    max_games: Option<usize>,
    /// Worker threads for sampling (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// An evaluator file (e.g. the shipped one) to score beside the new one on the same
    /// held-out positions, overall and per input file: is the retrained file better?
    #[arg(long)]
    baseline: Option<PathBuf>,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
enum ComparisonPick {
    Random,
    Favourites,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
enum Model {
    Qda,
    Quadratic,
}

#[derive(Serialize)]
struct PhaseReport {
    first_stone: u32,
    end_stone: Option<u32>,
    positions_train: usize,
    positions_validation: usize,
    train_win_rate: f64,
    /// α: weight of the pooled covariance.
    pooled: f64,
    /// λ: weight of the diagonal.
    diagonal: f64,
    /// (α, λ, inner-split log-loss) of every setting tried.
    grid_scores: Vec<(f64, f64, f64)>,
    calibration: [f64; 2],
    logistic_iterations: usize,
    logistic_converged: bool,
    /// The quadratic logistic regression's L2 penalty, and (penalty, inner-split log-loss) of
    /// every penalty tried (when fitted).
    quadratic_l2: Option<f64>,
    quadratic_grid_scores: Vec<(f64, f64)>,
    /// L-BFGS iterations of the quadratic logistic regression (when fitted).
    quadratic_iterations: Option<usize>,
    quadratic_converged: Option<bool>,
    /// The pattern term's L2 penalty, and (penalty, inner-split log-loss) of every penalty
    /// tried (when fitted).
    pattern_l2: Option<f64>,
    pattern_grid_scores: Vec<(f64, f64)>,
    /// L-BFGS iterations of the pattern term (when fitted).
    pattern_iterations: Option<usize>,
    pattern_converged: Option<bool>,
    /// Pattern ids with a weight for the side to move, for the opponent (when fitted).
    pattern_weighed_ids: Option<(usize, usize)>,
    validation: Comparison,
}

/// How the pattern net's fit went.
#[derive(Serialize)]
struct NetReport {
    options: NetOptions,
    /// Positions it trained on and positions of the inner split it was stopped on (those
    /// the rules decide left out of both).
    positions_train: usize,
    positions_inner: usize,
    /// Log-loss of the fitted logit alone (the quadratic and the pattern term) on both.
    offset_train_log_loss: f64,
    offset_inner_log_loss: f64,
    epochs: Vec<EpochScores>,
    /// The epoch kept (0: the starting weights).
    best_epoch: usize,
    seconds: f64,
}

/// Mean difference of a per-position quantity between two predictors (first minus second),
/// with a standard error that treats the positions of one game as one correlated cluster.
#[derive(Serialize)]
struct PairedDifference {
    mean: f64,
    standard_error: f64,
}

fn paired_difference(per_position: &[(u32, f64)]) -> PairedDifference {
    let n = per_position.len().max(1) as f64;
    let mean = per_position.iter().map(|x| x.1).sum::<f64>() / n;
    let mut by_game: std::collections::BTreeMap<u32, (f64, f64)> = Default::default();
    for &(game, d) in per_position {
        let e = by_game.entry(game).or_default();
        e.0 += d;
        e.1 += 1.0;
    }
    let g = by_game.len() as f64;
    let spread: f64 = by_game.values().map(|(s, k)| (s - k * mean).powi(2)).sum();
    PairedDifference {
        mean,
        standard_error: (spread * g / (g - 1.0).max(1.0)).sqrt() / n,
    }
}

/// Held-out scores of the games of one input file: the new evaluator and the baseline, both
/// with the threat rules (as the engine reads them).
#[derive(Serialize)]
struct InputReport {
    input: String,
    positions_validation: usize,
    new: Scores,
    baseline: Option<Scores>,
    per_phase: Vec<InputPhaseReport>,
}

#[derive(Serialize)]
struct InputPhaseReport {
    first_stone: u32,
    end_stone: Option<u32>,
    new: Scores,
    baseline: Option<Scores>,
}

/// How often an evaluator prefers, on held-out comparisons, the position the game's mover
/// chose (ties count half), and the log-loss of σ(logit(better) − logit(worse)).
#[derive(Clone, Copy, Serialize)]
struct PreferenceScores {
    accuracy: f64,
    log_loss: f64,
}

#[derive(Serialize)]
struct PreferenceReport {
    /// `--comparisons`: other stones compared at each sampled position.
    per_position: usize,
    /// `--comparison-weight`.
    weight: f64,
    /// `--comparison-pick`.
    pick: ComparisonPick,
    pairs_train: usize,
    pairs_validation: usize,
    new: PreferenceScores,
    /// The baseline's, when it is a quadratic form alone (the comparisons keep no pattern
    /// counts).
    baseline: Option<PreferenceScores>,
}

/// `evaluator`'s scores on the comparisons of `samples`' positions.
fn preference_scores(evaluator: &Evaluator, samples: &[&Sample]) -> PreferenceScores {
    let none = liuzi::eval::PatternCounts::default();
    let logit = |f: &liuzi::eval::Features, stones: usize| {
        let p = evaluator
            .model_probability_of_counts(f, stones, &none)
            .clamp(1e-12, 1.0 - 1e-12);
        (p / (1.0 - p)).ln()
    };
    let (mut right, mut loss, mut count) = (0.0, 0.0, 0usize);
    for s in samples {
        let stones = s.stones as usize + 1;
        for c in &s.comparisons {
            let t = logit(&c.better, stones) - logit(&c.worse, stones);
            right += if t > 0.0 {
                1.0
            } else if t == 0.0 {
                0.5
            } else {
                0.0
            };
            loss += neg_log_likelihood(t, true);
            count += 1;
        }
    }
    let n = count.max(1) as f64;
    PreferenceScores {
        accuracy: right / n,
        log_loss: loss / n,
    }
}

#[derive(Serialize)]
struct SiblingOrderReport {
    min_gap: f32,
    new: sibling_order::OrderTally,
    baseline: Option<sibling_order::OrderTally>,
}

#[derive(Serialize)]
struct Report {
    command: String,
    spec: String,
    inputs: Vec<String>,
    /// `--value-label-mix`: the weight of the search's values in the quadratic's labels.
    value_label_mix: f64,
    /// `--siblings-per-game`, and the positions one stone off a self-play game trained on.
    siblings_per_game: usize,
    sibling_positions: usize,
    /// Held-out self-play games with recorded root stones: pairs the search's values separate,
    /// ordered as the search did by the new file and the baseline.
    sibling_order: Option<SiblingOrderReport>,
    output: String,
    seed: u64,
    /// What the file stores.
    model: Model,
    /// The quadratic logistic regression's penalties to choose from (when fitted).
    quadratic_l2: Option<Vec<f64>>,
    /// The pattern term's penalties to choose from (when fitted).
    pattern_l2: Option<Vec<f64>>,
    /// The pattern net's fit (when fitted).
    net: Option<NetReport>,
    /// Comparison training (when asked for) and the held-out comparisons' scores.
    comparisons: Option<PreferenceReport>,
    validation_fraction: f64,
    per_game: usize,
    /// `--per-game-in`: the inputs sampled at another rate, (path, positions a game).
    per_game_in: Vec<(String, usize)>,
    min_stones: usize,
    phases: Vec<u32>,
    ridge: f64,
    logistic_l2: f64,
    games: usize,
    games_train: usize,
    games_validation: usize,
    games_skipped: Skipped,
    positions_train: usize,
    positions_validation: usize,
    seconds: f64,
    per_phase: Vec<PhaseReport>,
    /// All validation positions together.
    validation: Comparison,
    /// The `--baseline` file, when given.
    baseline: Option<String>,
    /// The baseline's scores on all validation positions (with the threat rules).
    baseline_validation: Option<Scores>,
    /// The validation positions of each input file.
    per_input: Vec<InputReport>,
    /// Calibrated QDA minus logistic regression on the validation positions.
    qda_minus_logistic_log_loss: PairedDifference,
    qda_minus_logistic_accuracy: PairedDifference,
}

fn command_line() -> String {
    std::env::args().collect::<Vec<_>>().join(" ")
}

/// `--per-game-in PATH=N` values: for each input, its own positions a game, if any.
/// A path that is not one of the inputs, a repeated one, or an N below 1 is an error.
fn per_game_by_input(values: &[String], inputs: &[PathBuf]) -> Result<Vec<Option<usize>>, String> {
    let mut by_input = vec![None; inputs.len()];
    for value in values {
        let (path, n) = value
            .rsplit_once('=')
            .ok_or_else(|| format!("--per-game-in must be PATH=N, not `{value}`"))?;
        let n = match n.parse::<usize>() {
            Ok(n) if n >= 1 => n,
            _ => {
                return Err(format!(
                    "--per-game-in {value}: N must be a whole number >= 1"
                ))
            }
        };
        let i = inputs
            .iter()
            .position(|p| p == Path::new(path))
            .ok_or_else(|| {
                format!(
                    "--per-game-in {value}: `{path}` is not one of the --games or --selfplay files"
                )
            })?;
        if by_input[i].replace(n).is_some() {
            return Err(format!("--per-game-in: `{path}` is given twice"));
        }
    }
    Ok(by_input)
}

fn with_extension(path: &Path, ext: &str) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(ext);
    PathBuf::from(s)
}

fn run(cli: Cli) -> Result<(), String> {
    let start = Instant::now();
    if !(0.0..1.0).contains(&cli.validation) {
        return Err("--validation must be in [0, 1)".into());
    }
    if cli.per_game == 0 {
        return Err("--per-game must be at least 1".into());
    }
    let weight = |flag: &str, text: &str| match text {
        "auto" => Ok(None),
        text => match text.parse::<f64>() {
            Ok(l) if (0.0..=1.0).contains(&l) => Ok(Some(l)),
            _ => Err(format!(
                "--{flag} must be `auto` or in [0, 1], not `{text}`"
            )),
        },
    };
    let pooled = weight("pooled", &cli.pooled)?;
    let lambda = weight("diagonal", &cli.diagonal)?;
    if !(cli.ridge.is_finite() && cli.ridge >= 0.0) {
        return Err("--ridge must be >= 0".into());
    }
    let quadratic_l2 = match (cli.quadratic_l2.as_deref(), cli.model) {
        (None, Model::Qda) => None,
        (None | Some("auto"), _) => Some(QUADRATIC_L2_GRID.to_vec()),
        (Some(text), _) => match text.parse::<f64>() {
            Ok(l) if l.is_finite() && l >= 0.0 => Some(vec![l]),
            _ => {
                return Err(format!(
                    "--quadratic-l2 must be `auto` or a number >= 0, not `{text}`"
                ))
            }
        },
    };
    let pattern_l2 = match (cli.patterns, cli.pattern_l2.as_deref()) {
        (false, _) => None,
        _ if cli.model != Model::Quadratic => {
            return Err("--patterns is fitted on the quadratic: it needs --model quadratic".into())
        }
        (true, None | Some("auto")) => Some(PATTERN_L2_GRID.to_vec()),
        (true, Some(text)) => match text.parse::<f64>() {
            Ok(l) if l.is_finite() && l >= 0.0 => Some(vec![l]),
            _ => {
                return Err(format!(
                    "--pattern-l2 must be `auto` or a number >= 0, not `{text}`"
                ))
            }
        },
    };
    if cli.net.is_some() && cli.model != Model::Quadratic {
        return Err("--net is fitted on the quadratic: it needs --model quadratic".into());
    }
    if let Some(h) = cli.net {
        if !(1..=liuzi::eval::pattern_net::MAX_HIDDEN).contains(&h) {
            return Err(format!(
                "--net must be in 1..={}",
                liuzi::eval::pattern_net::MAX_HIDDEN
            ));
        }
        if cli.net_batch == 0 || !(cli.net_lr > 0.0 && cli.net_lr.is_finite()) {
            return Err("--net-batch and --net-lr must be above 0".into());
        }
        if !(cli.net_l2 >= 0.0 && cli.net_l2.is_finite()) {
            return Err("--net-l2 must be >= 0".into());
        }
    }
    if !(0.0..=1.0).contains(&cli.value_label_mix) {
        return Err("--value-label-mix must be in 0..=1".into());
    }
    if cli.value_label_mix > 0.0 && cli.model != Model::Quadratic {
        return Err(
            "--value-label-mix trains the quadratic form (the discriminant fits two classes of \
             positions): it needs --model quadratic"
                .into(),
        );
    }
    if cli.siblings_per_game > 0 && cli.model != Model::Quadratic {
        return Err(
            "--siblings-per-game trains on the search's values: it needs --model quadratic".into(),
        );
    }
    if cli.comparisons == 0
        && (cli.comparison_weight != 1.0 || cli.comparison_pick != ComparisonPick::Random)
    {
        return Err("--comparison-weight and --comparison-pick need --comparisons N".into());
    }
    if cli.comparisons > 0 {
        if cli.model != Model::Quadratic || cli.patterns || cli.net.is_some() {
            return Err(
                "--comparisons trains the quadratic form alone: it needs --model quadratic, \
                 without --patterns or --net"
                    .into(),
            );
        }
        if !(cli.comparison_weight > 0.0 && cli.comparison_weight.is_finite()) {
            return Err("--comparison-weight must be above 0".into());
        }
        if cli.comparison_pick == ComparisonPick::Favourites && cli.baseline.is_none() {
            return Err(
                "--comparison-pick favourites ranks the stones by the --baseline evaluator: \
                 give one"
                    .into(),
            );
        }
    }
    let ranges = phase_ranges(&cli.phases)?;
    // Every input, the record files first: an input's index is its place here.
    let inputs: Vec<PathBuf> = cli.games.iter().chain(&cli.selfplay).cloned().collect();
    let per_game_in = per_game_by_input(&cli.per_game_in, &inputs)?;
    let threads = cli
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);

    // Load the baseline first: a bad file is an error before minutes of sampling.
    let baseline = match &cli.baseline {
        Some(path) => Some(Evaluator::load(path).map_err(|e| e.to_string())?),
        None => None,
    };
    let mut games: Vec<GameRecord> = Vec::new();
    // The searched values and sibling positions of each game (empty for record files), by index.
    let mut values: Vec<Vec<Option<f32>>> = Vec::new();
    let mut siblings: Vec<Vec<Sibling>> = Vec::new();
    // The input file of each game, by index.
    let mut input_of: Vec<usize> = Vec::new();
    for (i, path) in inputs.iter().enumerate() {
        let read: Vec<ValuedGame> = if i < cli.games.len() {
            let records = liuzi::records::read_file(path).map_err(|e| e.to_string())?;
            records
                .into_iter()
                .map(|record| ValuedGame {
                    record,
                    values: Vec::new(),
                    siblings: Vec::new(),
                })
                .collect()
        } else {
            read_selfplay(path, cli.selfplay_games)?
        };
        eprintln!("{}: {} games", path.display(), read.len());
        input_of.extend(std::iter::repeat_n(i, read.len()));
        for game in read {
            games.push(game.record);
            values.push(game.values);
            siblings.push(game.siblings);
        }
    }
    if let Some(max) = cli.max_games {
        games.truncate(max);
    }
    let options = SampleOptions {
        per_game: cli.per_game,
        min_stones: cli.min_stones,
        seed: cli.seed,
        // Counted also for a baseline with the term, which is scored on them.
        patterns: cli.patterns
            || cli.net.is_some()
            || baseline
                .as_ref()
                .is_some_and(|b| b.pattern_tables().is_some() || b.pattern_net().is_some()),
        alternatives: cli.comparisons,
        siblings: cli.siblings_per_game,
        pick: match (cli.comparison_pick, &baseline) {
            (ComparisonPick::Favourites, Some(b)) => Pick::Favourites(b),
            _ => Pick::Random,
        },
    };
    let per_game: Vec<usize> = input_of
        .iter()
        .take(games.len())
        .map(|&i| per_game_in[i].unwrap_or(cli.per_game))
        .collect();
    let (mut samples, skipped) =
        sample_games(&games, &values, &siblings, &options, &per_game, threads);
    let held_out = validation_games(games.len(), cli.validation, cli.seed);
    // Sibling positions train only: the held-out scores stay on the games' own positions.
    samples.retain(|s| !(s.sibling && held_out[s.game as usize]));
    let sibling_count = samples.iter().filter(|s| s.sibling).count();
    // A fifth of the training games choose the shrinkage (a second seeded split).
    let inner_games = validation_games(games.len(), 0.2, cli.seed.wrapping_add(0x5EED));
    let (val, train): (Vec<_>, Vec<_>) = samples.iter().partition(|s| held_out[s.game as usize]);
    let used: std::collections::HashSet<u32> = samples.iter().map(|s| s.game).collect();
    let games_validation = used.iter().filter(|&&g| held_out[g as usize]).count();
    eprintln!(
        "{} games used ({} validation), {} skipped ({:?}); {} training ({} of them one stone off \
         a self-play game) and {} validation positions",
        used.len(),
        games_validation,
        games.len() - used.len(),
        skipped,
        train.len(),
        sibling_count,
        val.len()
    );

    let fit_options = FitOptions {
        pooled,
        lambda,
        ridge: cli.ridge,
        logistic: LogisticOptions {
            l2: cli.l2,
            ..LogisticOptions::default()
        },
        quadratic_l2: quadratic_l2.clone(),
        pattern_l2: pattern_l2.clone(),
        threads,
        value_label_mix: cli.value_label_mix,
        comparison_weight: if cli.comparisons > 0 {
            cli.comparison_weight
        } else {
            0.0
        },
    };
    let mut fits: Vec<PhaseFit> = Vec::new();
    let mut per_phase = Vec::new();
    let mut overall = ComparisonTally::default();
    let (mut loss_diff, mut right_diff) = (Vec::new(), Vec::new());
    let progress = liuzi_tools::progress::bar(ranges.len() as u64, "phases");
    let mut phase_trains = Vec::new();
    for &range in &ranges {
        let phase_train: Vec<_> = train
            .iter()
            .copied()
            .filter(|s| in_range(s.stones, range))
            .collect();
        let inner: Vec<bool> = phase_train
            .iter()
            .map(|s| inner_games[s.game as usize])
            .collect();
        // A comparison's positions hold one stone more than its sample's.
        let phase_comparisons: Vec<_> = train
            .iter()
            .filter(|s| in_range(s.stones + 1, range))
            .flat_map(|s| {
                let inner = inner_games[s.game as usize];
                s.comparisons.iter().map(move |c| (c, inner))
            })
            .collect();
        let fit = fit_phase(
            &phase_train,
            &inner,
            &phase_comparisons,
            range,
            &fit_options,
        )
        .map_err(|e| format!("phase {range:?}: {e}"))?;
        progress.inc(1);
        fits.push(fit);
        phase_trains.push(phase_train.len());
    }
    progress.finish_and_clear();

    // The net, on every phase's training positions at once, after their quadratics and
    // pattern terms: positions the rules decide are left out (the engine never asks the model
    // about them), those of the inner split's games stop it.
    let net_fit = match cli.net {
        None => None,
        Some(hidden) => {
            let net_start = Instant::now();
            let (mut net_train, mut net_check) = (Vec::new(), Vec::new());
            for s in train.iter().filter(|s| s.decided.is_none()) {
                let phase = ranges
                    .iter()
                    .position(|&r| in_range(s.stones, r))
                    .expect("the phases cover every stone count");
                let row = NetRow {
                    counts: &s.patterns,
                    phase,
                    offset: fitted_logit(&fits[phase], s)
                        .expect("--net needs --model quadratic, checked above"),
                    target: s.target(cli.value_label_mix),
                    win: s.win,
                };
                // The check is scored against the games' results: no position off the game.
                match (inner_games[s.game as usize], s.sibling) {
                    (true, false) => net_check.push(row),
                    (true, true) => {}
                    (false, _) => net_train.push(row),
                }
            }
            let options = NetOptions {
                hidden,
                epochs: cli.net_epochs,
                learning_rate: cli.net_lr,
                l2: cli.net_l2,
                batch: cli.net_batch,
                seed: cli.seed,
            };
            eprintln!(
                "pattern net, {hidden} hidden units: {} training and {} inner-split positions",
                net_train.len(),
                net_check.len()
            );
            let fit = net_fit::fit(&net_train, &net_check, ranges.len(), &options, |e| {
                eprintln!(
                    "  epoch {:>3}  train log-loss {:.5}  inner log-loss {:.5}",
                    e.epoch, e.train_log_loss, e.inner_log_loss
                )
            });
            eprintln!(
                "  without the net: train {:.5}, inner {:.5}; kept epoch {}",
                fit.offset_train_log_loss, fit.offset_inner_log_loss, fit.best_epoch
            );
            let report = NetReport {
                options,
                positions_train: net_train.len(),
                positions_inner: net_check.len(),
                offset_train_log_loss: fit.offset_train_log_loss,
                offset_inner_log_loss: fit.offset_inner_log_loss,
                epochs: fit.epochs.clone(),
                best_epoch: fit.best_epoch,
                seconds: net_start.elapsed().as_secs_f64(),
            };
            Some((fit.net, report))
        }
    };

    for (index, (&range, fit)) in ranges.iter().zip(&fits).enumerate() {
        let net = net_fit.as_ref().map(|(net, _)| (net, index));
        let mut tally = ComparisonTally::default();
        let phase_val: Vec<_> = val.iter().filter(|s| in_range(s.stones, range)).collect();
        for s in &phase_val {
            tally.add(fit, net, s);
            let q = fit.model.win_probability(&s.features);
            let l = fit.logistic.probability(&standardise(&fit.model, s));
            let loss = |p: f64| -f64::ln(if s.win { p } else { 1.0 - p }.clamp(1e-6, 1.0));
            let right = |p: f64| f64::from(u8::from((p > 0.5) == s.win));
            loss_diff.push((s.game, loss(q) - loss(l)));
            right_diff.push((s.game, right(q) - right(l)));
        }
        overall.merge(&tally);
        let validation = tally.scores();
        eprintln!("{}", format_args!(
            "stones {:>3}..{:<4} train {:>6} val {:>5}  α {:<4} λ {:<4}  accuracy qda {:.4} logistic {:.4}  log-loss qda {:.4} logistic {:.4} prior {:.4}",
            range.0,
            range.1.map_or("inf".to_string(), |e| e.to_string()),
            phase_trains[index],
            phase_val.len(),
            fit.shrinkage.pooled,
            fit.shrinkage.lambda,
            validation.qda.accuracy,
            validation.logistic.accuracy,
            validation.qda.log_loss,
            validation.logistic.log_loss,
            validation.prior.log_loss,
        ));
        if let Some(q) = &validation.quadratic_with_rules {
            eprintln!("{}", format_args!(
                "  quadratic logistic: L2 {:e} ({} iterations)  accuracy {:.4}  log-loss {:.4} (with the rules)",
                fit.quadratic.as_ref().map_or(0.0, |q| q.l2),
                fit.quadratic.as_ref().map_or(0, |q| q.iterations),
                q.accuracy,
                q.log_loss
            ));
        }
        if let (Some(v), Some(p)) = (&validation.patterns_with_rules, &fit.patterns) {
            eprintln!("{}", format_args!(
                "  with the pattern term: L2 {:e} ({} iterations)  accuracy {:.4}  log-loss {:.4} (with the rules)",
                p.l2, p.iterations, v.accuracy, v.log_loss
            ));
        }
        if let Some(v) = &validation.net_with_rules {
            eprintln!(
                "  with the pattern net: accuracy {:.4}  log-loss {:.4} (with the rules)",
                v.accuracy, v.log_loss
            );
        }
        per_phase.push(PhaseReport {
            first_stone: range.0,
            end_stone: range.1,
            positions_train: phase_trains[index],
            positions_validation: phase_val.len(),
            train_win_rate: fit.prior,
            pooled: fit.shrinkage.pooled,
            diagonal: fit.shrinkage.lambda,
            grid_scores: fit.grid_scores.clone(),
            calibration: fit.model.calibration,
            logistic_iterations: fit.logistic.iterations,
            logistic_converged: fit.logistic.converged,
            quadratic_l2: fit.quadratic.as_ref().map(|q| q.l2),
            quadratic_grid_scores: fit.quadratic_grid_scores.clone(),
            quadratic_iterations: fit.quadratic.as_ref().map(|q| q.iterations),
            quadratic_converged: fit.quadratic.as_ref().map(|q| q.converged),
            pattern_l2: fit.patterns.as_ref().map(|p| p.l2),
            pattern_grid_scores: fit.pattern_grid_scores.clone(),
            pattern_iterations: fit.patterns.as_ref().map(|p| p.iterations),
            pattern_converged: fit.patterns.as_ref().map(|p| p.converged),
            pattern_weighed_ids: fit.patterns.as_ref().map(|p| {
                let weighed = |t: &[f32]| t.iter().filter(|&&w| w != 0.0).count();
                (weighed(&p.tables.own), weighed(&p.tables.opp))
            }),
            validation,
        });
    }

    let source = format!(
        "liuzi-train-eval {} on {} ({} training games, seed {}, {} positions a game, validation {}); command: {}",
        env!("CARGO_PKG_VERSION"),
        file_names(&inputs),
        used.len() - games_validation,
        cli.seed,
        cli.per_game,
        cli.validation,
        command_line()
    );
    let mut tables = Vec::new();
    let phases = fits
        .into_iter()
        .map(|f| {
            tables.extend(f.patterns.map(|p| p.tables));
            match (cli.model, f.quadratic) {
                (Model::Quadratic, Some(q)) => Phase::Logistic(q.phase),
                _ => Phase::Discriminant(f.model),
            }
        })
        .collect();
    let evaluator = match cli.patterns {
        true => Evaluator::with_patterns(phases, tables, &source)?,
        false => Evaluator::new(phases, &source)?,
    };
    let (evaluator, net_report) = match net_fit {
        // A net no epoch of which beat the offsets is zero: left out of the file, which then
        // costs the engine nothing for it.
        Some((_, report)) if report.best_epoch == 0 => (evaluator, Some(report)),
        Some((net, report)) => (evaluator.with_net(net)?, Some(report)),
        None => (evaluator, None),
    };
    evaluator.save(&cli.out).map_err(|e| e.to_string())?;

    // The saved evaluator and the baseline, as the engine reads them, per input file and phase.
    let phases = ranges.len();
    let mut new_tally = vec![vec![Tally::default(); phases]; inputs.len()];
    let mut base_tally = vec![vec![Tally::default(); phases]; inputs.len()];
    for s in &val {
        let stones = s.stones as usize;
        let input = input_of[s.game as usize];
        let phase = ranges
            .iter()
            .position(|&r| in_range(s.stones, r))
            .expect("the phases cover every stone count");
        let p = s.decided.unwrap_or_else(|| {
            evaluator.model_probability_of_counts(&s.features, stones, &s.patterns)
        });
        new_tally[input][phase].add(p, s.win);
        if let Some(b) = &baseline {
            let p = s
                .decided
                .unwrap_or_else(|| b.model_probability_of_counts(&s.features, stones, &s.patterns));
            base_tally[input][phase].add(p, s.win);
        }
    }
    let merged = |tallies: &mut dyn Iterator<Item = &Tally>| {
        let mut all = Tally::default();
        tallies.for_each(|t| all.merge(t));
        all
    };
    let base_all = merged(&mut base_tally.iter().flatten());
    // The held-out games' recorded root stones, in the evaluators' order and the search's.
    let sibling_order = siblings.iter().any(|s| s.len() > 1).then(|| {
        let keep = |i: usize| held_out[i];
        SiblingOrderReport {
            min_gap: sibling_order::MIN_GAP,
            new: sibling_order::tally(&games, &siblings, keep, &evaluator),
            baseline: baseline
                .as_ref()
                .map(|b| sibling_order::tally(&games, &siblings, keep, b)),
        }
    });
    let comparisons = (cli.comparisons > 0).then(|| {
        let pairs = |set: &[&Sample]| set.iter().map(|s| s.comparisons.len()).sum::<usize>();
        PreferenceReport {
            per_position: cli.comparisons,
            weight: cli.comparison_weight,
            pick: cli.comparison_pick,
            pairs_train: pairs(&train),
            pairs_validation: pairs(&val),
            new: preference_scores(&evaluator, &val),
            baseline: baseline
                .as_ref()
                .filter(|b| b.pattern_tables().is_none() && b.pattern_net().is_none())
                .map(|b| preference_scores(b, &val)),
        }
    });
    let per_input: Vec<InputReport> = inputs
        .iter()
        .enumerate()
        .map(|(i, path)| {
            let new = merged(&mut new_tally[i].iter()).scores();
            InputReport {
                input: path.display().to_string(),
                positions_validation: new.positions,
                new,
                baseline: baseline
                    .as_ref()
                    .map(|_| merged(&mut base_tally[i].iter()).scores()),
                per_phase: ranges
                    .iter()
                    .enumerate()
                    .map(|(k, r)| InputPhaseReport {
                        first_stone: r.0,
                        end_stone: r.1,
                        new: new_tally[i][k].scores(),
                        baseline: baseline.as_ref().map(|_| base_tally[i][k].scores()),
                    })
                    .collect(),
            }
        })
        .collect();

    let validation = overall.scores();
    let report = Report {
        command: command_line(),
        spec: features::spec_id(),
        inputs: inputs.iter().map(|p| p.display().to_string()).collect(),
        value_label_mix: cli.value_label_mix,
        siblings_per_game: cli.siblings_per_game,
        sibling_positions: sibling_count,
        sibling_order,
        output: cli.out.display().to_string(),
        seed: cli.seed,
        model: cli.model,
        quadratic_l2,
        pattern_l2,
        net: net_report,
        comparisons,
        validation_fraction: cli.validation,
        per_game: cli.per_game,
        per_game_in: inputs
            .iter()
            .zip(&per_game_in)
            .filter_map(|(p, n)| n.map(|n| (p.display().to_string(), n)))
            .collect(),
        min_stones: cli.min_stones,
        phases: cli.phases.clone(),
        ridge: cli.ridge,
        logistic_l2: cli.l2,
        games: games.len(),
        games_train: used.len() - games_validation,
        games_validation,
        games_skipped: skipped,
        positions_train: train.len(),
        positions_validation: val.len(),
        seconds: start.elapsed().as_secs_f64(),
        per_phase,
        validation,
        baseline: cli.baseline.as_ref().map(|p| p.display().to_string()),
        baseline_validation: baseline.as_ref().map(|_| base_all.scores()),
        per_input,
        qda_minus_logistic_log_loss: paired_difference(&loss_diff),
        qda_minus_logistic_accuracy: paired_difference(&right_diff),
    };
    let report_path = cli
        .report
        .clone()
        .unwrap_or_else(|| with_extension(&cli.out, ".report.json"));
    let json = serde_json::to_string_pretty(&report).expect("the report serialises");
    std::fs::write(&report_path, json + "\n")
        .map_err(|e| format!("{}: {e}", report_path.display()))?;
    let line = |name: &str, s: &liuzi_tools::eval_train::metrics::Scores| {
        eprintln!(
            "  {name:<20} accuracy {:.4}  log-loss {:.4}  brier {:.4}",
            s.accuracy, s.log_loss, s.brier
        )
    };
    eprintln!("validation, {} positions:", validation.qda.positions);
    line("prior", &validation.prior);
    line("qda (raw)", &validation.qda_raw);
    line("qda (calibrated)", &validation.qda);
    line("logistic", &validation.logistic);
    line("qda + rules", &validation.qda_with_rules);
    line("logistic + rules", &validation.logistic_with_rules);
    if let Some(q) = &validation.quadratic_with_rules {
        line("quadratic + rules", q);
    }
    if let Some(p) = &validation.patterns_with_rules {
        line("+ pattern term", p);
    }
    if let Some(p) = &validation.net_with_rules {
        line("+ pattern net", p);
    }
    let (dl, da) = (
        &report.qda_minus_logistic_log_loss,
        &report.qda_minus_logistic_accuracy,
    );
    eprintln!(
        "  qda − logistic: log-loss {:+.4} ± {:.4}, accuracy {:+.4} ± {:.4} (95%, clustered by game)",
        dl.mean,
        1.96 * dl.standard_error,
        da.mean,
        1.96 * da.standard_error
    );
    if let Some(b) = &report.baseline_validation {
        line("baseline + rules", b);
    }
    if let Some(c) = &report.comparisons {
        let base = c.baseline.map_or(String::new(), |b| {
            format!(
                "; baseline accuracy {:.4}  log-loss {:.4}",
                b.accuracy, b.log_loss
            )
        });
        eprintln!(
            "held-out comparisons, {} pairs: new accuracy {:.4}  log-loss {:.4}{base}",
            c.pairs_validation, c.new.accuracy, c.new.log_loss
        );
    }
    if let Some(o) = &report.sibling_order {
        let base = o
            .baseline
            .map_or(String::new(), |b| format!("; baseline {:.4}", b.share()));
        eprintln!(
            "held-out root stones, {} pairs {} apart in the search's values: ordered as the \
             search by the new file {:.4}{base}",
            o.new.pairs,
            o.min_gap,
            o.new.share()
        );
    }
    for input in &report.per_input {
        eprintln!("{}, {} positions:", input.input, input.positions_validation);
        line("new + rules", &input.new);
        if let Some(b) = &input.baseline {
            line("baseline + rules", b);
        }
        for phase in &input.per_phase {
            let base = phase
                .baseline
                .map_or(String::new(), |b| format!("  baseline {:.4}", b.log_loss));
            eprintln!(
                "    stones {:>3}..{:<4} {:>6} positions  log-loss new {:.4}{base}",
                phase.first_stone,
                phase.end_stone.map_or("inf".to_string(), |e| e.to_string()),
                phase.new.positions,
                phase.new.log_loss,
            );
        }
    }
    eprintln!("wrote {} and {}", cli.out.display(), report_path.display());
    Ok(())
}

fn main() {
    let cli = Cli::parse();
    if let Err(message) = run(cli) {
        eprintln!("liuzi-train-eval: {message}");
        std::process::exit(1);
    }
}
