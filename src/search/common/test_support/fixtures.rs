//! Positions shared by the search tests (MCTS, playouts, alpha-beta).

use crate::rules::{Board, Point};

pub(crate) fn p(c: u8, r: u8) -> Point {
    Point::new(c, r)
}

/// The standard board after `stones`, played in order (B, WW, BB, ...).
pub(crate) fn board_of(stones: &[Point]) -> Board {
    let mut b = Board::standard();
    for &q in stones {
        b.play(q).unwrap();
    }
    b
}

/// Black: row 9 from 9 to 12 (four), White scattered: Black to play two stones.
pub(crate) fn black_four() -> Vec<Point> {
    vec![
        p(9, 9),
        p(0, 0),
        p(0, 2),
        p(10, 9),
        p(11, 9),
        p(0, 4),
        p(0, 6),
        p(12, 9),
        p(3, 3),
        p(0, 8),
        p(0, 10),
    ]
}

/// White: a live four on row 5 (3..=6), Black scattered: Black to play two stones, no threat
/// of its own.
pub(crate) fn white_live_four() -> Vec<Point> {
    vec![
        p(9, 9),
        p(3, 5),
        p(4, 5),
        p(15, 15),
        p(15, 13),
        p(5, 5),
        p(6, 5),
    ]
}
