//! Playouts per second with the playout cut-off (`search.playout_cutoff`) against full
//! playouts, on the `liuzi bench` positions with the shipped weights and evaluator:
//! `cargo run --release --example cutoff_bench -- [PLAYOUTS] [CUTOFF ...]`
//! (defaults: 2000 playouts per position; cut-offs 0 = full, 40, 20, 10). One thread.

use liuzi::bench::search::{bench_params, bench_positions, process_cpu_seconds};
use liuzi::eval::Evaluator;
use liuzi::search::{Limits, PolicyFactory, Search};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let playouts: u64 = args.first().map_or(2000, |a| a.parse().expect("playouts"));
    let cutoffs: Vec<u32> = if args.len() > 1 {
        args[1..]
            .iter()
            .map(|a| a.parse().expect("cut-off"))
            .collect()
    } else {
        vec![0, 40, 20, 10]
    };
    let factory = PolicyFactory::load(Path::new("engine-config/default.weights"))
        .unwrap_or_else(|e| panic!("{e}"));
    let evaluator = Arc::new(
        Evaluator::load(Path::new("engine-config/default.eval")).unwrap_or_else(|e| panic!("{e}")),
    );
    for cutoff in cutoffs {
        let mut params = bench_params(1);
        params.playouts_per_stone = Some(playouts);
        params.playout_cutoff = cutoff;
        params.solver.enabled = false;
        let mut search = Search::new(params, factory.clone());
        search.set_evaluator(Some(Arc::clone(&evaluator)));
        let (mut total, mut best) = (0u64, Vec::new());
        let cpu_start = process_cpu_seconds();
        let start = Instant::now();
        for board in bench_positions() {
            search.clear();
            let o = search
                .think(&board, &Limits::default())
                .expect("bench positions are not over");
            total += o.playouts;
            best.push(liuzi::notation::format_gtp(o.best));
        }
        let seconds = start.elapsed().as_secs_f64();
        let cpu = process_cpu_seconds()
            .zip(cpu_start)
            .map(|(end, begin)| end - begin);
        let per_cpu = cpu.map(|c| total as f64 / c.max(1e-9));
        println!(
            "cut-off {cutoff:>3}: {total} playouts in {seconds:.2} s ({:.0}/s wall, {} per CPU-second); best {}",
            total as f64 / seconds,
            per_cpu.map_or("?".to_string(), |v| format!("{v:.0}")),
            best.join(" ")
        );
        println!(
            "{}",
            serde_json::json!({
                "playout_cutoff": cutoff,
                "playouts": total,
                "seconds": seconds,
                "playouts_per_second": total as f64 / seconds,
                "cpu_seconds": cpu,
                "playouts_per_cpu_second": per_cpu,
            })
        );
    }
}
