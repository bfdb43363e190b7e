//! Game clocks as the protocols report them (GTP time_settings / time_left), and the engine's own
//! count of them between the controller's reports. The budgets a clock gives its stones are
//! planned in `stone_budget` and `clock_budget`.

use super::settings::{TimeLeft, TimePolicy, TimeSettings};
use crate::rules::{Board, Color, Stage};
use std::time::Duration;

#[derive(Clone, Debug, Default)]
pub struct Clock {
    /// `None` until the controller sends time_settings: then config decides.
    pub settings: Option<TimeSettings>,
    pub left: [Option<TimeLeft>; 2],
    /// Per-stone time when no clock is known (from config).
    pub default_stone_time: Option<Duration>,
    /// Per-turn time when no clock is known (from config; the Connect6 protocol has no
    /// clock). Takes precedence over `default_stone_time`.
    pub default_turn_time: Option<Duration>,
    pub policy: TimePolicy,
    /// The first stone of the turn in progress: stones on the board after it, and the time it
    /// took. Without a clock the turn's second stone gets what the first left of the turn.
    pub turn_first: Option<(usize, Duration)>,
}

impl Clock {
    pub fn set_settings(&mut self, settings: TimeSettings) {
        self.settings = Some(settings);
        self.left = [None, None];
    }

    pub fn set_time_left(&mut self, color: Color, left: TimeLeft) {
        self.left[color.index()] = Some(left);
    }

    /// The clock settings when they limit time.
    pub(super) fn limited(&self) -> Option<TimeSettings> {
        self.settings.filter(|s| !s.is_unlimited())
    }

    pub(super) fn time_left(&self, color: Color, settings: &TimeSettings) -> TimeLeft {
        self.left[color.index()].unwrap_or_else(|| settings.initial())
    }

    /// Counts `elapsed` against `color`'s clock, as a controller would, until the controller
    /// reports the real figure with time_left.
    pub fn record_stone(&mut self, color: Color, elapsed: Duration) {
        let Some(settings) = self.limited() else {
            return;
        };
        let mut left = self.time_left(color, &settings);
        if left.stones == 0 {
            if let Some(rest) = left.time.checked_sub(elapsed) {
                left.time = rest;
            } else if settings.has_byo_yomi() {
                // Main time ran out during this stone: the rest came out of the first period.
                let over = elapsed - left.time;
                left = settings.new_period();
                left.time = left.time.saturating_sub(over);
                left.stones -= 1;
                if left.stones == 0 {
                    left = settings.new_period();
                }
            } else {
                left.time = Duration::ZERO;
            }
        } else {
            left.time = left.time.saturating_sub(elapsed);
            left.stones -= 1;
            if left.stones == 0 {
                // Period completed in time: a fresh one starts.
                left = settings.new_period();
            }
        }
        self.left[color.index()] = Some(left);
    }

    /// Notes a stone the engine played (`board` is after it), so that the turn's second stone
    /// can be given what the first left of the turn.
    pub fn record_turn_stone(&mut self, board: &Board, elapsed: Duration) {
        self.turn_first =
            (board.stage() == Stage::Second).then_some((board.stone_count(), elapsed));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::common::time_control::test_support::{clock, secs};

    #[test]
    fn own_bookkeeping_follows_main_time_into_byo_yomi() {
        let mut c = clock(10.0, 20.0, 2);
        c.record_stone(Color::Black, secs(4.0));
        assert_eq!(
            c.left[0],
            Some(TimeLeft {
                time: secs(6.0),
                stones: 0
            })
        );
        c.record_stone(Color::Black, secs(7.0));
        // 1 s into the first period, one of its two stones played.
        assert_eq!(
            c.left[0],
            Some(TimeLeft {
                time: secs(19.0),
                stones: 1
            })
        );
        c.record_stone(Color::Black, secs(5.0));
        // Period done: a fresh one.
        assert_eq!(
            c.left[0],
            Some(TimeLeft {
                time: secs(20.0),
                stones: 2
            })
        );
        // The controller's word wins.
        c.set_time_left(
            Color::Black,
            TimeLeft {
                time: secs(3.0),
                stones: 1,
            },
        );
        assert_eq!(
            c.left[0],
            Some(TimeLeft {
                time: secs(3.0),
                stones: 1
            })
        );
        // No clock: nothing recorded.
        let mut free = Clock::default();
        free.record_stone(Color::White, secs(1.0));
        assert_eq!(free.left[1], None);
    }
}
