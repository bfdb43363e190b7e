//! The incremental feature and weight tables against from-scratch recomputation after thousands of
//! random stones with undos, and the sampler against the probabilities it claims.

use liuzi::policy::{FeatureBoard, FeatureSpec, Gammas, Group, PolicyBoard};
use liuzi::rules::{Board, Color, Point};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::Arc;

fn random_gammas(seed: u64) -> Arc<Gammas> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let spec = FeatureSpec::full();
    let values = spec
        .groups()
        .iter()
        .map(|g| {
            (0..g.size())
                .map(|_| (rng.gen_range(-3.0f64..3.0)).exp())
                .collect()
        })
        .collect();
    Arc::new(Gammas::new(spec, values, "random test gammas").unwrap())
}

/// Plays random stones near existing ones (so shapes and threats form) with random undos and
/// calls `check` after every step.
fn random_walk(
    size: usize,
    seed: u64,
    steps: usize,
    mut check: impl FnMut(&mut PolicyBoard, &mut Xoshiro256PlusPlus),
) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let gammas = random_gammas(seed);
    let mut pb = PolicyBoard::new(&Board::new(size).unwrap(), gammas);
    for _ in 0..steps {
        let b = pb.board();
        if b.stone_count() > 0
            && (b.is_over() || b.legal_points().next().is_none() || rng.gen_bool(0.3))
        {
            pb.undo().unwrap();
        } else {
            let legal: Vec<Point> = b.legal_points().collect();
            let near: Vec<Point> = legal
                .iter()
                .copied()
                .filter(|p| b.history().iter().any(|s| s.distance(*p) <= 2))
                .collect();
            let pool = if near.is_empty() || rng.gen_bool(0.1) {
                &legal
            } else {
                &near
            };
            let p = pool[rng.gen_range(0..pool.len())];
            pb.play(p).unwrap();
        }
        check(&mut pb, &mut rng);
    }
}

/// `pb`'s draw, weights and total against a board built from scratch for its position.
fn assert_weights_match_scratch(pb: &PolicyBoard, rng: &mut Xoshiro256PlusPlus) {
    let b = pb.board();
    let scratch = PolicyBoard::new(b, pb.gammas().clone());
    // The same draw from the same generator state: the row sums the sampler walks agree too
    // (asked first, before anything else brings the overlay up to date).
    let draw = rng.gen::<u64>();
    assert_eq!(
        pb.sample(&mut Xoshiro256PlusPlus::seed_from_u64(draw)),
        scratch.sample(&mut Xoshiro256PlusPlus::seed_from_u64(draw)),
        "sample after {:?}",
        b.history()
    );
    for p in b.points() {
        assert_eq!(
            pb.weight(p),
            scratch.weight(p),
            "weight of {p:?} after {:?}",
            b.history()
        );
    }
    assert_eq!(pb.total_weight(), scratch.total_weight());
}

#[test]
fn incremental_tables_match_recomputation() {
    for (size, seed) in [(19, 1), (9, 2), (25, 3)] {
        random_walk(size, seed, 1500, |pb, rng| {
            assert_weights_match_scratch(pb, rng);
            let b = pb.board().clone();
            let mut listed = Vec::new();
            pb.for_each_weight(|p, w| listed.push((p, w)));
            let asked: Vec<(Point, f64)> = b
                .legal_points()
                .map(|p| (p, pb.weight(p)))
                .filter(|&(_, w)| w > 0.0)
                .collect();
            assert_eq!(listed, asked);
            assert_eq!(pb.winning_points(), liuzi::patterns::winning_points(&b));
            assert_eq!(pb.blocking_points(), liuzi::patterns::blocking_points(&b));
            for colour in [Color::Black, Color::White] {
                let expected = FeatureBoard::static_values_from_scratch(&b, colour);
                for p in b.legal_points() {
                    let cell = p.index(size);
                    assert_eq!(pb.features().static_values(cell, colour), expected[cell]);
                }
            }
        });
    }
}

#[test]
fn weights_asked_after_several_stones_match_recomputation() {
    // The static weights are refreshed at the first query after a stone: a query after a run of
    // stones and undos refreshes what all of them changed at once.
    for (size, seed) in [(19, 11), (13, 12)] {
        let mut unasked = 0;
        random_walk(size, seed, 3000, |pb, rng| {
            if rng.gen_bool(0.75) {
                unasked += 1;
                return;
            }
            assert_weights_match_scratch(pb, rng);
        });
        assert!(unasked > 1000, "most steps leave the weights unasked");
    }
}

#[test]
fn clone_from_copies_the_whole_incremental_state() {
    // A copy kept from an earlier position and refreshed with `clone_from` (as the search does
    // after every playout) answers like the original, and keeps playing like it.
    let mut copy: Option<PolicyBoard> = None;
    random_walk(13, 7, 600, |pb, rng| {
        let Some(c) = copy.as_mut() else {
            copy = Some(pb.clone());
            return;
        };
        if !rng.gen_bool(0.2) {
            return;
        }
        c.clone_from(pb);
        let legal: Vec<Point> = pb.board().legal_points().collect();
        let mut twin = pb.clone();
        if let Some(&p) = legal.first() {
            c.play(p).unwrap();
            twin.play(p).unwrap();
        }
        assert_eq!(c.board().history(), twin.board().history());
        for p in twin.board().points() {
            assert_eq!(c.weight(p), twin.weight(p), "{p:?}");
        }
        assert_eq!(c.winning_points(), twin.winning_points());
        assert_eq!(c.blocking_points(), twin.blocking_points());
        let draw = rng.gen::<u64>();
        assert_eq!(
            c.sample(&mut Xoshiro256PlusPlus::seed_from_u64(draw)),
            twin.sample(&mut Xoshiro256PlusPlus::seed_from_u64(draw))
        );
    });
}

#[test]
fn weights_are_the_quantised_team_strengths() {
    random_walk(19, 5, 400, |pb, _| {
        if pb.board().is_over() {
            return;
        }
        let background = pb.unit_strength();
        for p in pb.board().legal_points() {
            let exact = pb.strength(p) / background * (1u64 << 24) as f64;
            let w = pb.weight(p);
            if exact > 2.0 && exact < (1u64 << 52) as f64 {
                assert!(
                    (w - exact).abs() <= 0.5 + exact * 1e-12,
                    "{p:?}: {w} vs {exact}"
                );
            }
        }
    });
}

/// The same gammas times `factor` per group: the same Bradley-Terry model.
fn scaled(g: &Gammas, factor: f64) -> Arc<Gammas> {
    let values = g
        .spec()
        .groups()
        .iter()
        .map(|&group| g.group(group).iter().map(|x| x * factor).collect())
        .collect();
    Arc::new(Gammas::new(g.spec().clone(), values, "scaled").unwrap())
}

#[test]
fn gammas_scaled_by_a_constant_give_the_same_probabilities() {
    // Issue #18 item 5: all gammas x 1e-3 made every team strength clamp to weight 1 (uniform
    // play, along the edge); x 1e3 clamped the strong ones to one ceiling.
    let gammas = random_gammas(11);
    for factor in [1e-3, 1e-6, 1e3, 1e6] {
        let mut a = PolicyBoard::new(&Board::standard(), Arc::clone(&gammas));
        let mut b = PolicyBoard::new(&Board::standard(), scaled(&gammas, factor));
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        for _ in 0..30 {
            for p in a.board().legal_points() {
                let (pa, pb) = (a.probability(p), b.probability(p));
                assert!(
                    (pa - pb).abs() <= 1e-9 + 1e-6 * pa,
                    "x{factor} {p:?}: {pa} vs {pb}"
                );
            }
            let legal: Vec<Point> = a.board().legal_points().collect();
            let p = legal[rng.gen_range(0..legal.len())];
            a.play(p).unwrap();
            b.play(p).unwrap();
        }
    }
}

#[test]
fn occupied_and_finished_positions_have_no_weight() {
    let gammas = random_gammas(9);
    let mut pb = PolicyBoard::new(&Board::standard(), gammas);
    let c = Point::new(9, 9);
    pb.play(c).unwrap();
    assert_eq!(pb.weight(c), 0.0);
    assert_eq!(pb.probability(c), 0.0);
    assert!(pb.play(c).is_err());
    assert_eq!(pb.board().stone_count(), 1);
    let sum: f64 = pb.board().points().map(|p| pb.probability(p)).sum();
    assert!((sum - 1.0).abs() < 1e-9);
}

#[test]
fn sampler_follows_the_probabilities() {
    // A first stone and a second stone (the sampler's rejection step bounds each differently),
    // then a position with a blocking point (drawn from the overlay).
    let stones = [(3, 3), (2, 2), (4, 3), (3, 5), (1, 1)];
    sampler_matches_probabilities(&stones, 11);
    sampler_matches_probabilities(&[&stones[..], &[(2, 4)]].concat(), 12);
    let four = [
        (3, 3),
        (0, 0),
        (0, 6),
        (1, 3),
        (2, 3),
        (6, 6),
        (6, 0),
        (4, 3),
        (5, 5),
    ];
    let pb = sampler_matches_probabilities(&four, 13);
    assert!(!pb.blocking_points().is_empty());
}

/// Random static gammas, and dynamic ones that lift and lower weights near the last stones by
/// known factors (the sampler's rejection step sees factors on both sides of 1).
fn lifting_gammas(seed: u64) -> Arc<Gammas> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let spec = FeatureSpec::full();
    let values = spec
        .groups()
        .iter()
        .map(|&g| match g {
            Group::LastOpp => vec![3.0, 2.0, 0.7, 1.0],
            Group::Stage => vec![1.0, 2.5, 1.5, 0.5, 1.2, 0.8, 1.7, 1.0],
            _ => (0..g.size())
                .map(|_| (rng.gen_range(-1.0f64..1.0)).exp())
                .collect(),
        })
        .collect();
    Arc::new(Gammas::new(spec, values, "test gammas with known dynamic factors").unwrap())
}

fn sampler_matches_probabilities(stones: &[(u8, u8)], seed: u64) -> PolicyBoard {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let gammas = lifting_gammas(seed);
    let mut pb = PolicyBoard::new(&Board::new(7).unwrap(), gammas);
    for p in stones {
        pb.play(Point::new(p.0, p.1)).unwrap();
    }
    let n = 200_000;
    let mut counts = vec![0usize; 49];
    for _ in 0..n {
        let p = pb.sample(&mut rng).unwrap();
        counts[p.index(7)] += 1;
    }
    for p in pb.board().points() {
        let expected = pb.probability(p) * n as f64;
        let got = counts[p.index(7)] as f64;
        // 5 standard deviations of a binomial count, plus slack for tiny expectations.
        assert!(
            (got - expected).abs() <= 5.0 * expected.sqrt() + 3.0,
            "{p:?}: {got} vs {expected}"
        );
        if expected == 0.0 {
            assert_eq!(got, 0.0);
        }
    }
    pb
}

#[test]
fn uniform_gammas_give_every_legal_stone_the_same_weight() {
    let mut pb = PolicyBoard::new(&Board::standard(), Arc::new(Gammas::uniform()));
    pb.play(Point::new(9, 9)).unwrap();
    pb.play(Point::new(10, 10)).unwrap();
    let p = 1.0 / 359.0;
    for q in pb.board().legal_points() {
        assert!((pb.probability(q) - p).abs() < 1e-12);
    }
    assert!(FeatureSpec::full().contains(Group::Tactic));
}
