//! Counting the opening turns of a collection of game records into a book.

use super::symmetry::{canonical, canonical_pair, StoneSets};
use super::{BookMove, OpeningBook};
use crate::records::GameRecord;
use crate::rules::{Color, Point};
use std::collections::HashMap;

#[derive(Clone, Copy, Debug)]
pub struct BuildOptions {
    /// Board size of the book; records of other sizes are skipped.
    pub size: usize,
    /// Turns counted after Black's opening stone: 1 = White's first pair only, 2 = and
    /// Black's reply, ...
    pub turns: usize,
    /// A turn is kept when played in at least this many games of its position.
    pub min_games: u32,
}

/// What the records gave.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BuildStats {
    pub games_used: usize,
    /// Records of another size, or whose opening stones do not replay (a stone on a taken point).
    pub games_skipped: usize,
}

/// The book of `records`' first `options.turns` turns after the opening stone. Every record
/// counts, whatever its result; a turn's `wins` are the games its player won.
pub fn build<'a>(
    records: impl IntoIterator<Item = &'a GameRecord>,
    options: BuildOptions,
    source: &str,
) -> (OpeningBook, BuildStats) {
    let mut counts: HashMap<(StoneSets, [Point; 2]), (u32, u32)> = HashMap::new();
    let mut stats = BuildStats::default();
    for record in records {
        let Some(turns) = opening_turns(record, options) else {
            stats.games_skipped += 1;
            continue;
        };
        stats.games_used += 1;
        let winner = record.result.winner();
        let (mut black, mut white) = (Vec::new(), Vec::new());
        for (t, stones) in turns.iter().enumerate() {
            let mover = if t % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            if let [a, b] = stones[..] {
                if t > 0 {
                    let (key, syms) = canonical(&black, &white, options.size);
                    let pair = canonical_pair([a, b], &syms, options.size);
                    let entry = counts.entry((key, pair)).or_default();
                    entry.0 += 1;
                    entry.1 += u32::from(winner == Some(mover));
                }
            }
            match mover {
                Color::Black => black.extend_from_slice(stones),
                Color::White => white.extend_from_slice(stones),
            }
        }
    }
    let mut book = OpeningBook::new(options.size, source);
    for ((position, pair), (games, wins)) in counts {
        if games >= options.min_games.max(1) {
            book.insert(position, BookMove { pair, games, wins });
        }
    }
    for moves in book.positions.values_mut() {
        moves.sort_by_key(|m| (std::cmp::Reverse(m.games), m.pair.map(|p| (p.row, p.col))));
    }
    (book, stats)
}

/// The record's opening stone and its next `turns` turns (fewer if the game is shorter), or
/// `None` when the record is of another size or they do not replay.
fn opening_turns(record: &GameRecord, options: BuildOptions) -> Option<Vec<&[Point]>> {
    if record.size != options.size {
        return None;
    }
    let turns: Vec<&[Point]> = record.turns().take(options.turns + 1).collect();
    let mut seen = std::collections::HashSet::new();
    let on_board = |p: &Point| (p.col as usize) < options.size && (p.row as usize) < options.size;
    for &p in turns.iter().flat_map(|t| t.iter()) {
        if !on_board(&p) || !seen.insert(p) {
            return None;
        }
    }
    Some(turns)
}
