//! Stone-level playouts: hard rules first, then a roulette-wheel draw from the position's
//! weights (design.md A2 "forced replies", A4).

use super::position::{SearchPosition, SearchRng};
use crate::eval::Evaluator;
use crate::rules::{GameResult, Point};
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

/// The stone a playout places next, or `None` when no empty point is left.
///
/// 1. Complete a six when this turn can (a stone of a completing pair).
/// 2. Otherwise, if the opponent threatens six next turn, block: the stone that breaks the
///    most threat windows (random among equals), so the two stones of a turn cover a live
///    four's two ends.
/// 3. Otherwise a roulette-wheel draw by playout weight.
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

/// Plays `pos` out to a six or a full board, or to the `cutoff`, and returns the result.
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
        match playout_stone(pos, rng, scratch) {
            Some(p) => {
                pos.play(p);
                played += 1;
            }
            None => return GameResult::Draw,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Color;
    use crate::search::fixtures::{black_four, board_of, p, white_live_four};
    use crate::search::simple::SimplePosition;
    use rand::SeedableRng;

    #[test]
    fn playouts_end_in_a_result_and_respect_the_rules() {
        let mut rng = SearchRng::seed_from_u64(1);
        let mut scratch = Vec::new();
        for _ in 0..50 {
            let mut pos = SimplePosition::new(&board_of(&[p(9, 9)]));
            let r = run_playout(&mut pos, &mut rng, &mut scratch, None);
            assert_eq!(r, pos.board().result());
            assert_ne!(r, GameResult::Ongoing);
        }
    }

    #[test]
    fn a_playout_completes_an_available_six() {
        // Black to move with four in a row and two stones: it must win at once.
        let b = board_of(&black_four());
        let mut rng = SearchRng::seed_from_u64(7);
        let mut scratch = Vec::new();
        for _ in 0..20 {
            let mut pos = SimplePosition::new(&b);
            assert_eq!(
                run_playout(&mut pos, &mut rng, &mut scratch, None),
                GameResult::Win(Color::Black)
            );
            assert_eq!(pos.board().stone_count(), b.stone_count() + 2);
        }
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
