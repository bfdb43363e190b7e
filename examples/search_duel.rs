//! In-process duel between two search configurations at fixed playouts per stone:
//! `cargo run --release --example search_duel -- GAMES PLAYOUTS 'key=value,...' 'key=value,...'`
//! Keys: c_uct, c_bt, bt_k, fpu_reduction, widen_min, widen_factor, widen_exponent, pair_order
//! (both|canonical), expand_visits, max_children, virtual_loss. Openings: Black's centre stone
//! plus two random stones near it (the same for both colour assignments of a game pair).

use liuzi::rules::{Board, GameResult, Point};
use liuzi::search::{proximity_gammas, Limits, PairOrder, PolicyFactory, Search, SearchParams};
use rand::{Rng, SeedableRng};

fn parse(spec: &str, playouts: u64) -> SearchParams {
    let mut p = SearchParams {
        playouts_per_stone: Some(playouts),
        max_nodes: 4 << 20,
        ..SearchParams::default()
    };
    for kv in spec.split(',').filter(|s| !s.is_empty()) {
        let (k, v) = kv.split_once('=').expect("key=value");
        let f = || v.parse::<f32>().expect("number");
        match k {
            "c_uct" => p.c_uct = f(),
            "c_bt" => p.c_bt = f(),
            "bt_k" => p.bt_k = f(),
            "fpu_reduction" => p.fpu_reduction = f(),
            "widen_min" => p.widen_min = f() as u32,
            "widen_factor" => p.widen_factor = f(),
            "widen_exponent" => p.widen_exponent = f(),
            "expand_visits" => p.expand_visits = f() as u32,
            "max_children" => p.max_children = f() as u32,
            "virtual_loss" => p.virtual_loss = f() as u32,
            "pair_order" => {
                p.pair_order = if v == "both" {
                    PairOrder::Both
                } else {
                    PairOrder::Canonical
                }
            }
            _ => panic!("unknown key {k}"),
        }
    }
    p.validate().expect("valid parameters");
    p
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: usize = args[1].parse().unwrap();
    let playouts: u64 = args[2].parse().unwrap();
    let a = parse(&args[3], playouts);
    let b = parse(&args[4], playouts);
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(99);
    let (mut wins, mut losses, mut draws) = (0u32, 0u32, 0u32);
    let mut stones = 0usize;
    for g in 0..games {
        if g % 2 == 0 {
            // New opening for each pair of games.
            rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1000 + g as u64);
        }
        let mut opening_rng = rng.clone();
        let mut board = Board::standard();
        board.play(Point::new(9, 9)).unwrap();
        while board.stone_count() < 3 {
            let q = Point::new(opening_rng.gen_range(7..12), opening_rng.gen_range(7..12));
            let _ = board.play(q);
        }
        let a_is_black = g % 2 == 0;
        let mut sa = Search::new(
            SearchParams {
                seed: g as u64,
                ..a.clone()
            },
            PolicyFactory::new(std::sync::Arc::new(proximity_gammas())),
        );
        let mut sb = Search::new(
            SearchParams {
                seed: g as u64 + 7,
                ..b.clone()
            },
            PolicyFactory::new(std::sync::Arc::new(proximity_gammas())),
        );
        while !board.is_over() {
            let black_to_move = board.to_move() == liuzi::rules::Color::Black;
            let s = if black_to_move == a_is_black {
                &mut sa
            } else {
                &mut sb
            };
            let o = s.think(&board, &Limits::default()).unwrap();
            board.play(o.best).unwrap();
        }
        stones += board.stone_count();
        match board.result() {
            GameResult::Win(c) if (c == liuzi::rules::Color::Black) == a_is_black => wins += 1,
            GameResult::Win(_) => losses += 1,
            _ => draws += 1,
        }
        eprint!(
            "\r{} games: A {wins} - B {losses} - draws {draws}   ",
            g + 1
        );
    }
    let n = (wins + losses + draws) as f64;
    let score = (wins as f64 + 0.5 * draws as f64) / n;
    let var = ((wins as f64) * (1.0 - score).powi(2)
        + (losses as f64) * score.powi(2)
        + (draws as f64) * (0.5 - score).powi(2))
        / n;
    let se = (var / n).sqrt();
    let elo = |s: f64| -400.0 * (1.0 / s.clamp(1e-3, 1.0 - 1e-3) - 1.0).log10();
    eprintln!();
    println!(
        "A [{}] vs B [{}], {playouts} playouts/stone: {wins}-{losses}-{draws}, score {:.3} ± {:.3} (95%), Elo {:+.0} [{:+.0}, {:+.0}], avg {:.0} stones",
        args[3],
        args[4],
        score,
        1.96 * se,
        elo(score),
        elo(score - 1.96 * se),
        elo(score + 1.96 * se),
        stones as f64 / n
    );
}
