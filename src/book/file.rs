//! The book file: versioned text with a checksum, written atomically (the checked-file layout of
//! [`crate::artifact`]).
//!
//! ```text
//! liuzi-book 1
//! spec liuzi-book:v1
//! source <one line: the records and command it came from>
//! size 19
//! move <Black's stones> <White's stones> <pair> <games> <wins>
//! ...
//! checksum <CRC-32 of every byte before this line, 8 hex digits>
//! ```
//! A `move` line is one turn of one position, in the position's canonical orientation: the
//! stones in `.games` notation (`j10`, columns a-s with i), comma-separated, `-` for none; the
//! pair as `a-b`; the games that played it and how many its player won.

use super::symmetry::{canonical, canonical_pair};
use super::{BookMove, OpeningBook};
use crate::artifact::{ErrorKind, FileError, Format};
use crate::notation::{format_games, parse_games};
use crate::rules::{Point, MAX_SIZE, MIN_SIZE};
use std::fmt::Write as _;
use std::path::Path;

pub const BOOK_FORMAT_VERSION: u32 = 1;

const BOOK_FORMAT: Format = Format {
    noun: "book file",
    magic: "liuzi-book",
    version: BOOK_FORMAT_VERSION,
};

const SPEC: &str = "liuzi-book:v1";

/// Largest book read: the shipped one is ~100 KB.
const MAX_MOVES: usize = 1_000_000;

fn stones_text(stones: &[Point]) -> String {
    if stones.is_empty() {
        return "-".into();
    }
    stones
        .iter()
        .map(|&p| format_games(p))
        .collect::<Vec<_>>()
        .join(",")
}

impl OpeningBook {
    /// The file's text, checksum included.
    pub fn to_text(&self) -> String {
        let mut text = format!("source {}\nsize {}\n", self.source, self.size);
        for (position, moves) in self.sorted_positions() {
            for m in moves {
                let _ = writeln!(
                    text,
                    "move {} {} {}-{} {} {}",
                    stones_text(&position.0),
                    stones_text(&position.1),
                    format_games(m.pair[0]),
                    format_games(m.pair[1]),
                    m.games,
                    m.wins
                );
            }
        }
        BOOK_FORMAT.compose(SPEC, &text)
    }

    /// Writes the file atomically: a temporary file in the same directory, then a rename.
    pub fn save(&self, path: &Path) -> Result<(), FileError> {
        BOOK_FORMAT.save(path, &self.to_text())
    }

    /// Reads and checks a book file; errors name the file, and the line for a bad entry.
    pub fn load(path: &Path) -> Result<OpeningBook, FileError> {
        BOOK_FORMAT.load(path, OpeningBook::parse)
    }

    /// Parses the bytes of a book file.
    pub fn parse(bytes: &[u8]) -> Result<OpeningBook, ErrorKind> {
        let ((), payload) = BOOK_FORMAT.open(bytes, |spec| {
            if spec == SPEC {
                Ok(())
            } else {
                Err(format!("`{spec}`, but this build reads `{SPEC}`"))
            }
        })?;
        let mut lines = payload.lines();
        let mut next = |key: &str| -> Result<(usize, String), ErrorKind> {
            let (n, line) = lines
                .next()
                .ok_or_else(|| ErrorKind::Corrupt(format!("no `{key}` line")))?;
            let value = line
                .strip_prefix(key)
                .and_then(|rest| rest.strip_prefix(' '))
                .ok_or_else(|| ErrorKind::Corrupt(format!("line {n}: expected `{key} ...`")))?;
            Ok((n, value.to_string()))
        };
        let (_, source) = next("source")?;
        let (n, size) = next("size")?;
        let size: usize = size
            .parse()
            .ok()
            .filter(|s| (MIN_SIZE..=MAX_SIZE).contains(s))
            .ok_or_else(|| ErrorKind::Corrupt(format!("line {n}: bad board size `{size}`")))?;
        let mut book = OpeningBook::new(size, &source);
        let mut count = 0;
        for (n, line) in lines {
            let entry = parse_move(line, size)
                .map_err(|problem| ErrorKind::Corrupt(format!("line {n}: {problem}")))?;
            count += 1;
            if count > MAX_MOVES {
                return Err(ErrorKind::Corrupt(format!("more than {MAX_MOVES} moves")));
            }
            let (position, mv) = entry;
            let known = book.positions.get(&position);
            if known.is_some_and(|moves| moves.iter().any(|m| m.pair == mv.pair)) {
                return Err(ErrorKind::Corrupt(format!(
                    "line {n}: the same turn of the same position again"
                )));
            }
            book.insert(position, mv);
        }
        Ok(book)
    }
}

/// One `move` line: a canonical position and a turn played there, both checked.
fn parse_move(line: &str, size: usize) -> Result<(super::StoneSets, BookMove), String> {
    let words: Vec<&str> = line.split(' ').collect();
    let ["move", black, white, pair, games, wins] = words[..] else {
        return Err("expected `move <black> <white> <pair> <games> <wins>`".into());
    };
    let stones = |text: &str| -> Result<Vec<Point>, String> {
        if text == "-" {
            return Ok(Vec::new());
        }
        text.split(',')
            .map(|s| parse_games(s, size).ok_or_else(|| format!("bad point `{s}`")))
            .collect()
    };
    let (black, white) = (stones(black)?, stones(white)?);
    let pair: Vec<Point> = pair
        .split('-')
        .map(|s| parse_games(s, size).ok_or_else(|| format!("bad point `{s}` in the pair")))
        .collect::<Result<_, _>>()?;
    let [a, b] = pair[..] else {
        return Err("the pair must be two points `a-b`".into());
    };
    let games: u32 = games
        .parse()
        .ok()
        .filter(|&g| g > 0)
        .ok_or_else(|| format!("bad game count `{games}`"))?;
    let wins: u32 = wins
        .parse()
        .ok()
        .filter(|&w| w <= games)
        .ok_or_else(|| format!("bad win count `{wins}` (at most the games, {games})"))?;
    // Colours alternate: Black opens with one stone, then pairs; the side to move has no more
    // stones than that allows, every point is distinct, and all is in canonical form (the
    // engine looks positions up by it).
    let (blacks, whites) = (black.len(), white.len());
    if blacks % 2 != 1 || (blacks != whites + 1 && blacks + 1 != whites) {
        return Err("not a position at the start of a turn".into());
    }
    let mut all: Vec<Point> = black.iter().chain(&white).copied().collect();
    all.extend([a, b]);
    let total = all.len();
    all.sort_by_key(|p| (p.row, p.col));
    all.dedup();
    if all.len() != total {
        return Err("a point appears twice".into());
    }
    let (key, syms) = canonical(&black, &white, size);
    if key != (black.clone(), white.clone()) || canonical_pair([a, b], &syms, size) != [a, b] {
        return Err("the position or pair is not in canonical form".into());
    }
    Ok((
        (black, white),
        BookMove {
            pair: [a, b],
            games,
            wins,
        },
    ))
}
