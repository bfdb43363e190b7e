//! `liuzi bench search` (and plain `liuzi bench`): fixed positions, fixed playouts, one fresh
//! search per position.
//!
//! Prints playouts per second and a signature of the search's behaviour (Stockfish's habit):
//! with one thread the search is deterministic, so the signature (a hash of every position's
//! tree size, root visits and chosen stone) changes only when search behaviour changes. The
//! expected value is kept in `src/bench/search.signature` and checked by a test; a commit
//! that changes behaviour updates that file.

use super::cpu_seconds;
use crate::eval::Evaluator;
use crate::notation::{format_gtp, parse_gtp};
use crate::policy::Gammas;
use crate::rules::Board;
use crate::search::common::SolverParams;
use crate::search::mcts::SearchParams;
use crate::search::proximity_gammas;
use crate::search::{Limits, PolicyFactory, PositionFactory, Search};
use std::fmt::Write as _;
use std::path::Path;
use std::sync::Arc;
use web_time::Instant;

/// The bench positions (GTP vertices, 19x19): the opening stone, then positions from
/// self-play of the search (1,500 playouts a stone), none decided yet.
const POSITIONS: &[&str] = &[
    "K10",
    "K10 J11 L9 K9 J8 L11 M9 K7 H9",
    "K10 J11 L10 L9 J9 J8 J10 H11 K12 L11 J12 L12 K9 M11 M9 N11 J13",
    "K10 K11 L9 M11 L12 M12 N11 N10 K9 N12 J11 J9 H9 H10 K12 J8 L10",
    "K10 J11 L9 K9 J8 L11 M9 K7 H9 H8 M10 L8 M8 J10 K11 M7 K6 K8 L7 H7 L10 M11 G6 H11 N11",
    "K10 L11 L10 M10 K11 M12 N12 N11 J10 J9 K8 J11 K9 H9 L8 M11 L12 M8 K7 H8 L13 N9 L7 L9 H10",
    "K10 J11 L9 K9 J8 L11 M9 K7 H9 H8 M10 L8 M8 J10 K11 M7 K6 K8 L7 H7 L10 M11 G6 H11 N11 H6 J6 \
     J7 N8 K5 G7 J5 G8",
    "K10 K11 L9 M11 L12 M12 N11 N10 K9 N12 J11 J9 H9 H10 K12 J8 L10 H7 H11 M9 K7 L8 L11 G11 K13 \
     O9 J14 M10 K8 O10 K6 H12 L13",
];

/// Playouts per bench position.
pub const BENCH_PLAYOUTS: u64 = 5_000;

/// The seed of the bench's searches.
pub const BENCH_SEED: u64 = 0x6C69_757A_6936;

/// The signature `liuzi bench --threads 1` must print (see the module docs).
pub const EXPECTED_SIGNATURE: &str = include_str!("search.signature");

#[derive(Clone, Debug, PartialEq)]
pub struct BenchReport {
    pub threads: usize,
    pub positions: usize,
    pub playouts: u64,
    pub seconds: f64,
    pub playouts_per_second: f64,
    /// CPU time of the whole process over the bench (Linux only): on a busy machine
    /// `playouts / cpu_seconds` per thread is the fairer speed.
    pub cpu_seconds: Option<f64>,
    /// Tree edges over all positions.
    pub nodes: u64,
    /// Hex hash of tree sizes, root visits and chosen stones (reproducible with 1 thread).
    pub signature: String,
    /// Human-readable lines, one per position, then the totals and the JSON line.
    pub text: String,
}

/// The bench positions as boards.
pub fn bench_positions() -> Vec<Board> {
    POSITIONS
        .iter()
        .map(|line| {
            let mut b = Board::standard();
            for v in line.split_whitespace() {
                let p = parse_gtp(v, 19).expect("bench vertex");
                b.play(p).expect("bench move");
            }
            b
        })
        .collect()
}

/// The bench's search parameters: defaults, fixed playouts, no early stop, no reuse, and no
/// threat solver (it proves most bench positions won at once; `liuzi bench solver` times it).
pub fn bench_params(threads: usize) -> SearchParams {
    SearchParams {
        threads,
        seed: BENCH_SEED,
        playouts: BENCH_PLAYOUTS,
        early_stop: false,
        reuse_tree: false,
        max_nodes: 4 << 20,
        tactics: SolverParams {
            solver: false,
            ..SolverParams::default()
        },
        ..SearchParams::default()
    }
}

/// The engine's default knowledge: Bradley-Terry with the shipped weights (their copy built into
/// the binary, so the bench measures the default wherever it runs), tree priors as deep as the
/// default `search.tree_prior_plies`.
pub fn default_knowledge() -> PolicyFactory {
    let shipped = crate::artifact::shipped("default.weights").expect("the weights are embedded");
    let gammas = Gammas::parse(shipped)
        .expect("the shipped engine-config/default.weights is valid (checked by the bench test)");
    PolicyFactory::new(Arc::new(gammas))
        .with_tree_prior_plies(SearchParams::default().tree_prior_plies)
}

/// The engine's default evaluator (the built-in copy of `engine-config/default.eval`): the search
/// values its leaves with it (`search.value_mix`).
pub fn default_evaluator() -> Evaluator {
    let shipped = crate::artifact::shipped("default.eval").expect("the evaluator is embedded");
    Evaluator::parse(shipped)
        .expect("the shipped engine-config/default.eval is valid (checked by the bench test)")
}

/// Runs the bench with the engine's default knowledge (the shipped weights and evaluator).
pub fn run_bench(threads: usize) -> BenchReport {
    run_bench_with_evaluator(
        default_knowledge(),
        bench_params(threads),
        Some(Arc::new(default_evaluator())),
    )
}

/// What `liuzi bench search` may change: the command line's `--threads`, `--playouts`,
/// `--playout-cutoff`, `--value-mix`, `--weights` and `--evaluator` (`None`: the bench's own
/// values, the shipped files built in). Only the defaults give the recorded signature.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchBenchOptions {
    pub threads: Option<usize>,
    pub playouts: Option<u64>,
    pub cutoff: Option<u32>,
    /// `search.value_mix` (λ); 1 values the leaves without playouts.
    pub value_mix: Option<f32>,
    pub weights: Option<std::path::PathBuf>,
    pub evaluator: Option<std::path::PathBuf>,
    /// `search.tree_prior_plies` of the configuration (0, the default, keeps the signature):
    /// how deep a weights file's tree section gives the priors.
    pub tree_prior_plies: u32,
}

/// Runs the bench as `options` ask; a weights or evaluator file that cannot be used is an error
/// naming it, and `"none"` selects the fallback knowledge or no evaluator.
pub fn run_search_bench(options: &SearchBenchOptions) -> Result<BenchReport, String> {
    let mut params = bench_params(options.threads.unwrap_or(1).max(1));
    if let Some(n) = options.playouts.filter(|&n| n > 0) {
        params.playouts = n;
    }
    if let Some(cutoff) = options.cutoff {
        params.playout_cutoff = cutoff;
    }
    if let Some(lambda) = options.value_mix {
        params.value_mix = lambda;
    }
    params.validate()?;
    let is_none = |p: &Path| p.as_os_str() == "none";
    let factory = match options.weights.as_deref() {
        None => default_knowledge(),
        Some(p) if is_none(p) => PolicyFactory::new(Arc::new(proximity_gammas())),
        Some(p) => PolicyFactory::load(p).map_err(|e| e.to_string())?,
    }
    .with_tree_prior_plies(options.tree_prior_plies);
    let evaluator = match options.evaluator.as_deref() {
        None => Some(Arc::new(default_evaluator())),
        Some(p) if is_none(p) => None,
        Some(p) => Some(Arc::new(Evaluator::load(p).map_err(|e| e.to_string())?)),
    };
    Ok(run_bench_with_evaluator(factory, params, evaluator))
}

/// Runs the bench with any position factory and parameters, without an evaluator.
pub fn run_bench_with<F: PositionFactory>(factory: F, params: SearchParams) -> BenchReport {
    run_bench_with_evaluator(factory, params, None)
}

/// Runs the bench with any position factory, parameters and evaluator.
pub fn run_bench_with_evaluator<F: PositionFactory>(
    factory: F,
    params: SearchParams,
    evaluator: Option<Arc<Evaluator>>,
) -> BenchReport {
    let threads = params.threads;
    let name = factory.name();
    let mut search = Search::new(params, factory);
    search.set_evaluator(evaluator);
    let mut text = String::new();
    let mut hash = 0xCBF2_9CE4_8422_2325u64;
    let mut mix = |x: u64| {
        for byte in x.to_le_bytes() {
            hash = (hash ^ byte as u64).wrapping_mul(0x0100_0000_01B3);
        }
    };
    let (mut playouts, mut nodes) = (0u64, 0u64);
    let cpu_start = cpu_seconds();
    let start = Instant::now();
    for (i, board) in bench_positions().iter().enumerate() {
        search.clear();
        let o = search
            .think(board, &Limits::default())
            .expect("bench positions are not over");
        playouts += o.playouts;
        nodes += o.nodes;
        mix(o.nodes);
        mix(o.root_visits as u64);
        mix(o.best.index(19) as u64);
        let _ = writeln!(
            text,
            "position {:2} ({:2} stones): {} playouts, {:.0}/s, nodes {}, best {}",
            i + 1,
            board.stone_count(),
            o.playouts,
            o.playouts_per_second(),
            o.nodes,
            format_gtp(o.best)
        );
    }
    let seconds = start.elapsed().as_secs_f64();
    let cpu_seconds = cpu_seconds().zip(cpu_start).map(|(end, begin)| end - begin);
    let pps = playouts as f64 / seconds.max(1e-9);
    let signature = format!("{hash:016x}");
    let per_cpu = cpu_seconds
        .filter(|&c| c > 0.0)
        .map(|c| playouts as f64 / c);
    let _ = writeln!(
        text,
        "positions {}, knowledge {name}, threads {threads}, playouts {playouts}, nodes {nodes}, \
         {seconds:.3} s, {pps:.0} playouts/s{}, signature {signature}",
        POSITIONS.len(),
        per_cpu.map_or(String::new(), |v| format!(
            " ({v:.0} per CPU-second over {:.3} CPU-s)",
            cpu_seconds.unwrap_or(0.0)
        ))
    );
    let json = serde_json::json!({
        "bench": "search",
        "playouts": playouts,
        "seconds": seconds,
        "playouts_per_second": pps,
        "signature": signature,
        "nodes": nodes,
        "threads": threads,
        "knowledge": name,
        "cpu_seconds": cpu_seconds,
        "playouts_per_cpu_second": per_cpu,
    });
    let _ = writeln!(text, "{json}");
    BenchReport {
        threads,
        positions: POSITIONS.len(),
        playouts,
        seconds,
        playouts_per_second: pps,
        cpu_seconds,
        nodes,
        signature,
        text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_signature_matches_the_recorded_one() {
        let report = run_bench(1);
        assert_eq!(report.playouts, BENCH_PLAYOUTS * POSITIONS.len() as u64);
        assert!(report
            .text
            .trim_end()
            .lines()
            .last()
            .unwrap()
            .starts_with('{'));
        assert_eq!(
            report.signature,
            EXPECTED_SIGNATURE.trim(),
            "search behaviour changed: if intended, write the new signature into \
             src/bench/search.signature\n{}",
            report.text
        );
    }
}
