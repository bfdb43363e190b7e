//! The search bench with other knowledge or work than `liuzi bench`:
//! `cargo run --release --example search_bench -- THREADS [simple|uniform|WEIGHTS_FILE] [PLAYOUTS]`
//! (`uniform` = the Bradley-Terry policy board with all gammas 1).

use liuzi::bench::search::{bench_params, run_bench_with};
use liuzi::policy::Gammas;
use liuzi::search::{proximity_gammas, PolicyFactory};
use std::sync::Arc;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let threads = args.get(1).map_or(1, |t| t.parse().expect("thread count"));
    let knowledge = args.get(2).map_or("simple", String::as_str);
    let mut params = bench_params(threads);
    if let Some(n) = args.get(3) {
        params.playouts_per_stone = Some(n.parse().expect("playouts"));
    }
    let report = match knowledge {
        "simple" => run_bench_with(PolicyFactory::new(Arc::new(proximity_gammas())), params),
        "uniform" => run_bench_with(PolicyFactory::new(Arc::new(Gammas::uniform())), params),
        path => run_bench_with(
            PolicyFactory::load(std::path::Path::new(path)).unwrap_or_else(|e| panic!("{e}")),
            params,
        ),
    };
    print!("{}", report.text);
}
