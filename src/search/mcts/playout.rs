//! Stone-level playouts: hard rules first, then a roulette-wheel draw from the position's
//! weights (docs/search.md, playouts and the leaf value).

use crate::eval::Evaluator;
use crate::patterns::stones_left;
use crate::rules::{Color, GameResult, Point};
use crate::search::common::{SearchPosition, SearchRng};
use rand::Rng;

/// A playout cut-off (`search.playout_cutoff`): after `stones` stones the playout stops, and its
/// value is the evaluator's win probability there. The tree's rewards are fractions of a win
/// already (`value_mix`), so the probability is backed up as it is: drawing a coin from it, as
/// the first version did, only added the coin's variance.
pub(crate) struct Cutoff<'a> {
    pub stones: u32,
    pub evaluator: &'a Evaluator,
    /// `search.playout_cutoff_quiet`: only free stones count, and the playout goes on past
    /// the cut-off while its next stone is forced (a six, a block).
    pub quiet: bool,
}

/// A quiet cut-off stops after this many times its stones in all, forced ones included: a
/// chain of blocks that each make a four could otherwise run long.
const QUIET_CUTOFF_STONES: u32 = 4;

impl Cutoff<'_> {
    /// Whether the playout stops here, after `played` stones of which `counted` count.
    fn reached<P: SearchPosition>(
        &self,
        pos: &mut P,
        played: u32,
        counted: u32,
        scratch: &mut Vec<Point>,
    ) -> bool {
        if counted < self.stones {
            return false;
        }
        if !self.quiet || played >= QUIET_CUTOFF_STONES * self.stones {
            return true;
        }
        pos.winning_points(scratch);
        if !scratch.is_empty() {
            return false;
        }
        pos.blocking_points(scratch);
        scratch.is_empty()
    }

    fn end<P: SearchPosition>(&self, pos: &P) -> PlayoutEnd {
        let p = match pos.features() {
            Some(fb) => self.evaluator.win_probability(fb),
            None => self.evaluator.win_probability_of_board(pos.board()),
        }
        .clamp(0.0, 1.0);
        let black_wins = match pos.board().to_move() {
            Color::Black => p,
            Color::White => 1.0 - p,
        };
        PlayoutEnd::CutOff { black_wins }
    }
}

/// How a playout ended: with the game's result (or the one the hard rules make certain), or
/// cut off, with the evaluator's probability that Black wins from there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum PlayoutEnd {
    Over(GameResult),
    CutOff { black_wins: f64 },
}

impl PlayoutEnd {
    /// `player`'s share of a win: 1, 0 or ½ for a finished game, the probability when cut off;
    /// `None` for a game still going (no playout ends so, but an `Over` can hold it).
    pub(crate) fn score_for(self, player: Color) -> Option<f64> {
        match self {
            PlayoutEnd::Over(GameResult::Win(c)) => Some(if c == player { 1.0 } else { 0.0 }),
            PlayoutEnd::Over(GameResult::Draw) => Some(0.5),
            PlayoutEnd::Over(GameResult::Ongoing) => None,
            PlayoutEnd::CutOff { black_wins } => Some(match player {
                Color::Black => black_wins,
                Color::White => 1.0 - black_wins,
            }),
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
) -> Result<PlayoutStone, GameResult> {
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
        return Ok(PlayoutStone::Block(best_block(pos, scratch, rng)));
    }
    pos.sample_playout_stone(rng)
        .map(PlayoutStone::Free)
        .ok_or(GameResult::Draw)
}

/// A stone a playout places: a forced block, or a free draw from the roulette wheel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum PlayoutStone {
    Block(Point),
    Free(Point),
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
/// full board, or to the `cutoff`, and says how it ended.
pub(crate) fn run_playout<P: SearchPosition>(
    pos: &mut P,
    rng: &mut SearchRng,
    scratch: &mut Vec<Point>,
    cutoff: Option<&Cutoff>,
) -> PlayoutEnd {
    let mut played = 0;
    // The stones that count toward the cut-off: all of them, or with a quiet cut-off the
    // free ones.
    let mut counted = 0;
    loop {
        let result = pos.board().result();
        if result != GameResult::Ongoing {
            return PlayoutEnd::Over(result);
        }
        if let Some(c) = cutoff.filter(|c| c.reached(pos, played, counted, scratch)) {
            return c.end(pos);
        }
        match playout_step(pos, rng, scratch) {
            Ok(stone) => {
                let (p, forced) = match stone {
                    PlayoutStone::Block(p) => (p, true),
                    PlayoutStone::Free(p) => (p, false),
                };
                pos.play(p);
                played += 1;
                if !(forced && cutoff.is_some_and(|c| c.quiet)) {
                    counted += 1;
                }
            }
            Err(result) => return PlayoutEnd::Over(result),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::Gammas;
    use crate::rules::Board;
    use crate::search::common::test_support::fixtures::{black_four, board_of, p, white_live_four};
    use crate::search::common::test_support::SimplePosition;
    use crate::search::common::PolicyFactory;
    use crate::search::common::PositionFactory;
    use rand::SeedableRng;
    use std::sync::Arc;

    /// Runs playouts from `start` and checks each result against the game played on to its
    /// end by the playout policy (the decided endings skip only forced stones).
    fn check_playouts<P: SearchPosition>(start: &P, seed: u64) {
        let mut rng = SearchRng::seed_from_u64(seed);
        let mut scratch = Vec::new();
        for _ in 0..50 {
            let mut pos = start.clone();
            let PlayoutEnd::Over(r) = run_playout(&mut pos, &mut rng, &mut scratch, None) else {
                panic!("an uncut playout ends with the game");
            };
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
                PlayoutEnd::Over(GameResult::Win(Color::Black))
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
            PlayoutEnd::Over(GameResult::Win(Color::White))
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
    fn a_quiet_cut_off_counts_free_stones_and_stops_where_nothing_is_forced() {
        let evaluator = crate::eval::testing::sample_evaluator();
        // White has a live four, Black to move with two stones: both are forced blocks.
        let b = board_of(&white_live_four());
        let mut rng = SearchRng::seed_from_u64(11);
        let mut scratch = Vec::new();
        for quiet in [false, true] {
            let cutoff = Cutoff {
                stones: 1,
                evaluator: &evaluator,
                quiet,
            };
            for _ in 0..30 {
                let mut pos = SimplePosition::new(&b);
                let end = run_playout(&mut pos, &mut rng, &mut scratch, Some(&cutoff));
                let played = pos.board().stone_count() - b.stone_count();
                if !quiet {
                    // Every stone counts: the first block ends it, with the four half-open.
                    assert_eq!(played, 1);
                    pos.blocking_points(&mut scratch);
                    assert!(!scratch.is_empty());
                    continue;
                }
                // Both blocks, then White's free stone, then whatever it forces.
                assert!(played >= 3, "{played}");
                assert!(played <= QUIET_CUTOFF_STONES as usize, "{played}");
                if let PlayoutEnd::CutOff { .. } = end {
                    if played < QUIET_CUTOFF_STONES as usize {
                        pos.winning_points(&mut scratch);
                        assert!(scratch.is_empty());
                        pos.blocking_points(&mut scratch);
                        assert!(scratch.is_empty());
                    }
                }
            }
        }
    }

    #[test]
    fn a_cut_off_playout_stops_and_is_worth_the_evaluators_probability() {
        let evaluator = crate::eval::testing::sample_evaluator();
        let cutoff = Cutoff {
            stones: 3,
            evaluator: &evaluator,
            quiet: false,
        };
        let b = board_of(&[p(9, 9), p(10, 10), p(8, 10)]);
        let mut rng = SearchRng::seed_from_u64(5);
        let mut scratch = Vec::new();
        for _ in 0..20 {
            let mut pos = SimplePosition::new(&b);
            let end = run_playout(&mut pos, &mut rng, &mut scratch, Some(&cutoff));
            assert_eq!(pos.board().stone_count(), b.stone_count() + 3);
            // Black's two stones and White's first: White to move, and the probability,
            // the evaluator's for White, is turned to Black's.
            assert_eq!(pos.board().to_move(), Color::White);
            let white = evaluator.win_probability_of_board(pos.board());
            assert_eq!(
                end,
                PlayoutEnd::CutOff {
                    black_wins: 1.0 - white
                }
            );
            assert!((end.score_for(Color::White).unwrap() - white).abs() < 1e-12);
        }
        // Cut with Black to move, the probability is Black's as it is.
        let five = Cutoff {
            stones: 5,
            evaluator: &evaluator,
            quiet: false,
        };
        let mut pos = SimplePosition::new(&b);
        let end = run_playout(&mut pos, &mut rng, &mut scratch, Some(&five));
        assert_eq!(pos.board().to_move(), Color::Black);
        let black = evaluator.win_probability_of_board(pos.board());
        assert_eq!(end.score_for(Color::Black), Some(black));
        // A game that ends before the cut-off keeps its real result.
        let b = board_of(&black_four());
        let long = Cutoff {
            stones: 10,
            evaluator: &evaluator,
            quiet: false,
        };
        let mut pos = SimplePosition::new(&b);
        let end = run_playout(&mut pos, &mut rng, &mut scratch, Some(&long));
        assert_eq!(end, PlayoutEnd::Over(GameResult::Win(Color::Black)));
        assert_eq!(end.score_for(Color::Black), Some(1.0));
        assert_eq!(
            PlayoutEnd::Over(GameResult::Draw).score_for(Color::White),
            Some(0.5)
        );
    }
}
