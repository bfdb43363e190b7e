//! What the controller and the configuration say about time: the clock's settings
//! (GTP time_settings), what a side has left (GTP time_left), and the time policy (the config's
//! time section).

use std::time::Duration;

/// GTP `time_settings main byo_yomi stones`: Canadian byo-yomi when `stones > 0`;
/// `byo_yomi > 0, stones == 0` means no time limit (GTP's convention). Japanese byo-yomi
/// (one stone per period) is `stones == 1`.
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

    pub(super) fn has_byo_yomi(&self) -> bool {
        self.byo_yomi > Duration::ZERO && self.byo_yomi_stones > 0
    }

    /// The clock at the start of a game.
    pub(super) fn initial(&self) -> TimeLeft {
        if self.main > Duration::ZERO || !self.has_byo_yomi() {
            TimeLeft {
                time: self.main,
                stones: 0,
            }
        } else {
            self.new_period()
        }
    }

    pub(super) fn new_period(&self) -> TimeLeft {
        TimeLeft {
            time: self.byo_yomi,
            stones: self.byo_yomi_stones,
        }
    }
}

/// What a side has left: seconds and, in byo-yomi, stones to play in that period (0 = main time).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct TimeLeft {
    pub time: Duration,
    pub stones: u32,
}

/// Longest turn a clock may plan: ten minutes, far above any tournament's turn time.
pub const MAX_TURN_TIME: Duration = Duration::from_secs(600);

/// How the clock spends time (config keys of the time section).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimePolicy {
    /// Kept back from every deadline for pipe and process lag.
    pub lag: Duration,
    /// Turns a game is assumed to last...
    pub turn_horizon: u32,
    /// ...but never plan for fewer than this many turns left.
    pub min_turns_left: u32,
    /// Part of a two-stone turn's budget the first stone gets.
    pub first_stone_share: f64,
    /// No budget is smaller than this (a search always gets a few playouts).
    pub min_stone_time: Duration,
    /// No turn is planned longer than this, whatever the clock says.
    pub max_turn_time: Duration,
    /// In main time, a stone whose choice is still close at its planned time may run on for up
    /// to this multiple of that time (0 = never).
    pub unsettled_extension: f64,
}

impl Default for TimePolicy {
    fn default() -> Self {
        TimePolicy {
            lag: Duration::from_millis(300),
            turn_horizon: 16,
            min_turns_left: 10,
            first_stone_share: 0.6,
            min_stone_time: Duration::from_millis(10),
            max_turn_time: MAX_TURN_TIME,
            unsettled_extension: 0.0,
        }
    }
}
