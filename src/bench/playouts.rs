//! `liuzi bench playouts`: playouts alone (no tree) from the search bench's positions with the
//! shipped weights: stones per second and how the stones were chosen (wins, blocks, roulette
//! draws), to time the playout step apart from the tree.

use super::cpu_seconds;
use super::search::{bench_positions, default_knowledge};
use crate::rules::GameResult;
use crate::search::{PositionFactory, SearchPosition, SearchRng};
use rand::{Rng, SeedableRng};
use web_time::Instant;

/// Plays `per_position` playouts from each bench position; returns the report's lines, the last
/// one JSON.
pub fn run_playout_bench(per_position: u64) -> String {
    let factory = default_knowledge();
    let mut rng = SearchRng::seed_from_u64(1);
    let (mut stones, mut wins, mut blocks, mut draws, mut checksum) =
        (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut scratch = Vec::new();
    let positions = bench_positions();
    let start = Instant::now();
    let cpu_start = cpu_seconds();
    for board in &positions {
        let root = factory.position(board);
        let mut pos = root.clone();
        for _ in 0..per_position {
            pos.clone_from(&root);
            while pos.board().result() == GameResult::Ongoing {
                pos.winning_points(&mut scratch);
                let p = if let Some(&p) = scratch.first() {
                    wins += 1;
                    p
                } else {
                    pos.blocking_points(&mut scratch);
                    if scratch.is_empty() {
                        match pos.sample_playout_stone(&mut rng) {
                            Some(p) => {
                                draws += 1;
                                p
                            }
                            None => break,
                        }
                    } else {
                        blocks += 1;
                        scratch[rng.gen_range(0..scratch.len())]
                    }
                };
                pos.play(p);
                stones += 1;
                checksum = checksum.wrapping_mul(31).wrapping_add(p.index(19) as u64);
            }
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    let cpu = cpu_seconds().zip(cpu_start).map(|(end, begin)| end - begin);
    let playouts = per_position * positions.len() as u64;
    let per_cpu = cpu.filter(|&c| c > 0.0).map(|c| playouts as f64 / c);
    let text = format!(
        "{playouts} playouts, {stones} stones ({:.1} a playout: {wins} wins, {blocks} blocks, \
         {draws} draws), {seconds:.3} s, {:.0} playouts/s, checksum {checksum:016x}\n",
        stones as f64 / playouts.max(1) as f64,
        playouts as f64 / seconds.max(1e-9),
    );
    let json = serde_json::json!({
        "bench": "playouts",
        "playouts": playouts,
        "stones": stones,
        "wins": wins,
        "blocks": blocks,
        "draws": draws,
        "seconds": seconds,
        "playouts_per_second": playouts as f64 / seconds.max(1e-9),
        "cpu_seconds": cpu,
        "playouts_per_cpu_second": per_cpu,
        "checksum": format!("{checksum:016x}"),
    });
    format!("{text}{json}\n")
}
