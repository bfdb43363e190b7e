//! Playouts alone (no tree) from the bench positions with the shipped weights: stones per
//! second and how the stones were chosen (wins, blocks, roulette draws), to time the playout
//! step apart from the tree.
//! `cargo run --release --example playout_steps -- [PLAYOUTS_PER_POSITION]`

use liuzi::bench::search::{bench_positions, default_knowledge, process_cpu_seconds};
use liuzi::rules::GameResult;
use liuzi::search::{PositionFactory, SearchPosition, SearchRng};
use rand::{Rng, SeedableRng};
use std::time::Instant;

fn main() {
    let per_position: u64 = std::env::args()
        .nth(1)
        .map_or(2_000, |n| n.parse().expect("playouts per position"));
    let factory = default_knowledge();
    let mut rng = SearchRng::seed_from_u64(1);
    let (mut stones, mut wins, mut blocks, mut draws, mut checksum) =
        (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut scratch = Vec::new();
    let start = Instant::now();
    let cpu_start = process_cpu_seconds();
    for board in bench_positions() {
        let root = factory.position(&board);
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
    let cpu = process_cpu_seconds()
        .zip(cpu_start)
        .map_or(seconds, |(end, begin)| end - begin);
    let playouts = per_position * 8;
    println!(
        "{playouts} playouts, {stones} stones ({:.1} a playout: {wins} wins, {blocks} blocks, \
         {draws} draws), {seconds:.3} s, {cpu:.2} CPU-s, {:.2} us a stone per CPU-second, {:.0} \
         playouts per CPU-second, checksum {checksum:016x}",
        stones as f64 / playouts as f64,
        cpu * 1e6 / stones as f64,
        playouts as f64 / cpu
    );
}
