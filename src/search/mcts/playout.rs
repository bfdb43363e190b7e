//! Stone-level playouts: hard rules first, then a roulette-wheel draw from the position's
//! weights (design.md A2 "forced replies", A4).

use crate::eval::Evaluator;
use crate::patterns::stones_left;
use crate::rules::{GameResult, Point};
use crate::search::common::{SearchPosition, SearchRng};
use rand::Rng;

/// A playout cut-off (`search.playout_cutoff`): after `stones` stones the playout stops, and its
/// result is a win for the side to move with the evaluator's win probability (a loss
/// otherwise), so the tree's integer statistics stay unbiased.
pub(crate) struct Cutoff<'a> {
    pub stones: u32,
    pub evaluator: &'a Evaluator,
}

impl Cutoff<'_> {
    fn result<P: SearchPosition>(&self, pos: &P, rng: &mut SearchRng) -> GameResult {
        let p = match pos.patterns() {
            Some(pb) => self.evaluator.win_probability(pb),
            None => self.evaluator.win_probability_of_board(pos.board()),
        };
        let me = pos.board().to_move();
        if rng.gen::<f64>() < p {
            GameResult::Win(me)
        } else {
            GameResult::Win(me.opponent())
        }
    }
}

/// The stone a playout places next, or the result the hard rules already decide:
///
/// 1. A six this turn: when the side to move can complete one, it does, and wins.
/// 2. Otherwise, if the opponent threatens six next turn, block: the stone that breaks the
///    most threat windows (random among equals), so the two stones of a turn cover a live
///    four's two ends. When the opponent's threat count exceeds the stones left this turn, no
///    block is enough and the opponent's six next turn is certain: the opponent wins.
/// 3. Otherwise a roulette-wheel draw by playout weight; a full board is a draw.
///
/// The decided cases end the playout with the result the forced stones would reach, without
/// playing them.
pub(crate) fn playout_step<P: SearchPosition>(
    pos: &mut P,
    rng: &mut SearchRng,
    scratch: &mut Vec<Point>,
) -> Result<Point, GameResult> {
    let me = pos.board().to_move();
    pos.winning_points(scratch);
    if !scratch.is_empty() {
        return Err(GameResult::Win(me));
    }
    pos.blocking_points(scratch);
    if !scratch.is_empty() {
        let stones_left = u32::from(stones_left(pos.board()));
        if pos.opponent_threat_count().is_some_and(|t| t > stones_left) {
            return Err(GameResult::Win(me.opponent()));
        }
        return Ok(best_block(pos, scratch, rng));
    }
    pos.sample_playout_stone(rng).ok_or(GameResult::Draw)
}

/// The stone a playout would place next, playing out decided cases too (a winning stone, a
/// block that cannot be enough); `None` when no empty point is left. For building test
/// positions by playout-like play.
#[cfg(test)]
pub(crate) fn playout_stone<P: SearchPosition>(
    pos: &mut P,
    rng: &mut SearchRng,
    scratch: &mut Vec<Point>,
) -> Option<Point> {
    pos.winning_points(scratch);
    if let Some(&p) = scratch.first() {
        return Some(p);
    }
    pos.blocking_points(scratch);
    if !scratch.is_empty() {
        return Some(best_block(pos, scratch, rng));
    }
    pos.sample_playout_stone(rng)
}

fn best_block<P: SearchPosition>(pos: &P, blocks: &[Point], rng: &mut SearchRng) -> Point {
    let mut best = blocks[0];
    let mut best_value = 0;
    let mut ties = 0u32;
    for &p in blocks {
        let v = pos.block_value(p);
        if v > best_value {
            best = p;
            best_value = v;
            ties = 1;
        } else if v == best_value {
            // Reservoir choice among equals.
            ties += 1;
            if rng.gen_range(0..ties) == 0 {
                best = p;
            }
        }
    }
    best
}

/// Plays `pos` out to a six (or one the hard rules make certain, see [`playout_step`]) or a
/// full board, or to the `cutoff`, and returns the result.
pub(crate) fn run_playout<P: SearchPosition>(
    pos: &mut P,
    rng: &mut SearchRng,
    scratch: &mut Vec<Point>,
    cutoff: Option<&Cutoff>,
) -> GameResult {
    let mut played = 0;
    loop {
        let result = pos.board().result();
        if result != GameResult::Ongoing {
            return result;
        }
        if let Some(c) = cutoff.filter(|c| played >= c.stones) {
            return c.result(pos, rng);
        }
        match playout_step(pos, rng, scratch) {
            Ok(p) => {
                pos.play(p);
                played += 1;
            }
            Err(result) => return result,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::Gammas;
    use crate::rules::Board;
    use crate::rules::Color;
    use crate::search::common::fixtures::{black_four, board_of, p, white_live_four};
    use crate::search::common::PolicyFactory;
    use crate::search::common::PositionFactory;
    use crate::search::common::SimplePosition;
    use rand::SeedableRng;
    use std::sync::Arc;

    /// Runs playouts from `start` and checks each result against the game played on to its
    /// end by the playout policy (the decided endings skip only forced stones).
    fn check_playouts<P: SearchPosition>(start: &P, seed: u64) {
        let mut rng = SearchRng::seed_from_u64(seed);
        let mut scratch = Vec::new();
        for _ in 0..50 {
            let mut pos = start.clone();
            let r = run_playout(&mut pos, &mut rng, &mut scratch, None);
            assert_ne!(r, GameResult::Ongoing);
            while !pos.board().is_over() {
                let q = playout_stone(&mut pos, &mut rng, &mut scratch).unwrap();
                pos.play(q);
            }
            assert_eq!(r, pos.board().result(), "{:?}", pos.board().history());
        }
    }

    #[test]
    fn playouts_end_in_the_result_the_rules_force() {
        let b = board_of(&[p(9, 9)]);
        check_playouts(&SimplePosition::new(&b), 1);
        let factory = PolicyFactory::new(Arc::new(Gammas::uniform()));
        check_playouts(&factory.position(&b), 2);
    }

    #[test]
    fn a_playout_with_a_six_available_is_won_at_once() {
        // Black to move with four in a row and two stones: the six is certain.
        let b = board_of(&black_four());
        let mut rng = SearchRng::seed_from_u64(7);
        let mut scratch = Vec::new();
        for _ in 0..20 {
            let mut pos = SimplePosition::new(&b);
            assert_eq!(
                run_playout(&mut pos, &mut rng, &mut scratch, None),
                GameResult::Win(Color::Black)
            );
            assert_eq!(pos.board().stone_count(), b.stone_count());
            // Played out, the same stones make the six.
            for _ in 0..2 {
                let q = playout_stone(&mut pos, &mut rng, &mut scratch).unwrap();
                pos.play(q);
            }
            assert_eq!(pos.board().result(), GameResult::Win(Color::Black));
        }
    }

    #[test]
    fn a_playout_facing_more_threats_than_stones_is_lost_at_once() {
        // White has two separate fours (two threats) and Black one stone left: the policy
        // board knows the count, and the playout ends as the forced stones would.
        let factory = PolicyFactory::new(Arc::new(Gammas::uniform()));
        let mut b = Board::standard();
        // White fours on rows 1 and 10 (columns 1..=4), Black's stones out of their way, and
        // Black at the second stone of its turn.
        let stones = [
            (9, 9),
            (1, 1),
            (2, 1),
            (9, 15),
            (5, 15),
            (3, 1),
            (4, 1),
            (12, 15),
            (15, 5),
            (1, 10),
            (2, 10),
            (12, 3),
            (16, 16),
            (3, 10),
            (4, 10),
            (17, 3),
        ];
        for (c, r) in stones {
            b.play(p(c, r)).unwrap();
        }
        assert_eq!(b.to_move(), Color::Black);
        assert_eq!(crate::patterns::threat_count(&b, Color::White), 2);
        let mut rng = SearchRng::seed_from_u64(8);
        let mut scratch = Vec::new();
        let mut pos = factory.position(&b);
        assert_eq!(
            run_playout(&mut pos, &mut rng, &mut scratch, None),
            GameResult::Win(Color::White)
        );
        assert_eq!(pos.board().stone_count(), b.stone_count());
        // Played out: Black's one stone blocks one four, White completes the other.
        let mut pos = SimplePosition::new(&b);
        let q = playout_stone(&mut pos, &mut rng, &mut scratch).unwrap();
        pos.play(q);
        for _ in 0..2 {
            let q = playout_stone(&mut pos, &mut rng, &mut scratch).unwrap();
            pos.play(q);
            if pos.board().is_over() {
                break;
            }
        }
        assert_eq!(pos.board().result(), GameResult::Win(Color::White));
    }

    #[test]
    fn a_playout_blocks_a_live_four_with_its_two_stones() {
        // White has a live four on row 5 (3..=6), Black to move with two stones and no threat.
        let b = board_of(&white_live_four());
        let mut rng = SearchRng::seed_from_u64(3);
        let mut scratch = Vec::new();
        for _ in 0..20 {
            let mut pos = SimplePosition::new(&b);
            // The first block breaks two windows; after it any remaining one is broken.
            let first = playout_stone(&mut pos, &mut rng, &mut scratch).unwrap();
            assert!(first == p(2, 5) || first == p(7, 5), "{first:?}");
            pos.play(first);
            let second = playout_stone(&mut pos, &mut rng, &mut scratch).unwrap();
            pos.play(second);
            pos.blocking_points(&mut scratch);
            assert!(scratch.is_empty());
        }
    }

    #[test]
    fn a_cut_off_playout_stops_and_follows_the_evaluator() {
        let evaluator = crate::eval::testing::sample_evaluator();
        let cutoff = Cutoff {
            stones: 3,
            evaluator: &evaluator,
        };
        let b = board_of(&[p(9, 9), p(10, 10), p(8, 10)]);
        let mut rng = SearchRng::seed_from_u64(5);
        let mut scratch = Vec::new();
        let (mut wins, mut expected, runs) = (0, 0.0, 400);
        for _ in 0..runs {
            let mut pos = SimplePosition::new(&b);
            let r = run_playout(&mut pos, &mut rng, &mut scratch, Some(&cutoff));
            assert_eq!(pos.board().stone_count(), b.stone_count() + 3);
            let me = pos.board().to_move();
            expected += evaluator.win_probability_of_board(pos.board());
            match r {
                GameResult::Win(c) if c == me => wins += 1,
                GameResult::Win(_) => {}
                other => panic!("{other:?}"),
            }
        }
        // The coin follows the evaluator: within 4 standard deviations of the expectation.
        let sd = (runs as f64 * 0.25).sqrt();
        assert!(
            (wins as f64 - expected).abs() < 4.0 * sd,
            "{wins} vs {expected}"
        );
        // A game that ends before the cut-off keeps its real result.
        let b = board_of(&black_four());
        let long = Cutoff {
            stones: 10,
            evaluator: &evaluator,
        };
        let mut pos = SimplePosition::new(&b);
        let r = run_playout(&mut pos, &mut rng, &mut scratch, Some(&long));
        assert_eq!(r, GameResult::Win(Color::Black));
    }
}
