//! The alpha-beta search's promises: wins at once, blocks, legal stones, reproducible, and the
//! same value as a plain minimax over the same moves.

use super::order::ordered_moves;
use super::score::{self, Score};
use super::*;
use crate::patterns::stones_left;
use crate::policy::{Gammas, PolicyBoard};
use crate::rules::{Board, Color, GameResult, Point};
use crate::search::common::test_support::fixtures::{black_four, board_of, p, white_live_four};
use crate::search::common::SolverParams;
use crate::search::{proximity_gammas, Decision, JudgeLimits, Limits, PositionJudge};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::Arc;

fn params(width: u32) -> AlphaBetaParams {
    AlphaBetaParams {
        width,
        root_width: width,
        hash_mb: 4,
        ..AlphaBetaParams::default()
    }
}

/// The plain search: the solver's pre-pass has its own tests.
fn no_solver() -> SolverParams {
    SolverParams {
        solver: false,
        ..SolverParams::default()
    }
}

fn searcher(width: u32) -> AlphaBeta {
    AlphaBeta::new(
        params(width),
        Arc::new(proximity_gammas()),
        LeafEvaluator::Heuristic,
    )
    .unwrap()
    .with_solver(no_solver())
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

#[test]
fn completes_a_six_with_two_stones_and_with_one() {
    let mut s = searcher(8);
    let mut b = board_of(&black_four());
    for _ in 0..2 {
        let o = s.think(&b, &depth(4)).unwrap();
        assert_eq!(o.decision, Decision::Win);
        b.play(o.best).unwrap();
    }
    assert_eq!(b.result(), GameResult::Win(Color::Black));
    // One stone left with five in a window: the single completing stone.
    let mut stones = black_four();
    stones.extend([p(13, 9), p(0, 12), p(0, 14), p(5, 5)]);
    let b = board_of(&stones);
    let o = s.think(&b, &depth(4)).unwrap();
    let mut after = b.clone();
    after.play(o.best).unwrap();
    assert_eq!(
        after.result(),
        GameResult::Win(Color::Black),
        "{:?}",
        o.best
    );
}

/// Ordering that knows shapes a little: the proximity gammas, with stones that make a four or
/// five on some line (own line class 10 or more) far ahead.
fn shape_gammas() -> Gammas {
    use crate::patterns::shape::{Combiner, OWN_CLASSES};
    use crate::policy::{FeatureSpec, Group};
    let base = proximity_gammas();
    let combiner = Combiner::own();
    let mut own4 = vec![1.0; Group::Own4.size()];
    let n = OWN_CLASSES as u8;
    for a in 0..n {
        for b in a..n {
            for c in b..n {
                for d in c..n {
                    if d >= 10 {
                        own4[combiner.id_of([a, b, c, d]) as usize] = 100.0;
                    }
                }
            }
        }
    }
    let spec = FeatureSpec::full();
    let values = spec
        .groups()
        .iter()
        .map(|&g| match g {
            Group::Own4 => own4.clone(),
            _ => base.group(g).to_vec(),
        })
        .collect();
    Gammas::new(spec, values, "test").unwrap()
}

#[test]
fn the_tree_finds_a_double_four_that_wins_next_turn() {
    // Black has two open threes (rows 9 and 13, columns 9..=11) and two stones to play: a
    // stone on each makes two live fours, four threats White cannot meet.
    let b = board_of(&[
        p(9, 9),
        p(0, 0),
        p(0, 2),
        p(10, 9),
        p(11, 9),
        p(18, 0),
        p(18, 2),
        p(9, 13),
        p(10, 13),
        p(0, 18),
        p(18, 18),
        p(11, 13),
        p(3, 17),
        p(15, 17),
        p(16, 3),
    ]);
    assert_eq!(b.to_move(), Color::Black);
    let mut s = AlphaBeta::new(
        params(8),
        Arc::new(shape_gammas()),
        LeafEvaluator::Heuristic,
    )
    .unwrap()
    .with_solver(no_solver());
    let o = s.think(&b, &depth(4)).unwrap();
    assert_eq!(o.decision, Decision::Searched);
    assert!(score::is_decisive(o.score) && o.score > 0, "{o:?}");
    assert_eq!(o.win_rate, Some(1.0));
    let mut after = b.clone();
    after.play(o.best).unwrap();
    let o2 = s.think(&after, &depth(4)).unwrap();
    after.play(o2.best).unwrap();
    let pb = crate::patterns::PatternBoard::new(after.clone());
    assert!(pb.threat_count(Color::Black) >= 3, "{:?}", after.history());
}

/// Whether the side to move's opponent completes a six next turn whatever happens.
fn opponent_has_six_available(b: &Board) -> bool {
    !crate::patterns::winning_points(b).is_empty()
}

#[test]
fn blocks_a_live_four_with_both_stones() {
    // White has a live four on row 5 (3..=6); Black to move, no threat of its own.
    let mut b = board_of(&white_live_four());
    let mut s = searcher(8);
    for _ in 0..2 {
        let o = s.think(&b, &depth(4)).unwrap();
        b.play(o.best).unwrap();
    }
    assert!(!opponent_has_six_available(&b), "{:?}", b.history());
}

/// A position of random play near the stones that is still going.
fn random_position(rng: &mut Xoshiro256PlusPlus, max_stones: usize) -> Board {
    loop {
        let mut b = board_of(&[p(9, 9)]);
        let n = rng.gen_range(1..=max_stones);
        while b.stone_count() < n && !b.is_over() {
            let last = b.last_stone().unwrap();
            let near: Vec<Point> = b.legal_points().filter(|q| q.distance(last) <= 2).collect();
            let q = if near.is_empty() {
                b.legal_points().next().unwrap()
            } else {
                near[rng.gen_range(0..near.len())]
            };
            b.play(q).unwrap();
        }
        if !b.is_over() {
            return b;
        }
    }
}

#[test]
fn blocks_every_blockable_six_threat_in_random_positions() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    let mut s = searcher(6);
    let mut checked = 0;
    let mut tries = 0;
    while checked < 8 && tries < 5000 {
        tries += 1;
        let b = random_position(&mut rng, 50);
        let pb = crate::patterns::PatternBoard::new(b.clone());
        let threats = pb.threat_count(b.to_move().opponent());
        let ours = !pb.winning_points().is_empty();
        // A threat we can meet with this turn's stones, and no win of our own first.
        if ours || threats == 0 || threats > stones_left(&b) as u32 {
            continue;
        }
        let mut after = b.clone();
        s.clear();
        while after.to_move() == b.to_move() && !after.is_over() {
            let o = s.think(&after, &depth(3)).unwrap();
            after.play(o.best).unwrap();
        }
        assert!(
            !opponent_has_six_available(&after),
            "failed to block in {:?}",
            b.history()
        );
        checked += 1;
    }
    assert_eq!(checked, 8, "too few positions with a threat");
}

#[test]
fn never_plays_an_illegal_stone_and_reports_consistent_outcomes() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let mut s = searcher(6);
    for i in 0..25 {
        let b = random_position(&mut rng, 120);
        let limits = if i % 2 == 0 {
            depth(3)
        } else {
            Limits {
                nodes: Some(500),
                ..Limits::default()
            }
        };
        let o = s.think(&b, &limits).unwrap();
        assert!(b.is_empty_at(o.best), "{:?} on {:?}", o.best, b.history());
        assert_eq!(o.pv.first(), Some(&o.best));
        let mut replay = b.clone();
        for &q in &o.pv {
            replay.play(q).unwrap();
        }
        if o.decision == Decision::Searched {
            assert_eq!(s.last_root().first().map(|m| m.point), Some(o.best));
            assert_eq!(s.analysis().children.first().map(|c| c.point), Some(o.best));
        }
    }
    // A finished game has no move.
    let mut done = board_of(&black_four());
    done.play(p(13, 9)).unwrap();
    done.play(p(14, 9)).unwrap();
    assert!(s.think(&done, &depth(2)).is_none());
}

#[test]
fn fixed_depth_and_fixed_nodes_reproduce_the_search() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(21);
    for _ in 0..4 {
        let b = random_position(&mut rng, 40);
        for limits in [
            depth(4),
            Limits {
                nodes: Some(3000),
                ..Limits::default()
            },
        ] {
            let a = searcher(6).think(&b, &limits).unwrap();
            let c = searcher(6).think(&b, &limits).unwrap();
            assert_eq!(
                (a.best, a.score, a.nodes, a.depth, &a.pv),
                (c.best, c.score, c.nodes, c.depth, &c.pv)
            );
        }
    }
}

#[test]
fn keeps_to_a_time_budget() {
    let b = random_position(&mut Xoshiro256PlusPlus::seed_from_u64(3), 30);
    let mut s = searcher(10);
    let start = web_time::Instant::now();
    let o = s
        .think(
            &b,
            &Limits {
                time: Some(std::time::Duration::from_millis(150)),
                ..Limits::default()
            },
        )
        .unwrap();
    assert!(b.is_empty_at(o.best));
    // Generous: the test machine is shared; the point is that deepening stops.
    assert!(
        start.elapsed() < std::time::Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
}

/// The reference: minimax without pruning or table over the same moves and rules.
fn minimax(
    pb: &mut PolicyBoard,
    leaf: &LeafEvaluator,
    depth: u32,
    ply: u32,
    width: usize,
) -> Score {
    let board = pb.board();
    if let GameResult::Win(c) = board.result() {
        return if c == board.to_move() {
            score::win_in(ply)
        } else {
            -score::win_in(ply)
        };
    }
    let left = stones_left(board) as u32;
    if !pb.winning_points().is_empty() {
        return score::win_in(ply + left);
    }
    if pb
        .features()
        .patterns()
        .threat_count(board.to_move().opponent())
        > left
    {
        return -score::win_in(ply + left + 2);
    }
    if depth == 0 {
        return score::from_probability(leaf.win_probability(pb.features().patterns()));
    }
    let mover = board.to_move();
    let size = board.size();
    let mut moves = Vec::new();
    ordered_moves(pb, width, None, &mut moves);
    let mut best = -score::INFINITY;
    for (cell, _) in moves {
        pb.play(Point::from_index(cell as usize, size)).unwrap();
        let same = pb.board().to_move() == mover;
        let v = minimax(pb, leaf, depth - 1, ply + 1, width);
        pb.undo();
        best = best.max(if same { v } else { -v });
    }
    best
}

#[test]
fn alpha_beta_and_its_table_keep_the_minimax_value() {
    // Every position of one stone count sits at one ply, so table entries of an iteration never
    // mix depths: with a fresh table the root value must equal plain minimax exactly.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(8);
    let gammas = Arc::new(Gammas::uniform());
    for case in 0..6 {
        let b = random_position(&mut rng, 30);
        for d in 1..=4 {
            let width = 4;
            let mut s =
                AlphaBeta::new(params(width), Arc::clone(&gammas), LeafEvaluator::Heuristic)
                    .unwrap()
                    .with_solver(no_solver());
            let o = s.think(&b, &depth(d)).unwrap();
            if o.decision != Decision::Searched {
                break;
            }
            let mut pb = PolicyBoard::new(&b, Arc::clone(&gammas));
            let mut root = Vec::new();
            ordered_moves(&pb, width as usize, None, &mut root);
            let mover = b.to_move();
            let expected = root
                .iter()
                .map(|&(cell, _)| {
                    pb.play(Point::from_index(cell as usize, 19)).unwrap();
                    let same = pb.board().to_move() == mover;
                    let v = minimax(&mut pb, &LeafEvaluator::Heuristic, d - 1, 1, width as usize);
                    pb.undo();
                    if same {
                        v
                    } else {
                        -v
                    }
                })
                .max()
                .unwrap();
            assert_eq!(
                o.score,
                expected,
                "case {case} depth {d}: {:?}",
                b.history()
            );
            assert_eq!(o.depth, d);
        }
    }
}

#[test]
fn the_solver_pre_pass_plays_a_proven_threat_sequence() {
    // The double-four position: with the solver on, the win is proven before any search.
    let b = board_of(&[
        p(9, 9),
        p(0, 0),
        p(0, 2),
        p(10, 9),
        p(11, 9),
        p(18, 0),
        p(18, 2),
        p(9, 13),
        p(10, 13),
        p(0, 18),
        p(18, 18),
        p(11, 13),
        p(3, 17),
        p(15, 17),
        p(16, 3),
    ]);
    let mut s = AlphaBeta::new(
        AlphaBetaParams {
            hash_mb: 4,
            ..AlphaBetaParams::default()
        },
        Arc::new(proximity_gammas()),
        LeafEvaluator::Heuristic,
    )
    .unwrap();
    let o = s.think(&b, &depth(4)).unwrap();
    assert_eq!(o.decision, Decision::Proven);
    assert_eq!(o.nodes, 0);
}

#[test]
fn a_raised_stop_flag_ends_the_search_with_its_best_stone() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Duration;
    use web_time::Instant;
    let b = board_of(&[p(9, 9), p(10, 10), p(8, 10)]);
    let mut s = AlphaBeta::new(
        AlphaBetaParams {
            max_depth: 64,
            width: 30,
            root_width: 60,
            hash_mb: 4,
            max_nodes: 0,
        },
        Arc::new(proximity_gammas()),
        LeafEvaluator::Heuristic,
    )
    .unwrap()
    .with_solver(no_solver());
    let stop = Arc::new(AtomicBool::new(true));
    let start = Instant::now();
    let limits = Limits {
        observer: Some(stop.clone()),
        ..Limits::default()
    };
    // Raised before the search: it stops at once and still answers a legal stone.
    let o = s.think(&b, &limits).unwrap();
    assert!(b.is_empty_at(o.best));
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
    stop.store(false, Ordering::Relaxed);
    let raiser = {
        let stop = Arc::clone(&stop);
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(100));
            stop.store(true, Ordering::Relaxed);
        })
    };
    let o = s.think(&b, &limits).unwrap();
    raiser.join().unwrap();
    assert!(b.is_empty_at(o.best));
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn the_judge_gives_the_minimax_value_of_the_whole_position() {
    // The pair verification's judgement: the root searched like any node (the same width, the
    // threat rules first), its value for the side to move as a probability.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
    let gammas = Arc::new(Gammas::uniform());
    let width = 4;
    for case in 0..6 {
        let b = random_position(&mut rng, 30);
        for d in 0..=3 {
            let mut s =
                AlphaBeta::new(params(width), Arc::clone(&gammas), LeafEvaluator::Heuristic)
                    .unwrap();
            let limits = JudgeLimits {
                depth: d,
                ..JudgeLimits::default()
            };
            let j = s.judge(&b, limits).unwrap();
            let mut pb = PolicyBoard::new(&b, Arc::clone(&gammas));
            let expected = minimax(&mut pb, &LeafEvaluator::Heuristic, d, 0, width as usize);
            assert_eq!(
                j.win_probability,
                score::to_probability(expected),
                "case {case} depth {d}: {:?}",
                b.history()
            );
            // A decided position stops the deepening early, and counts as the depth asked.
            assert_eq!(j.depth, d);
        }
    }
    // A four for the side to move: a win, found at once and standing for the depth asked; a
    // node limit of one leaves an open position no verdict beyond the leaf.
    let mut s = searcher(4);
    let four = board_of(&black_four());
    let limits = JudgeLimits {
        depth: 4,
        ..JudgeLimits::default()
    };
    let win = s.judge(&four, limits).unwrap();
    assert_eq!((win.win_probability, win.depth), (1.0, 4));
    let tight = JudgeLimits {
        nodes: Some(1),
        ..limits
    };
    let open = board_of(&[p(9, 9), p(10, 10)]);
    assert!(s.judge(&open, tight).is_none_or(|j| j.depth < 4));
    // A raised stop (a protocol interrupt) ends the judgement short of the depth; lowered, the
    // same judgement reaches it.
    use std::sync::atomic::{AtomicBool, Ordering};
    let stop = AtomicBool::new(true);
    let stopped = JudgeLimits {
        observer: Some(&stop),
        ..limits
    };
    assert!(s.judge(&open, stopped).is_none_or(|j| j.depth < 4));
    stop.store(false, Ordering::Relaxed);
    assert_eq!(s.judge(&open, stopped).map(|j| j.depth), Some(4));
}
