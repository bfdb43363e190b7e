//! Clocks and boards for the time-control tests.

use super::{Clock, TimeSettings};
use crate::rules::{Board, Point};
use std::time::Duration;

pub(super) fn secs(s: f64) -> Duration {
    Duration::from_secs_f64(s)
}

/// A board with `n` stones on it (the side to move and stage follow from `n`).
pub(super) fn board_with(n: usize) -> Board {
    let mut b = Board::standard();
    for i in 0..n {
        b.play(Point::new((i % 19) as u8, (2 * (i / 19)) as u8))
            .unwrap();
    }
    b
}

pub(super) fn clock(main: f64, byo: f64, stones: u32) -> Clock {
    let mut c = Clock::default();
    c.set_settings(TimeSettings {
        main: secs(main),
        byo_yomi: secs(byo),
        byo_yomi_stones: stones,
    });
    c
}
