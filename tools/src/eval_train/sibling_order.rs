//! How often an evaluator orders the root stones a self-play search compared as the search did:
//! the positions where its errors change the stone played. Of each position's recorded root
//! stones (`liuzi-selfplay --children`), every pair whose search values differ by at least
//! [`MIN_GAP`] counts; it agrees when the evaluator's values for the mover, after each stone,
//! put them in the same order.

use crate::selfplay::training::Sibling;
use liuzi::eval::Evaluator;
use liuzi::patterns::PatternBoard;
use liuzi::records::GameRecord;
use liuzi::rules::Board;
use serde::Serialize;

/// Pairs closer than this in the search's values say little about its order.
pub const MIN_GAP: f32 = 0.05;

#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct OrderTally {
    pub pairs: usize,
    pub agree: usize,
}

impl OrderTally {
    pub fn share(&self) -> f64 {
        self.agree as f64 / self.pairs.max(1) as f64
    }
}

/// The tally over `games[i]` with `siblings[i]` (in stone order) for every game `keep` says.
pub fn tally(
    games: &[GameRecord],
    siblings: &[Vec<Sibling>],
    keep: impl Fn(usize) -> bool,
    evaluator: &Evaluator,
) -> OrderTally {
    let mut out = OrderTally::default();
    for (index, (game, recorded)) in games.iter().zip(siblings).enumerate() {
        if recorded.len() < 2 || !keep(index) {
            continue;
        }
        let mut pb = PatternBoard::new(Board::standard());
        let mut next = recorded.iter().peekable();
        for (n, &stone) in game.stones.iter().enumerate() {
            let mut valued: Vec<(f32, f64)> = Vec::new();
            while let Some(s) = next.next_if(|s| s.before == n) {
                let mover = pb.board().to_move();
                if pb.play(s.stone).is_err() {
                    continue;
                }
                let p = evaluator.win_probability(&pb);
                let keeps = pb.board().to_move() == mover;
                valued.push((s.value, if keeps { p } else { 1.0 - p }));
                pb.undo();
            }
            for (i, a) in valued.iter().enumerate() {
                for b in &valued[i + 1..] {
                    if (a.0 - b.0).abs() >= MIN_GAP {
                        out.pairs += 1;
                        out.agree += usize::from((a.0 > b.0) == (a.1 > b.1));
                    }
                }
            }
            if pb.play(stone).is_err() {
                break;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use liuzi::records::games::parse_line;
    use liuzi::rules::Point;

    #[test]
    fn pairs_count_when_the_search_separates_them_and_agree_in_the_evaluators_order() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../engine-config/default.eval");
        let evaluator = Evaluator::load(std::path::Path::new(path)).unwrap();
        // Black's row on row 10; before stone 7 (Black's m10, its turn's first), extending the
        // row beats a stone in the far corner by any evaluator's lights.
        let game = parse_line("B\tj10 a1-a3 k10-l10 a5-a7 m10-n10 a9-a11 o10").unwrap();
        let stone = |col, row, value, played| Sibling {
            before: 7,
            stone: Point::new(col, row),
            value,
            played,
        };
        let games = [game];
        let count = |recorded: Vec<Sibling>| tally(&games, &[recorded], |_| true, &evaluator);
        let right = count(vec![stone(12, 9, 0.9, true), stone(18, 0, 0.2, false)]);
        assert_eq!(right, OrderTally { pairs: 1, agree: 1 });
        let wrong = count(vec![stone(12, 9, 0.2, true), stone(18, 0, 0.9, false)]);
        assert_eq!(wrong, OrderTally { pairs: 1, agree: 0 });
        let close = count(vec![stone(12, 9, 0.5, true), stone(18, 0, 0.52, false)]);
        assert_eq!(close.pairs, 0, "closer than the gap");
        assert_eq!(tally(&games, &[Vec::new()], |_| true, &evaluator).pairs, 0);
        let skipped = tally(
            &games,
            &[vec![stone(12, 9, 0.9, true), stone(18, 0, 0.2, false)]],
            |_| false,
            &evaluator,
        );
        assert_eq!(skipped.pairs, 0);
    }
}
