//! Speed of the incremental policy board: per-stone play + undo, BT playout steps (sample + play),
//! and loading the shipped weights. Run: `cargo bench -p liuzi-tools --bench policy`.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use liuzi::policy::{Gammas, PolicyBoard};
use liuzi::rules::{Board, Point};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::path::Path;
use std::sync::Arc;

const WEIGHTS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../engine-config/default.weights"
);
const GAMES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../shared/data/littlegolem-experts.games"
);

fn gammas() -> Arc<Gammas> {
    Arc::new(Gammas::load(Path::new(WEIGHTS)).unwrap_or_else(|e| {
        eprintln!("{e}; benchmarking with uniform gammas");
        Gammas::uniform()
    }))
}

/// Expert games (first 200) if the data is there, else one seeded random 120-stone game.
fn games() -> Vec<Vec<Point>> {
    match liuzi::records::read_file(Path::new(GAMES)) {
        Ok(games) => games.into_iter().take(200).map(|g| g.stones).collect(),
        Err(_) => {
            let mut b = Board::standard();
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
            let pb = PolicyBoard::new(&b, Arc::new(Gammas::uniform()));
            let mut pb = pb;
            while b.stone_count() < 120 && !b.is_over() {
                let p = pb.sample(&mut rng).unwrap();
                pb.play(p).unwrap();
                b.play(p).unwrap();
            }
            vec![b.history().to_vec()]
        }
    }
}

fn play_undo(c: &mut Criterion) {
    let gammas = gammas();
    let games = games();
    let stones: usize = games.iter().map(Vec::len).sum();
    let mut group = c.benchmark_group("policy_board");
    group.throughput(Throughput::Elements(stones as u64));
    let mut pb = PolicyBoard::new(&Board::standard(), gammas.clone());
    group.bench_function("play+undo every stone of 200 expert games", |b| {
        b.iter(|| {
            for game in &games {
                for &p in game {
                    pb.play(p).unwrap();
                }
                for _ in game {
                    pb.undo();
                }
            }
        })
    });

    // A BT playout: from an expert middle-game position, sample and play 100 stones (or to the
    // end), then undo them.
    let start: Vec<Point> = games[0].iter().copied().take(20).collect();
    let mut base = PolicyBoard::new(&Board::standard(), gammas.clone());
    for &p in &start {
        base.play(p).unwrap();
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    group.throughput(Throughput::Elements(100));
    group.bench_function("playout: 100 x (sample + play), then undo", |b| {
        b.iter(|| {
            let mut n = 0;
            while n < 100 && !base.board().is_over() {
                let p = base.sample(&mut rng).unwrap();
                base.play(p).unwrap();
                n += 1;
            }
            for _ in 0..n {
                base.undo();
            }
        })
    });
    group.throughput(Throughput::Elements(1));
    group.bench_function("clone", |b| {
        b.iter_batched(|| (), |_| base.clone(), BatchSize::SmallInput)
    });
    group.finish();
}

fn load(c: &mut Criterion) {
    if !Path::new(WEIGHTS).exists() {
        return;
    }
    c.bench_function("Gammas::load(engine-config/default.weights)", |b| {
        b.iter(|| Gammas::load(Path::new(WEIGHTS)).unwrap())
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = play_undo, load
}
criterion_main!(benches);
