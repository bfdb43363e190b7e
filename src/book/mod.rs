//! The opening book: the turns strong players chose in the first turns of their games, counted
//! over a collection of records (`liuzi-book` builds it, `engine.book` names the file).
//!
//! On a near-empty board the search's playouts cannot tell the pairs apart (issue 17: given
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
    source: String,
}

impl OpeningBook {
    /// An empty book for boards of `size`; `source` says where its games came from.
    pub fn new(size: usize, source: &str) -> OpeningBook {
        OpeningBook {
            size,
            positions: HashMap::new(),
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
        if board.size() != self.size || board.is_over() || board.stage() != Stage::First {
            return Vec::new();
        }
        let (mut black, mut white) = (Vec::new(), Vec::new());
        for (n, &p) in board.history().iter().enumerate() {
            match Board::color_of_stone(n) {
                crate::rules::Color::Black => black.push(p),
                crate::rules::Color::White => white.push(p),
            }
        }
        let (key, syms) = canonical(&black, &white, self.size);
        let Some(moves) = self.positions.get(&key) else {
            return Vec::new();
        };
        // Any symmetry onto the canonical form will do: the stored pairs were folded under all
        // of them.
        let back = syms[0].inverse();
        moves
            .iter()
            .map(|m| BookMove {
                pair: m.pair.map(|p| back.apply(p, self.size)),
                ..*m
            })
            .collect()
    }

    /// A turn for the position on `board`, drawn among the book's turns played in at least
    /// `min_games` games, in proportion to their games; `None` when there is none.
    pub fn choose(&self, board: &Board, min_games: u32, rng: &mut impl Rng) -> Option<[Point; 2]> {
        let candidates: Vec<BookMove> = self
            .moves(board)
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
