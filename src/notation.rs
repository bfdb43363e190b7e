//! Text forms of board points in every notation Liuzi reads or writes.
//!
//! | notation | centre of 19x19 | columns | rows |
//! |---|---|---|---|
//! | GTP vertex | `K10` | A-T without I | 1.. from the bottom |
//! | `.games` records | `j10` | a-s with i | 1.. from the bottom |
//! | Cloudict wire | `JJ` | 1st letter, A = left | 2nd letter, A = bottom |
//! | SAU wire | `JJ` | 1st letter, A = left | 2nd letter, A = top |
//! | SGF | `jj` | 1st letter, a = left | 2nd letter, a = top |
//! | CCGC record | `J,10` | A-S with I | 1.. from the bottom |
//!
//! Every parser takes the board size and refuses points off the board; letters are read in any case.

use crate::rules::Point;

const GTP_COLUMNS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

fn in_range(col: i32, row: i32, size: usize) -> Option<Point> {
    if col < 0 || row < 0 || col >= size as i32 || row >= size as i32 {
        None
    } else {
        Some(Point::new(col as u8, row as u8))
    }
}

fn letter_value(c: char) -> Option<i32> {
    let c = c.to_ascii_uppercase();
    c.is_ascii_uppercase().then(|| c as i32 - 'A' as i32)
}

fn parse_row_number(text: &str) -> Option<i32> {
    if text.is_empty() || text.len() > 2 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse::<i32>().ok().map(|n| n - 1)
}

/// Parses a GTP vertex such as `K10` or `k10` (no `I` column).
pub fn parse_gtp(text: &str, size: usize) -> Option<Point> {
    let mut chars = text.chars();
    let letter = chars.next()?.to_ascii_uppercase();
    let col = GTP_COLUMNS.iter().position(|&c| c as char == letter)? as i32;
    in_range(col, parse_row_number(chars.as_str())?, size)
}

pub fn format_gtp(p: Point) -> String {
    format!(
        "{}{}",
        GTP_COLUMNS[p.col as usize] as char,
        p.row as u32 + 1
    )
}

/// Parses a `.games` point such as `j10` (columns a-s with i, row 1 at the bottom).
pub fn parse_games(text: &str, size: usize) -> Option<Point> {
    let mut chars = text.chars();
    let col = letter_value(chars.next()?)?;
    in_range(col, parse_row_number(chars.as_str())?, size)
}

pub fn format_games(p: Point) -> String {
    format!("{}{}", (b'a' + p.col) as char, p.row as u32 + 1)
}

/// How the two letters of a Connect6-protocol stone are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum LetterOrder {
    /// Cloudict: column from the left, then row from the bottom (the canonical reading).
    #[default]
    Cloudict,
    /// SAU platform: x from the left, then y from the top.
    Sau,
}

/// Parses one two-letter Connect6-protocol stone such as `JJ`.
pub fn parse_c6_stone(text: &str, size: usize, order: LetterOrder) -> Option<Point> {
    let mut chars = text.chars();
    let a = letter_value(chars.next()?)?;
    let b = letter_value(chars.next()?)?;
    if chars.next().is_some() {
        return None;
    }
    match order {
        LetterOrder::Cloudict => in_range(a, b, size),
        LetterOrder::Sau => in_range(a, size as i32 - 1 - b, size),
    }
}

pub fn format_c6_stone(p: Point, size: usize, order: LetterOrder) -> String {
    let row = match order {
        LetterOrder::Cloudict => p.row,
        LetterOrder::Sau => (size - 1) as u8 - p.row,
    };
    format!("{}{}", (b'A' + p.col) as char, (b'A' + row) as char)
}

/// Parses an SGF point such as `jj` (a = left, a = top), in either case.
pub fn parse_sgf(text: &str, size: usize) -> Option<Point> {
    let mut chars = text.chars();
    let col = letter_value(chars.next()?)?;
    let row_from_top = letter_value(chars.next()?)?;
    if chars.next().is_some() {
        return None;
    }
    in_range(col, size as i32 - 1 - row_from_top, size)
}

pub fn format_sgf(p: Point, size: usize) -> String {
    let row_from_top = (size - 1) as u8 - p.row;
    format!(
        "{}{}",
        (b'a' + p.col) as char,
        (b'a' + row_from_top) as char
    )
}

/// Parses a CCGC record point such as `J,10` (the text between the parentheses).
pub fn parse_ccgc(text: &str, size: usize) -> Option<Point> {
    let (letter, number) = text.split_once(',')?;
    let mut chars = letter.trim().chars();
    let col = letter_value(chars.next()?)?;
    if chars.next().is_some() {
        return None;
    }
    in_range(col, parse_row_number(number.trim())?, size)
}

pub fn format_ccgc(p: Point) -> String {
    format!("{},{}", (b'A' + p.col) as char, p.row as u32 + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn centre_reads_the_same_in_every_notation() {
        let centre = Point::new(9, 9);
        assert_eq!(parse_gtp("K10", 19), Some(centre));
        assert_eq!(parse_gtp("k10", 19), Some(centre));
        assert_eq!(format_gtp(centre), "K10");
        assert_eq!(parse_games("j10", 19), Some(centre));
        assert_eq!(
            parse_c6_stone("JJ", 19, LetterOrder::Cloudict),
            Some(centre)
        );
        assert_eq!(parse_c6_stone("JJ", 19, LetterOrder::Sau), Some(centre));
        assert_eq!(parse_sgf("jj", 19), Some(centre));
        assert_eq!(parse_ccgc("J,10", 19), Some(centre));
    }

    #[test]
    fn gtp_skips_i_and_checks_bounds() {
        assert_eq!(parse_gtp("J1", 19), Some(Point::new(8, 0)));
        assert_eq!(parse_gtp("I5", 19), None);
        assert_eq!(parse_gtp("T19", 19), Some(Point::new(18, 18)));
        assert_eq!(parse_gtp("T20", 19), None);
        assert_eq!(parse_gtp("A0", 19), None);
        assert_eq!(parse_gtp("K10", 9), None);
        assert_eq!(parse_gtp("A+1", 19), None);
        assert_eq!(parse_gtp("", 19), None);
    }

    #[test]
    fn round_trips() {
        for size in [6usize, 13, 19, 25] {
            for i in 0..size * size {
                let p = Point::from_index(i, size);
                assert_eq!(parse_gtp(&format_gtp(p), size), Some(p));
                assert_eq!(parse_games(&format_games(p), size), Some(p));
                assert_eq!(parse_sgf(&format_sgf(p, size), size), Some(p));
                assert_eq!(parse_ccgc(&format_ccgc(p), size), Some(p));
                for order in [LetterOrder::Cloudict, LetterOrder::Sau] {
                    assert_eq!(
                        parse_c6_stone(&format_c6_stone(p, size, order), size, order),
                        Some(p)
                    );
                }
            }
        }
    }

    #[test]
    fn sau_and_sgf_count_rows_from_the_top() {
        assert_eq!(
            parse_c6_stone("AA", 19, LetterOrder::Sau),
            Some(Point::new(0, 18))
        );
        assert_eq!(
            parse_c6_stone("AA", 19, LetterOrder::Cloudict),
            Some(Point::new(0, 0))
        );
        assert_eq!(parse_sgf("aa", 19), Some(Point::new(0, 18)));
    }
}
