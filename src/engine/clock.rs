//! Game clocks as the protocols report them (GTP time_settings / time_left), turned into a
//! per-stone thinking budget.

use super::StoneBudget;
use crate::rules::{Board, Color};
use std::time::Duration;

/// GTP `time_settings main byo_yomi stones`: Canadian byo-yomi when `stones > 0`;
/// `byo_yomi > 0, stones == 0` means no time limit (GTP's convention).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct TimeSettings {
    pub main: Duration,
    pub byo_yomi: Duration,
    pub byo_yomi_stones: u32,
}

impl TimeSettings {
    pub fn is_unlimited(&self) -> bool {
        self.byo_yomi > Duration::ZERO && self.byo_yomi_stones == 0
    }
}

/// What a side has left: seconds and, in byo-yomi, stones to play in that period (0 = main time).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct TimeLeft {
    pub time: Duration,
    pub stones: u32,
}

#[derive(Clone, Debug, Default)]
pub struct Clock {
    /// `None` until the controller sends time_settings: then config decides.
    pub settings: Option<TimeSettings>,
    pub left: [Option<TimeLeft>; 2],
    /// Per-stone time when no clock is known (from config).
    pub default_stone_time: Option<Duration>,
}

impl Clock {
    pub fn set_settings(&mut self, settings: TimeSettings) {
        self.settings = Some(settings);
        self.left = [None, None];
    }

    pub fn set_time_left(&mut self, color: Color, left: TimeLeft) {
        self.left[color.index()] = Some(left);
    }

    /// Budget for the next stone of the side to move.
    pub fn stone_budget(&self, board: &Board) -> StoneBudget {
        let _ = board;
        StoneBudget {
            time: self.default_stone_time,
        }
    }
}
