//! `liuzi-train`: fits the Bradley-Terry gammas of the move model on expert games by MM with
//! Coulom's prior (docs/patterns.md, MM training), evaluates weights files, and speaks Coulom's
//! `mm` format.

use anyhow_like::{fail, Result};
use clap::{Parser, Subcommand};
use indicatif::ProgressBar;
use liuzi::policy::lines::line_values;
use liuzi::policy::{FeatureSpec, Gammas, Group, TreeModel, TREE_LINE_LENGTHS};
use liuzi_tools::bt_train::candidates::Candidate;
use liuzi_tools::bt_train::extract::{
    empty_problem, extract, extract_features, flat_gammas, split_gammas, TrainGame,
};
use liuzi_tools::bt_train::extract::{flat_tree_gammas, tree_features};
use liuzi_tools::bt_train::feature_set::{Combined, FeatureSet};
use liuzi_tools::bt_train::line_patterns::LinePatterns;
use liuzi_tools::bt_train::mm::{self, FitOptions, Prior, Schedule};
use liuzi_tools::report::file_names;
use liuzi_tools::report::{
    learning_curve_svg, peak_memory_mib, Quality, SectionReport, SweepRecord, TrainReport,
};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Errors as messages naming what failed; the binary prints them and exits with status 1.
mod anyhow_like {
    pub type Result<T> = std::result::Result<T, String>;
    pub fn fail<T>(message: impl Into<String>) -> Result<T> {
        Err(message.into())
    }
}

#[derive(Parser)]
#[command(
    name = "liuzi-train",
    version,
    about = "Train and evaluate Liuzi's Bradley-Terry move model"
)]
struct Cli {
    /// More log output on stderr (-v info, -vv debug); RUST_LOG overrides.
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    verbose: u8,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Fit gammas on game records; write the weights, a JSON report and an SVG learning curve.
    Train(TrainArgs),
    /// Report mean log-evidence and top-1/top-5 of a weights file on game records.
    Eval(EvalArgs),
    /// Write the positions of game records in Coulom's `mm` input format.
    ExportMm(ExportArgs),
    /// Fit an `mm`-format input like Coulom's tool; print `index gamma` lines.
    Mm(MmArgs),
    /// Turn `index gamma` lines (Coulom's tool output) into a weights file.
    ImportRatings(ImportArgs),
    /// Redraw the SVG learning curve of a training report.
    Plot(PlotArgs),
    /// The Connect6 Bradley-Terry paper's experiment: fit a feature set (the paper's line
    /// patterns, ours, or both) on a 95%/5% split by game for a fixed number of MM iterations;
    /// print and report the training and test mean log-evidence of every iteration.
    Paper(PaperArgs),
}

#[derive(clap::Args)]
struct PaperArgs {
    #[command(flatten)]
    data: DataArgs,
    /// Feature set: l6, l7, l8 (four line patterns of that length), l8l7 (length 8 horizontally
    /// and vertically, 7 on the diagonals), ours (the engine's groups), or several joined by `+`.
    #[arg(long)]
    set: String,
    /// Seed of the split (by game).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Fraction of games held out as the test set.
    #[arg(long, default_value_t = 0.05)]
    test: f64,
    /// MM iterations (each updates every group once).
    #[arg(long, default_value_t = 20)]
    iterations: usize,
    /// JSON report with every iteration's figures.
    #[arg(long)]
    report: PathBuf,
    /// SVG learning curve.
    #[arg(long)]
    plot: PathBuf,
}

#[derive(clap::Args)]
struct PlotArgs {
    /// JSON report written by `train`.
    #[arg(long)]
    report: PathBuf,
    #[arg(long)]
    out: PathBuf,
}

#[derive(clap::Args)]
struct DataArgs {
    /// Game records (.games, SGF or CCGC); repeat for several files.
    #[arg(long = "games", required_unless_present = "match_games")]
    games: Vec<PathBuf>,
    /// Records of engine matches (e.g. experiments/evaluator/engine_games.py's) whose first
    /// --match-opening-stones stones the match set (random openings): those are replayed, not
    /// trained on. Repeat for several files.
    #[arg(long = "match-games")]
    match_games: Vec<PathBuf>,
    /// Stones of every --match-games game set by the match, not chosen (liuzi-match's random
    /// openings: 3, Black's stone and White's pair).
    #[arg(long, default_value_t = 3)]
    match_opening_stones: usize,
    /// Use at most this many games (after the seeded shuffle): quick runs and ablations.
    #[arg(long)]
    max_games: Option<usize>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
}

#[derive(clap::Args)]
struct TrainArgs {
    #[command(flatten)]
    data: DataArgs,
    /// Feature groups of the playout section, comma-separated (default: all). Names: own4,
    /// opp4, nearest, edge, stage, lastopp, tactic, cross.
    #[arg(long, value_delimiter = ',')]
    groups: Option<Vec<String>>,
    /// Length of the raw line patterns of the tree-prior section (2..=7); 0: no tree section
    /// (a one-section, version-1 file).
    #[arg(long, default_value_t = 6)]
    tree_lines: usize,
    /// Feature groups of the tree-prior section (default: all); must include the playout
    /// section's.
    #[arg(long, value_delimiter = ',')]
    tree_groups: Option<Vec<String>>,
    /// Iterations of the tree section's fit, which starts from the playout section's gammas.
    #[arg(long, default_value_t = 8)]
    tree_sweeps: usize,
    /// Seed of the train/validation split (by game).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Fraction of games held out for validation.
    #[arg(long, default_value_t = 0.1)]
    validation: f64,
    /// Iterations of as many group updates as there are groups.
    #[arg(long, default_value_t = 60)]
    max_sweeps: usize,
    /// Update the groups in turn instead of Coulom's order (largest last gain first).
    #[arg(long)]
    cyclic: bool,
    /// Stop when an iteration raises the mean log-likelihood per position by less than this.
    #[arg(long, default_value_t = 1e-4)]
    tolerance: f64,
    /// Weights file to write.
    #[arg(long)]
    out: PathBuf,
    /// JSON report (default: the weights path with `.report.json`).
    #[arg(long)]
    report: Option<PathBuf>,
    /// SVG learning curve (default: the weights path with `.curve.svg`).
    #[arg(long)]
    plot: Option<PathBuf>,
}

#[derive(clap::Args)]
struct EvalArgs {
    #[arg(long)]
    weights: PathBuf,
    #[command(flatten)]
    data: DataArgs,
}

#[derive(clap::Args)]
struct ExportArgs {
    #[command(flatten)]
    data: DataArgs,
    #[arg(long, value_delimiter = ',')]
    groups: Option<Vec<String>>,
    #[arg(long)]
    out: PathBuf,
}

#[derive(clap::Args)]
struct MmArgs {
    /// Coulom `mm` input file.
    #[arg(long)]
    input: PathBuf,
    /// Ratings output (default: stdout).
    #[arg(long)]
    output: Option<PathBuf>,
    #[arg(long, default_value_t = 1e-4)]
    tolerance: f64,
    #[arg(long)]
    threads: Option<usize>,
}

#[derive(clap::Args)]
struct ImportArgs {
    /// `index gamma` lines, indices as `export-mm` numbered them.
    #[arg(long)]
    ratings: PathBuf,
    #[arg(long, value_delimiter = ',')]
    groups: Option<Vec<String>>,
    #[arg(long)]
    out: PathBuf,
}

fn threads(requested: Option<usize>) -> usize {
    requested
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1)
}

fn parse_spec(groups: &Option<Vec<String>>) -> Result<FeatureSpec> {
    let Some(names) = groups else {
        return Ok(FeatureSpec::full());
    };
    let groups: Result<Vec<Group>> = names
        .iter()
        .map(|n| Group::from_name(n.trim()).ok_or_else(|| format!("unknown feature group `{n}`")))
        .collect();
    FeatureSpec::new(&groups?)
        .ok_or_else(|| "feature groups must be non-empty and distinct".to_string())
}

impl DataArgs {
    /// Every file read, the match records last.
    fn files(&self) -> Vec<PathBuf> {
        self.games
            .iter()
            .chain(&self.match_games)
            .cloned()
            .collect()
    }
}

/// The games of `--games` (every stone chosen), then those of `--match-games` (chosen from
/// stone `--match-opening-stones` on).
fn read_games(data: &DataArgs) -> Result<Vec<TrainGame>> {
    let mut all = Vec::new();
    let sources = data.games.iter().map(|p| (p, 0));
    let matches = data
        .match_games
        .iter()
        .map(|p| (p, data.match_opening_stones));
    for (path, first_chosen) in sources.chain(matches) {
        let games = liuzi::records::read_file(path).map_err(|e| e.to_string())?;
        tracing::info!("{}: {} games", path.display(), games.len());
        all.extend(games.into_iter().map(|record| TrainGame {
            record,
            first_chosen,
        }));
    }
    Ok(all)
}

fn bar(len: usize, what: &str) -> ProgressBar {
    liuzi_tools::progress::bar(len as u64, what)
}

fn command_line() -> String {
    std::env::args().collect::<Vec<_>>().join(" ")
}

fn with_extension(path: &Path, ext: &str) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(ext);
    PathBuf::from(s)
}

/// What one fit was asked to do.
struct FitPlan<'a> {
    data: &'a DataArgs,
    seed: u64,
    /// Fraction of the games (by game, after the seeded shuffle) held out.
    held_out: f64,
    options: FitOptions,
    /// Starting gammas (default: all 1).
    start: Option<Vec<f64>>,
}

/// Reads, shuffles and splits the games, extracts both sets with `features`, fits by MM with
/// Coulom's prior and evaluates the held-out games after every iteration. Returns the gammas
/// and the report.
fn fit_and_report(features: &dyn FeatureSet, plan: &FitPlan) -> Result<(Vec<f64>, TrainReport)> {
    let start = Instant::now();
    let threads = plan.options.threads;
    if !(plan.held_out > 0.0 && plan.held_out < 1.0) {
        return fail("--validation must be in (0, 1): the report needs held-out games");
    }
    let mut games = read_games(plan.data)?;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(plan.seed);
    games.shuffle(&mut rng);
    if let Some(max) = plan.data.max_games {
        games.truncate(max);
    }
    let n_val = (games.len() as f64 * plan.held_out).round() as usize;
    let (val_games, train_games) = games.split_at(n_val);
    let train_refs: Vec<&TrainGame> = train_games.iter().collect();
    let val_refs: Vec<&TrainGame> = val_games.iter().collect();
    tracing::info!(
        "{} training games, {} held-out games, features {}",
        train_refs.len(),
        val_refs.len(),
        features.id()
    );

    let t = Instant::now();
    let progress = bar(games.len(), "extracting");
    let (train_set, skipped_t) = extract_features(features, &train_refs, threads, &progress);
    let (val_set, skipped_v) = extract_features(features, &val_refs, threads, &progress);
    progress.finish_and_clear();
    let extraction_seconds = t.elapsed().as_secs_f64();
    let positions = train_set.n_competitions() + val_set.n_competitions();
    eprintln!(
        "extracted {} training and {} held-out positions ({} teams, {} entries) in {:.1}s",
        train_set.n_competitions(),
        val_set.n_competitions(),
        train_set.n_teams(),
        train_set.n_entries(),
        extraction_seconds
    );

    let files = file_names(&plan.data.files());
    if train_set.n_competitions() == 0 {
        return fail(format!(
            "{files}: no positions to train on ({} games read): nothing written",
            games.len()
        ));
    }
    if val_set.n_competitions() == 0 {
        return fail(format!(
            "{files}: no validation positions ({} games, --validation {}): add games or raise \
             --validation; nothing written",
            games.len(),
            plan.held_out
        ));
    }

    let uniform =
        Quality::from_metrics(&val_set.evaluate(&vec![1.0; val_set.n_features()], threads));
    let mut gammas = match &plan.start {
        Some(start) => start.clone(),
        None => vec![1.0; train_set.n_features()],
    };
    let t = Instant::now();
    let progress = bar(plan.options.max_sweeps, "fitting");
    let mut sweeps = Vec::new();
    train_set.fit(&mut gammas, Prior::COULOM, &plan.options, |s, g| {
        let validation = Quality::from_metrics(&val_set.evaluate(g, threads));
        progress.inc(1);
        progress.set_message(format!("val {:.4}", validation.mean_log_evidence));
        tracing::info!(
            "sweep {}: train {:.5}/stone, validation {:.5}/stone, top-1 {:.4}, top-5 {:.4}",
            s.sweep,
            s.mean_log_likelihood,
            validation.mean_log_evidence,
            validation.top1,
            validation.top5
        );
        sweeps.push(SweepRecord {
            sweep: s.sweep,
            train_mean_log_likelihood: s.mean_log_likelihood,
            train_log_posterior: s.log_posterior,
            validation,
            seconds: t.elapsed().as_secs_f64(),
        });
        true
    });
    progress.finish_and_clear();
    let fit_seconds = t.elapsed().as_secs_f64();

    let final_validation = Quality::from_metrics(&val_set.evaluate(&gammas, threads));
    let final_train = Quality::from_metrics(&train_set.evaluate(&gammas, threads));
    let updates = train_set.n_competitions() * features.sizes().len() * sweeps.len();
    let report = TrainReport {
        spec: features.id(),
        command: command_line(),
        inputs: plan
            .data
            .files()
            .iter()
            .map(|p| p.display().to_string())
            .collect(),
        seed: plan.seed,
        validation_fraction: plan.held_out,
        threads,
        games_train: train_refs.len(),
        games_validation: val_refs.len(),
        games_skipped: skipped_t + skipped_v,
        positions_train: train_set.n_competitions(),
        positions_validation: val_set.n_competitions(),
        distinct_teams: train_set.n_teams(),
        entries: train_set.n_entries(),
        extraction_seconds,
        extraction_positions_per_second: positions as f64 / extraction_seconds,
        fit_seconds,
        fit_position_updates_per_second: updates as f64 / fit_seconds,
        total_seconds: start.elapsed().as_secs_f64(),
        peak_memory_mib: peak_memory_mib(),
        uniform_validation: uniform,
        final_validation,
        final_train,
        sweeps,
        playout_section: None,
    };
    eprintln!(
        "held out: mean log-evidence {:.4} (uniform {:.4}), top-1 {:.4}, top-5 {:.4}; {} sweeps, {:.0}s total, peak {:.0} MiB",
        final_validation.mean_log_evidence,
        uniform.mean_log_evidence,
        final_validation.top1,
        final_validation.top5,
        report.sweeps.len(),
        report.total_seconds,
        report.peak_memory_mib
    );
    Ok((gammas, report))
}

fn train(args: TrainArgs) -> Result<()> {
    let spec = parse_spec(&args.groups)?;
    let options = FitOptions {
        max_sweeps: args.max_sweeps,
        tolerance: args.tolerance,
        threads: threads(args.data.threads),
        check_every_group: false,
        schedule: if args.cyclic {
            Schedule::Cyclic
        } else {
            Schedule::Greedy
        },
    };
    let source = |report: &TrainReport| {
        format!(
            "liuzi-train {} on {} ({} training games, seed {}, validation {}); command: {}",
            env!("CARGO_PKG_VERSION"),
            file_names(&args.data.files()),
            report.games_train,
            args.seed,
            args.validation,
            command_line()
        )
    };
    let (weights, report) = if args.tree_lines == 0 {
        let plan = FitPlan {
            data: &args.data,
            seed: args.seed,
            held_out: args.validation,
            options,
            start: None,
        };
        let (gammas, report) = fit_and_report(&spec, &plan)?;
        let weights = Gammas::new(spec.clone(), split_gammas(&spec, &gammas), &source(&report))?;
        (weights, report)
    } else {
        train_two_sections(&args, spec, options, source)?
    };
    let report_path = args
        .report
        .unwrap_or_else(|| with_extension(&args.out, ".report.json"));
    let json = serde_json::to_string_pretty(&report).expect("report serialises") + "\n";
    let plot_path = args
        .plot
        .unwrap_or_else(|| with_extension(&args.out, ".curve.svg"));
    let svg = learning_curve_svg(&report);
    // Report and plot first, the weights last, each atomically and with termination signals
    // held off: new weights always come with their report, and no file is ever half-written.
    outputs::commit(|| {
        write_file(&report_path, json.as_bytes())?;
        write_file(&plot_path, svg.as_bytes())?;
        weights.save(&args.out).map_err(|e| e.to_string())
    })?;
    eprintln!(
        "wrote {}, {}, {}",
        args.out.display(),
        report_path.display(),
        plot_path.display()
    );
    Ok(())
}

/// The playout section, then the tree-prior section (docs/patterns.md, gammas) from the playout
/// section's gammas (the tree's other groups and line patterns from 1), fitted jointly on the same
/// split. Two extractions: the playout groups alone make a problem several times smaller and faster
/// to fit, whose likelihood is exactly the tree problem's with the extra gammas at 1.
fn train_two_sections(
    args: &TrainArgs,
    spec: FeatureSpec,
    options: FitOptions,
    source: impl Fn(&TrainReport) -> String,
) -> Result<(Gammas, TrainReport)> {
    let length = args.tree_lines;
    if !TREE_LINE_LENGTHS.contains(&length) {
        return fail(format!(
            "--tree-lines {length}: the tree section takes line patterns of length {}..={} (0: none)",
            TREE_LINE_LENGTHS.start(),
            TREE_LINE_LENGTHS.end()
        ));
    }
    let tree_spec = parse_spec(&args.tree_groups)?;
    if !spec.groups().iter().all(|&g| tree_spec.contains(g)) {
        return fail(format!(
            "--tree-groups must include every playout group (--groups): the tree section is \
             fitted from the playout section's gammas ({} vs {})",
            tree_spec.id(),
            spec.id()
        ));
    }
    let plan = |options: FitOptions, start: Option<Vec<f64>>| FitPlan {
        data: &args.data,
        seed: args.seed,
        held_out: args.validation,
        options,
        start,
    };
    eprintln!("playout section: {}", spec.id());
    let tree_sweeps = FitOptions {
        max_sweeps: args.tree_sweeps,
        ..options.clone()
    };
    let (playout, playout_report) = fit_and_report(&spec, &plan(options, None))?;
    let playout_values = split_gammas(&spec, &playout);

    let uniform = TreeModel::uniform(tree_spec.clone(), length);
    let features = tree_features(&uniform);
    let mut start = flat_tree_gammas(&uniform);
    let offsets = liuzi_tools::bt_train::extract::offsets(&tree_spec);
    for (g, values) in spec.groups().iter().zip(&playout_values) {
        let k = tree_spec
            .groups()
            .iter()
            .position(|t| t == g)
            .expect("checked");
        let o = offsets[k] as usize;
        start[o..o + values.len()].copy_from_slice(values);
    }
    eprintln!("tree section: {}", features.id());
    let (tree, mut report) = fit_and_report(&features, &plan(tree_sweeps, Some(start)))?;

    let text = source(&report);
    let group_end: usize = tree_spec.groups().iter().map(|g| g.size()).sum();
    let tree_groups = Gammas::new(
        tree_spec.clone(),
        split_gammas(&tree_spec, &tree[..group_end]),
        &text,
    )?;
    let per_line = line_values(length);
    let lines: Vec<Vec<f64>> = (0..4)
        .map(|d| tree[group_end + d * per_line..group_end + (d + 1) * per_line].to_vec())
        .collect();
    let tree_model = TreeModel::new(tree_groups, length, lines)?;
    let weights = Gammas::new(spec, playout_values, &text)?.with_tree(tree_model);
    report.total_seconds += playout_report.total_seconds;
    report.peak_memory_mib = peak_memory_mib();
    report.playout_section = Some(SectionReport {
        spec: playout_report.spec,
        sweeps: playout_report.sweeps.len(),
        fit_seconds: playout_report.fit_seconds,
        final_validation: playout_report.final_validation,
        final_train: playout_report.final_train,
    });
    Ok((weights, report))
}

/// A feature set by name: `l6`, `l7`, `l8`, `l8l7` (the paper's), `ours` (the engine's full
/// spec), `ours7` (the seven groups of the shipped weights), a candidate of [`Candidate`], or several
/// joined by `+`.
fn feature_set(name: &str) -> Result<Box<dyn FeatureSet>> {
    let mut parts: Vec<Box<dyn FeatureSet>> = Vec::new();
    for part in name.split('+') {
        let part = part.trim();
        if part == "ours" {
            parts.push(Box::new(FeatureSpec::full()));
        } else if part == "ours7" {
            // The seven groups of the shipped weights (all but `cross`).
            parts.push(Box::new(FeatureSpec::shipped()));
        } else if let Some(lp) = LinePatterns::named(part) {
            parts.push(Box::new(lp));
        } else if let Some(c) = Candidate::named(part) {
            parts.push(Box::new(c));
        } else {
            return fail(format!(
                "unknown feature set `{part}` (known: ours, ours7, {}, {})",
                LinePatterns::NAMES.join(", "),
                Candidate::NAMES.join(", ")
            ));
        }
    }
    Ok(if parts.len() == 1 {
        parts.pop().expect("one part")
    } else {
        Box::new(Combined(parts))
    })
}

fn paper(args: PaperArgs) -> Result<()> {
    let features = feature_set(&args.set)?;
    let plan = FitPlan {
        data: &args.data,
        seed: args.seed,
        held_out: args.test,
        options: FitOptions {
            max_sweeps: args.iterations,
            // A fixed number of iterations, as in the paper.
            tolerance: 0.0,
            threads: threads(args.data.threads),
            check_every_group: false,
            schedule: Schedule::Cyclic,
        },
        start: None,
    };
    let (_, report) = fit_and_report(&*features, &plan)?;
    println!("iteration train_mean_log_likelihood test_mean_log_evidence test_top1 test_top5");
    for s in &report.sweeps {
        println!(
            "{} {:.4} {:.4} {:.4} {:.4}",
            s.sweep,
            s.train_mean_log_likelihood,
            s.validation.mean_log_evidence,
            s.validation.top1,
            s.validation.top5
        );
    }
    let json = serde_json::to_string_pretty(&report).expect("report serialises") + "\n";
    let svg = learning_curve_svg(&report);
    outputs::commit(|| {
        write_file(&args.report, json.as_bytes())?;
        write_file(&args.plot, svg.as_bytes())
    })?;
    eprintln!("wrote {}, {}", args.report.display(), args.plot.display());
    Ok(())
}

/// Writes `bytes` to `path` atomically (a temporary file in the same directory, then a rename).
fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    use std::io::Write;
    liuzi::artifact::write_atomically(path, |f| f.write_all(bytes))
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// Termination signals (INT, TERM, HUP) while the outputs are written: a signal during the
/// long computation ends the process at once (nothing written yet), one during the writes waits
/// for them to finish, so a kill leaves the old files or the whole new set, never a 0-byte
/// report or a stray temporary file.
mod outputs {
    use std::sync::atomic::{AtomicU8, Ordering};

    const RUNNING: u8 = 0;
    const WRITING: u8 = 1;
    const STOP_AFTER_WRITING: u8 = 2;
    const STOPPING: u8 = 3;
    static STATE: AtomicU8 = AtomicU8::new(RUNNING);
    /// Exit status of a process ended by a termination signal (128 + SIGINT, as shells report).
    const SIGNALLED: i32 = 130;

    /// Installs the handler; call once, before the work starts.
    pub fn guard() {
        let installed = ctrlc::set_handler(|| {
            match STATE.compare_exchange(RUNNING, STOPPING, Ordering::SeqCst, Ordering::SeqCst) {
                Ok(_) => std::process::exit(SIGNALLED),
                Err(_) => STATE.store(STOP_AFTER_WRITING, Ordering::SeqCst),
            }
        });
        if let Err(e) = installed {
            tracing::warn!(
                "no signal handler ({e}): a kill while writing may leave a temporary file"
            );
        }
    }

    /// Runs `write` with termination signals held off; exits afterwards if one came meanwhile.
    pub fn commit<T>(write: impl FnOnce() -> T) -> T {
        if STATE
            .compare_exchange(RUNNING, WRITING, Ordering::SeqCst, Ordering::SeqCst)
            .is_err()
        {
            // The handler is ending the process: write nothing.
            loop {
                std::thread::park();
            }
        }
        let result = write();
        if STATE.swap(RUNNING, Ordering::SeqCst) == STOP_AFTER_WRITING {
            eprintln!("liuzi-train: stopped by a signal after writing its outputs");
            std::process::exit(SIGNALLED);
        }
        result
    }
}

fn load_games_limited(data: &DataArgs) -> Result<Vec<TrainGame>> {
    let mut games = read_games(data)?;
    if let Some(max) = data.max_games {
        games.truncate(max);
    }
    Ok(games)
}

fn eval(args: EvalArgs) -> Result<()> {
    let t = Instant::now();
    let weights = Gammas::load(&args.weights).map_err(|e| e.to_string())?;
    let load_ms = t.elapsed().as_secs_f64() * 1000.0;
    // What the engine pays at start-up: the weights, the shape tables and a first board.
    let first_board = liuzi::policy::PolicyBoard::new(
        &liuzi::rules::Board::standard(),
        std::sync::Arc::new(weights.clone()),
    );
    let startup_ms = t.elapsed().as_secs_f64() * 1000.0;
    drop(first_board);
    let threads = threads(args.data.threads);
    let games = load_games_limited(&args.data)?;
    let refs: Vec<&TrainGame> = games.iter().collect();
    let progress = bar(refs.len(), "extracting");
    let (set, skipped) = extract(weights.spec(), &refs, threads, &progress);
    progress.finish_and_clear();
    if set.n_competitions() == 0 {
        return fail(format!(
            "{}: no positions to evaluate ({} games read)",
            file_names(&args.data.files()),
            games.len()
        ));
    }
    let fitted = Quality::from_metrics(&set.evaluate(&flat_gammas(&weights), threads));
    let uniform = Quality::from_metrics(&set.evaluate(&vec![1.0; set.n_features()], threads));
    drop(set);
    // The tree-prior section, on the same positions with its own features.
    let tree = match weights.tree() {
        None => None,
        Some(tree) => {
            let features = tree_features(tree);
            let progress = bar(refs.len(), "tree");
            let (set, _) = extract_features(&features, &refs, threads, &progress);
            progress.finish_and_clear();
            Some(Quality::from_metrics(
                &set.evaluate(&flat_tree_gammas(tree), threads),
            ))
        }
    };
    eprintln!(
        "{}: {} games ({} skipped), {} positions; weights loaded in {:.1} ms, first policy board \
         (with the shape tables) ready after {:.1} ms",
        args.weights.display(),
        games.len(),
        skipped,
        fitted.positions,
        load_ms,
        startup_ms
    );
    eprintln!(
        "uniform: mean log-evidence {:.4}, top-1 {:.4}, top-5 {:.4}",
        uniform.mean_log_evidence, uniform.top1, uniform.top5
    );
    eprintln!(
        "playout section: mean log-evidence {:.4}, top-1 {:.4}, top-5 {:.4}",
        fitted.mean_log_evidence, fitted.top1, fitted.top5
    );
    if let Some(t) = &tree {
        eprintln!(
            "tree section: mean log-evidence {:.4}, top-1 {:.4}, top-5 {:.4}",
            t.mean_log_evidence, t.top1, t.top5
        );
    }
    // `mean_log_evidence`, `top1`, `top5`: the tree priors (the tree section, else the only one).
    let prior = tree.unwrap_or(fitted);
    let line = serde_json::json!({
        "weights": args.weights.display().to_string(),
        "games": games.len(),
        "positions": fitted.positions,
        "mean_log_evidence": prior.mean_log_evidence,
        "top1": prior.top1,
        "top5": prior.top5,
        "playout_mean_log_evidence": fitted.mean_log_evidence,
        "playout_top1": fitted.top1,
        "playout_top5": fitted.top5,
        "uniform_mean_log_evidence": uniform.mean_log_evidence,
        "uniform_top1": uniform.top1,
        "uniform_top5": uniform.top5,
    });
    println!("{line}");
    Ok(())
}

fn group_names(spec: &FeatureSpec) -> Vec<String> {
    spec.groups().iter().map(|g| g.name().to_string()).collect()
}

fn export_mm(args: ExportArgs) -> Result<()> {
    let spec = parse_spec(&args.groups)?;
    let games = load_games_limited(&args.data)?;
    let refs: Vec<&TrainGame> = games.iter().collect();
    let progress = bar(refs.len(), "extracting");
    let (set, _) = extract(&spec, &refs, threads(args.data.threads), &progress);
    progress.finish_and_clear();
    let file =
        std::fs::File::create(&args.out).map_err(|e| format!("{}: {e}", args.out.display()))?;
    let mut out = std::io::BufWriter::new(file);
    mm::write_mm(&set, &group_names(&spec), &mut out)
        .map_err(|e| format!("{}: {e}", args.out.display()))?;
    eprintln!(
        "wrote {} positions to {}",
        set.n_competitions(),
        args.out.display()
    );
    Ok(())
}

fn run_mm(args: MmArgs) -> Result<()> {
    let text = std::fs::read_to_string(&args.input)
        .map_err(|e| format!("{}: {e}", args.input.display()))?;
    let (problem, _) = mm::read_mm(&text).map_err(|e| format!("{}: {e}", args.input.display()))?;
    let mut gammas = vec![1.0; problem.n_features()];
    let options = FitOptions {
        tolerance: args.tolerance,
        threads: threads(args.threads),
        ..FitOptions::default()
    };
    problem.fit(&mut gammas, Prior::COULOM, &options, |s, _| {
        eprintln!(
            "sweep {}: mean log-likelihood {:.6}",
            s.sweep, s.mean_log_likelihood
        );
        true
    });
    let mut out: Box<dyn std::io::Write> = match &args.output {
        Some(p) => Box::new(std::fs::File::create(p).map_err(|e| format!("{}: {e}", p.display()))?),
        None => Box::new(std::io::stdout().lock()),
    };
    mm::write_ratings(&gammas, &mut out).map_err(|e| e.to_string())
}

fn import_ratings(args: ImportArgs) -> Result<()> {
    let spec = parse_spec(&args.groups)?;
    let n = empty_problem(&spec).n_features();
    let text = std::fs::read_to_string(&args.ratings)
        .map_err(|e| format!("{}: {e}", args.ratings.display()))?;
    let flat =
        mm::read_ratings(&text, n).map_err(|e| format!("{}: {e}", args.ratings.display()))?;
    let source = format!(
        "imported from {} by: {}",
        args.ratings.display(),
        command_line()
    );
    let weights = Gammas::new(spec.clone(), split_gammas(&spec, &flat), &source)?;
    weights.save(&args.out).map_err(|e| e.to_string())
}

fn plot(args: PlotArgs) -> Result<()> {
    let text = std::fs::read_to_string(&args.report)
        .map_err(|e| format!("{}: {e}", args.report.display()))?;
    let report: TrainReport =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", args.report.display()))?;
    std::fs::write(&args.out, learning_curve_svg(&report))
        .map_err(|e| format!("{}: {e}", args.out.display()))
}

fn main() {
    let cli = Cli::parse();
    liuzi_tools::stderr_log::init(cli.verbose);
    let result = match cli.command {
        Command::Train(a) => {
            outputs::guard();
            train(a)
        }
        Command::Eval(a) => eval(a),
        Command::ExportMm(a) => export_mm(a),
        Command::Mm(a) => run_mm(a),
        Command::ImportRatings(a) => import_ratings(a),
        Command::Plot(a) => plot(a),
        Command::Paper(a) => {
            outputs::guard();
            paper(a)
        }
    };
    if let Err(message) = result {
        eprintln!("liuzi-train: {message}");
        std::process::exit(1);
    }
}
