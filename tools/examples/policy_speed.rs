//! CPU-time companion to `benches/policy.rs` for a busy shared machine: replays expert games on a
//! `PolicyBoard` (play every stone, then undo every stone) and runs BT playouts, reporting wall and
//! CPU time per stone. `cargo run --release -p liuzi-tools --example policy_speed`.

use liuzi::policy::{Gammas, PolicyBoard};
use liuzi::rules::Board;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

/// User + system CPU seconds of this process (Linux /proc; clock ticks of 1/100 s).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after = stat.rsplit(')').next().unwrap_or("");
    let f: Vec<f64> = after
        .split_whitespace()
        .map(|w| w.parse().unwrap_or(0.0))
        .collect();
    // Fields 14 and 15 of the file are the 12th and 13th after the command name.
    (f.get(11).unwrap_or(&0.0) + f.get(12).unwrap_or(&0.0)) / 100.0
}

fn measure(label: &str, stones: usize, f: impl FnOnce()) {
    let (w, c) = (Instant::now(), cpu_seconds());
    f();
    let (wall, cpu) = (w.elapsed().as_secs_f64(), cpu_seconds() - c);
    println!(
        "{label}: {stones} stones, {:.3} us wall, {:.3} us CPU per stone",
        wall * 1e6 / stones as f64,
        cpu * 1e6 / stones as f64
    );
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let gammas =
        Arc::new(Gammas::load(&root.join("engine-config/default.weights")).expect("weights"));
    let games = liuzi::records::read_file(&root.join("../shared/data/littlegolem-experts.games"))
        .expect("games");
    let games: Vec<_> = games.into_iter().take(2000).map(|g| g.stones).collect();
    let stones: usize = games.iter().map(Vec::len).sum();
    let mut pb = PolicyBoard::new(&Board::standard(), gammas.clone());
    let rounds = 5;
    measure("play + undo, expert games", stones * rounds, || {
        for _ in 0..rounds {
            for game in &games {
                for &p in game {
                    pb.play(p).unwrap();
                }
                for _ in game {
                    pb.undo();
                }
            }
        }
    });
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let mut played = 0;
    let mut playouts = 0;
    let start = Instant::now();
    measure("playout step (sample + play + undo)", 0, || {});
    let (w, c) = (Instant::now(), cpu_seconds());
    for game in games.iter().take(400) {
        for &p in game.iter().take(20) {
            pb.play(p).unwrap();
        }
        let base = pb.board().stone_count();
        while !pb.board().is_over() && pb.board().stone_count() < base + 120 {
            let p = pb.sample(&mut rng).unwrap();
            pb.play(p).unwrap();
            played += 1;
        }
        playouts += 1;
        while pb.board().stone_count() > 0 {
            pb.undo();
        }
    }
    let (wall, cpu) = (w.elapsed().as_secs_f64(), cpu_seconds() - c);
    println!(
        "playouts from expert positions (20 stones in, up to 120 sampled stones): {playouts} playouts, \
         {played} sampled stones, {:.3} us wall / {:.3} us CPU per sampled stone (sample + play + undo), \
         {:.0} playouts/s of CPU",
        wall * 1e6 / played as f64,
        cpu * 1e6 / played as f64,
        playouts as f64 / cpu
    );
    let _ = start;
}
