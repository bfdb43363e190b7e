//! The cost of keeping a [`PolicyBoard`] current, apart from choosing stones: playouts from the
//! bench positions are drawn once with the shipped weights, then replayed stone by stone (restore,
//! play, play, ...) and timed.
//! `cargo run --release --example stone_updates -- [PLAYOUTS_PER_POSITION] [ROUNDS] [STONES_FILE]`
//!
//! With STONES_FILE, the first run writes the drawn stones there and later runs replay them, so
//! two builds (even ones whose weights differ) compare on the same stones.

use liuzi::bench::search::bench_positions;
use liuzi::policy::{Gammas, PolicyBoard};
use liuzi::rules::{GameResult, Point};
use liuzi::search::SearchRng;
use rand::SeedableRng;
use std::sync::Arc;
use std::time::Instant;

const SHIPPED_WEIGHTS: &[u8] = include_bytes!("../engine-config/default.weights");

fn main() {
    let mut args = std::env::args().skip(1);
    let per_position: usize = args.next().map_or(500, |n| n.parse().expect("playouts"));
    let rounds: usize = args.next().map_or(5, |n| n.parse().expect("rounds"));
    let gammas = Arc::new(Gammas::parse(SHIPPED_WEIGHTS).expect("shipped weights"));
    let mut rng = SearchRng::seed_from_u64(1);
    // (root, stones of each playout)
    let mut games: Vec<(PolicyBoard, Vec<Vec<Point>>)> = Vec::new();
    for board in bench_positions() {
        let root = PolicyBoard::new(&board, Arc::clone(&gammas));
        let mut pb = root.clone();
        let mut lines = Vec::with_capacity(per_position);
        for _ in 0..per_position {
            pb.clone_from(&root);
            let mut stones = Vec::new();
            while pb.board().result() == GameResult::Ongoing {
                let wins = pb.winning_points();
                let blocks = pb.blocking_points();
                let p = match wins.iter().next().or_else(|| blocks.iter().next()) {
                    Some(cell) => Point::from_index(cell, pb.board().size()),
                    None => match pb.sample(&mut rng) {
                        Some(p) => p,
                        None => break,
                    },
                };
                pb.play(p).expect("legal stone");
                stones.push(p);
            }
            lines.push(stones);
        }
        games.push((root, lines));
    }
    if let Some(path) = args.next() {
        share_stones(&path, &mut games);
    }
    let total: usize = games.iter().flat_map(|(_, l)| l).map(Vec::len).sum();
    for round in 0..rounds {
        let start = Instant::now();
        for (root, lines) in &games {
            let mut pb = root.clone();
            for stones in lines {
                pb.clone_from(root);
                for &p in stones {
                    pb.play(p).expect("legal stone");
                }
            }
        }
        let ns = start.elapsed().as_nanos() as f64 / total as f64;
        println!("round {round}: {total} stones, {ns:.1} ns/stone");
    }
}

/// Replays the stones in `path` (one playout a line, cell indices) if it exists, else writes the
/// drawn ones there.
fn share_stones(path: &str, games: &mut [(PolicyBoard, Vec<Vec<Point>>)]) {
    let size = 19;
    match std::fs::read_to_string(path) {
        Ok(text) => {
            let mut lines = text.lines();
            for stones in games.iter_mut().flat_map(|(_, l)| l.iter_mut()) {
                let line = lines.next().expect("as many playouts as when written");
                *stones = line
                    .split_whitespace()
                    .map(|c| Point::from_index(c.parse().expect("a cell index"), size))
                    .collect();
            }
        }
        Err(_) => {
            let text: String = games
                .iter()
                .flat_map(|(_, l)| l)
                .map(|stones| {
                    let cells: Vec<String> =
                        stones.iter().map(|p| p.index(size).to_string()).collect();
                    cells.join(" ") + "\n"
                })
                .collect();
            std::fs::write(path, text).expect("stones file written");
        }
    }
}
