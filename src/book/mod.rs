//! The opening book: the turns strong players chose in the first turns of their games, counted
//! over a collection of records (`liuzi-book` builds it, `engine.book` names the file).
//!
//! On a near-empty board the search's playouts cannot tell the pairs apart (given
//! 1.7 s, White's reply to the centre stone landed about five lines away), while expert games
//! agree: 98% of White's replies to the centre lie within two lines of it. So while a position
//! is in the book, the engine plays one of the turns played there, drawn in proportion to how
//! often each was, and the search takes over where the book ends.
//!
//! Positions are stored once for all eight symmetries of the board ([`symmetry`]).
//! Sits beside `records` (it is built from them) and below the engine, which consults it
//! before asking the search.

mod build;
mod file;
pub mod symmetry;

pub use build::{build, BuildOptions, BuildStats};
pub use file::BOOK_FORMAT_VERSION;

use crate::rules::{Board, Point, Stage};
use rand::Rng;
use std::collections::HashMap;
use symmetry::{canonical, StoneSets};

/// A shifted match needs every stone this many lines from every edge, in the position played
/// and in the book's: six-in-a-row lines through stones this far in are not cut by the edge
/// within five cells, so the edge plays no part in either.
pub const SHIFT_MARGIN: usize = 5;

/// Every shift of at most `max` lines along each axis, nearest first (by the larger, then the
/// sum of the two distances), in a fixed order: no shift first.
fn shifts(max: i32) -> Vec<(i32, i32)> {
    let mut all: Vec<(i32, i32)> = (-max..=max)
        .flat_map(|dc| (-max..=max).map(move |dr| (dc, dr)))
        .collect();
    all.sort_by_key(|&(dc, dr)| (dc.abs().max(dr.abs()), dc.abs() + dr.abs(), dc, dr));
    all
}

/// One turn of the book: the pair played, in how many games, and how many of them its player won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    pub pair: [Point; 2],
    pub games: u32,
    pub wins: u32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct OpeningBook {
    size: usize,
    /// Canonical position -> the turns played there (pairs in the canonical frame).
    positions: HashMap<StoneSets, Vec<BookMove>>,
    /// Stones of the book's largest position: a board with more is in no shift of the book.
    max_stones: usize,
    source: String,
}

impl OpeningBook {
    /// An empty book for boards of `size`; `source` says where its games came from.
    pub fn new(size: usize, source: &str) -> OpeningBook {
        OpeningBook {
            size,
            positions: HashMap::new(),
            max_stones: 0,
            source: source.replace(['\n', '\r'], " "),
        }
    }

    pub fn size(&self) -> usize {
        self.size
    }

    pub fn source(&self) -> &str {
        &self.source
    }

    /// Positions with at least one turn.
    pub fn position_count(&self) -> usize {
        self.positions.len()
    }

    /// Turns over all positions.
    pub fn move_count(&self) -> usize {
        self.positions.values().map(Vec::len).sum()
    }

    /// Adds a turn to a canonical position (the builder and the file reader).
    fn insert(&mut self, position: StoneSets, mv: BookMove) {
        self.max_stones = self.max_stones.max(position.0.len() + position.1.len());
        self.positions.entry(position).or_default().push(mv);
    }

    /// Every position with its turns, in a fixed order (for writing the file).
    fn sorted_positions(&self) -> Vec<(&StoneSets, &Vec<BookMove>)> {
        let mut all: Vec<_> = self.positions.iter().collect();
        let order = |p: &Point| (p.row, p.col);
        all.sort_by_key(|(k, _)| {
            (
                k.0.len() + k.1.len(),
                k.0.iter().map(order).collect::<Vec<_>>(),
                k.1.iter().map(order).collect::<Vec<_>>(),
            )
        });
        all
    }

    /// The book's turns for the position on `board`, in `board`'s orientation; empty when the
    /// position is not in the book or a turn is half played (the book answers whole turns).
    pub fn moves(&self, board: &Board) -> Vec<BookMove> {
        self.moves_shifted(board, 0)
    }

    /// As [`moves`](Self::moves), but a position not in the book may also match one that is,
    /// moved up to `max_shift` lines along each axis (the nearest such shift wins), when every
    /// stone of both lies at least [`SHIFT_MARGIN`] lines from every edge: the same opening
    /// played a few lines off the centre (a 3-stone opening, a first stone not on the centre)
    /// is answered as the experts answered it at the centre. The pairs come back shifted.
    pub fn moves_shifted(&self, board: &Board, max_shift: u32) -> Vec<BookMove> {
        if board.size() != self.size
            || board.is_over()
            || board.stage() != Stage::First
            || board.stone_count() > self.max_stones
        {
            return Vec::new();
        }
        let (mut black, mut white) = (Vec::new(), Vec::new());
        for (n, &p) in board.history().iter().enumerate() {
            match Board::color_of_stone(n) {
                crate::rules::Color::Black => black.push(p),
                crate::rules::Color::White => white.push(p),
            }
        }
        for (dc, dr) in shifts(max_shift.min(self.size as u32) as i32) {
            let moved = |stones: &[Point]| -> Option<Vec<Point>> {
                stones.iter().map(|&p| self.shifted(p, dc, dr)).collect()
            };
            let (Some(b), Some(w)) = (moved(&black), moved(&white)) else {
                continue;
            };
            if (dc, dr) != (0, 0) {
                let all = black.iter().chain(&white).chain(&b).chain(&w);
                if !all.into_iter().all(|&p| self.clear_of_edges(p)) {
                    continue;
                }
            }
            let (key, syms) = canonical(&b, &w, self.size);
            let Some(moves) = self.positions.get(&key) else {
                continue;
            };
            // Any symmetry onto the canonical form will do: the stored pairs were folded
            // under all of them.
            let back = syms[0].inverse();
            return moves
                .iter()
                .filter_map(|m| {
                    let [p, q] = m
                        .pair
                        .map(|p| self.shifted(back.apply(p, self.size), -dc, -dr));
                    Some(BookMove {
                        pair: [p?, q?],
                        ..*m
                    })
                })
                .collect();
        }
        Vec::new()
    }

    /// `p` moved `dc` columns and `dr` rows, if still on the board.
    fn shifted(&self, p: Point, dc: i32, dr: i32) -> Option<Point> {
        let on = |v: i32| (0..self.size as i32).contains(&v).then_some(v as u8);
        Some(Point::new(on(p.col as i32 + dc)?, on(p.row as i32 + dr)?))
    }

    fn clear_of_edges(&self, p: Point) -> bool {
        let inner = SHIFT_MARGIN..self.size.saturating_sub(SHIFT_MARGIN);
        inner.contains(&(p.col as usize)) && inner.contains(&(p.row as usize))
    }

    /// A turn for the position on `board`, drawn among the book's turns played in at least
    /// `min_games` games, in proportion to their games; `None` when there is none.
    /// `max_shift` as in [`moves_shifted`](Self::moves_shifted).
    pub fn choose(
        &self,
        board: &Board,
        min_games: u32,
        max_shift: u32,
        rng: &mut impl Rng,
    ) -> Option<[Point; 2]> {
        let candidates: Vec<BookMove> = self
            .moves_shifted(board, max_shift)
            .into_iter()
            .filter(|m| m.games >= min_games.max(1))
            .filter(|m| m.pair[0] != m.pair[1] && m.pair.iter().all(|&p| board.is_empty_at(p)))
            .collect();
        let total: u64 = candidates.iter().map(|m| u64::from(m.games)).sum();
        if total == 0 {
            return None;
        }
        let mut ticket = rng.gen_range(0..total);
        for m in &candidates {
            if ticket < u64::from(m.games) {
                return Some(m.pair);
            }
            ticket -= u64::from(m.games);
        }
        unreachable!("the ticket is below the total")
    }
}

#[cfg(test)]
mod tests;
