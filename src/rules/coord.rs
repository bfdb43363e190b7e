//! Colours and board points. Text forms of points live in `crate::notation`.

use std::fmt;

/// Board sizes Liuzi plays: 6x6 up to 25x25.
pub const MIN_SIZE: usize = 6;
pub const MAX_SIZE: usize = 25;

/// A player's colour. Black places one stone first, then each side places two a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    Black,
    White,
}

impl Color {
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White: for tables indexed by colour.
    pub fn index(self) -> usize {
        self as usize
    }

    /// Parses `b`, `w`, `black`, `white` in any case.
    pub fn parse(text: &str) -> Option<Color> {
        match text.to_ascii_lowercase().as_str() {
            "b" | "black" => Some(Color::Black),
            "w" | "white" => Some(Color::White),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }

    /// `B` or `W`, as SGF and GTP write it.
    pub fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A point on the board: column and row, both from 0, row 0 at the bottom, column 0 at the left.
/// Its flat index for a board of size `n` is `row * n + col`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    pub col: u8,
    pub row: u8,
}

impl Point {
    pub const fn new(col: u8, row: u8) -> Point {
        Point { col, row }
    }

    pub fn index(self, size: usize) -> usize {
        self.row as usize * size + self.col as usize
    }

    pub fn from_index(index: usize, size: usize) -> Point {
        Point::new((index % size) as u8, (index / size) as u8)
    }

    /// The point `steps` away in direction `(dc, dr)`, if it is still on a board of `size`.
    pub fn offset(self, dc: i32, dr: i32, steps: i32, size: usize) -> Option<Point> {
        let c = self.col as i32 + dc * steps;
        let r = self.row as i32 + dr * steps;
        if c < 0 || r < 0 || c >= size as i32 || r >= size as i32 {
            None
        } else {
            Some(Point::new(c as u8, r as u8))
        }
    }

    /// Chebyshev distance (king moves).
    pub fn distance(self, other: Point) -> u32 {
        let dc = (self.col as i32 - other.col as i32).unsigned_abs();
        let dr = (self.row as i32 - other.row as i32).unsigned_abs();
        dc.max(dr)
    }
}
