use liuzi::search::{PolicyFactory, PositionFactory, SearchPosition, SearchRng, SimpleFactory};
use rand::SeedableRng;
fn run<F: PositionFactory>(f: F) {
    let boards = liuzi::search::bench::bench_positions();
    let mut rng = SearchRng::seed_from_u64(1);
    let (mut stones, mut n) = (0u64, 0u64);
    let t = std::time::Instant::now();
    for b in &boards {
        let root = f.position(b);
        let mut pos = root.clone();
        let mut w = Vec::new();
        for _ in 0..300 {
            pos.clone_from(&root);
            n += 1;
            while !pos.board().is_over() {
                pos.winning_points(&mut w);
                let q = if let Some(&q) = w.first() {
                    q
                } else {
                    pos.blocking_points(&mut w);
                    if let Some(&q) = w.first() {
                        q
                    } else {
                        pos.sample_playout_stone(&mut rng).unwrap()
                    }
                };
                pos.play(q);
                stones += 1;
            }
        }
    }
    let el = t.elapsed().as_secs_f64();
    println!(
        "{}: avg playout {:.1} stones, {:.0} ns/stone, {:.0} playouts/s",
        f.name(),
        stones as f64 / n as f64,
        el * 1e9 / stones as f64,
        n as f64 / el
    );
}
fn main() {
    run(SimpleFactory);
    run(PolicyFactory::new(std::sync::Arc::new(
        liuzi::policy::Gammas::uniform(),
    )));
}
