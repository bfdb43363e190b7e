//! A stone's budget: which time applies (the clock, the configured turn time that the Connect6
//! protocol's games use, a time per stone, or none), and the turn's split between its two stones.
//!
//! Connect6 turns have two stones and GTP asks for them one at a time, so the clock plans a
//! whole turn and splits it: the first stone gets `first_stone_share` of the turn (it decides
//! the pair; the tree it builds is reused for the second), the second stone the rest. In main
//! time the second stone's turn is planned afresh from the clock, so it gets a whole turn and a
//! turn may take 1 + `first_stone_share` planned turns; the plan counts the turns of both
//! sides, max(turn_horizon − turn, min_turns_left), so the two roughly cancel (measured as a
//! whole: docs/time-control.md). A lag margin is kept back from every
//! deadline so the controller's clock, which also counts pipe and process delays, never
//! runs out; it scales with the time at stake (never more than a tenth of a turn), so short
//! budgets keep most of their time. No turn plans more than `max_turn_time`, however large
//! the clock (a 30-year main time must not give a 30-year search).

use super::clock::Clock;
use super::Limits;
use crate::rules::{Board, Stage};
use std::time::Duration;

impl Clock {
    /// Budget for the next stone of the side to move.
    pub fn stone_budget(&self, board: &Board) -> Limits {
        let share = self.share(board);
        let first_of_pair = board.stage() == Stage::First && board.stone_count() > 0;
        let (time, banked, extension) = match self.limited() {
            Some(settings) => {
                let left = self.time_left(board.to_move(), &settings);
                // Main time banks what a stone leaves; a period banks it for its later stones.
                let banked = left.stones != 1;
                let (time, extension) = self.clock_budget(board, &settings, share);
                (Some(time), banked, extension)
            }
            None => match self.default_turn_time {
                Some(turn) => (
                    Some(self.turn_time_budget(board, turn, share)),
                    first_of_pair,
                    None,
                ),
                None => (self.default_stone_time, false, None),
            },
        };
        Limits {
            banked: banked && time.is_some(),
            extension,
            ..Limits::with_time(time.map(|t| t.max(self.policy.min_stone_time)))
        }
    }

    /// A stone's part of a fixed turn time: the first stone its share, the second what the
    /// first left (its share when the first was not the engine's own).
    fn turn_time_budget(&self, board: &Board, turn: Duration, share: f64) -> Duration {
        match self.turn_first {
            Some((after_first, used))
                if board.stage() == Stage::Second && after_first == board.stone_count() =>
            {
                turn.saturating_sub(used)
            }
            _ => turn.mul_f64(share),
        }
    }

    /// Part of the turn's budget that goes to this stone.
    fn share(&self, board: &Board) -> f64 {
        let first = self.policy.first_stone_share.clamp(0.05, 0.95);
        match board.stage() {
            Stage::First if board.stone_count() == 0 => 1.0,
            Stage::First => first,
            Stage::Second => 1.0 - first,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Color, Point};
    use crate::search::common::time_control::test_support::{board_with, clock, secs};
    use crate::search::common::time_control::{TimeLeft, TimeSettings};

    #[test]
    fn no_clock_uses_config_turn_time_split_over_the_pair() {
        let mut c = Clock::default();
        assert_eq!(c.stone_budget(&board_with(3)).time, None);
        c.default_stone_time = Some(secs(1.0));
        assert_eq!(c.stone_budget(&board_with(3)).time, Some(secs(1.0)));
        c.default_turn_time = Some(secs(10.0));
        let first = c.stone_budget(&board_with(3)).time.unwrap();
        let second = c.stone_budget(&board_with(4)).time.unwrap();
        assert!(first > second);
        assert!((first + second).as_secs_f64() - 10.0 < 1e-6);
        // GTP's "no limit" (time_settings 0 1 0) is no clock either.
        c.set_settings(TimeSettings {
            main: Duration::ZERO,
            byo_yomi: secs(1.0),
            byo_yomi_stones: 0,
        });
        assert_eq!(c.stone_budget(&board_with(4)).time, Some(second));
    }

    #[test]
    fn a_turn_time_gives_the_second_stone_what_the_first_left() {
        let mut c = Clock {
            default_turn_time: Some(secs(10.0)),
            ..Clock::default()
        };
        let first = board_with(3);
        let budget = c.stone_budget(&first);
        assert_eq!(budget.time, Some(secs(6.0)));
        assert!(
            budget.banked,
            "the first stone's leftover goes to the second"
        );
        let mut second = first.clone();
        second.play(Point::new(5, 5)).unwrap();
        c.record_turn_stone(&second, secs(1.5));
        let budget = c.stone_budget(&second);
        assert_eq!(budget.time, Some(secs(8.5)));
        assert!(!budget.banked, "the turn's last stone keeps nothing back");
        // Not our first stone (or another game): the second stone's own share.
        c.turn_first = Some((7, secs(1.5)));
        assert_eq!(c.stone_budget(&second).time, Some(secs(4.0)));
        // A budget per stone banks nothing.
        let c = Clock {
            default_stone_time: Some(secs(1.0)),
            ..Clock::default()
        };
        assert!(!c.stone_budget(&first).banked);
        assert!(
            !Clock::default().stone_budget(&first).banked,
            "no clock at all"
        );
    }

    #[test]
    fn clocks_bank_what_a_later_stone_can_use() {
        // time_settings 0 1 2: the period's first stone banks, its last does not.
        let mut c = clock(0.0, 1.0, 2);
        let b = board_with(3);
        assert!(c.stone_budget(&b).banked);
        c.set_time_left(
            Color::Black,
            TimeLeft {
                time: secs(0.6),
                stones: 1,
            },
        );
        let mut second = b.clone();
        second.play(Point::new(5, 5)).unwrap();
        let last = c.stone_budget(&second);
        assert!(!last.banked);
        // The rest of the period, less a tenth: the first stone's leftover carries.
        assert!((last.time.unwrap().as_secs_f64() - 0.54).abs() < 1e-9);
        // Main time banks for later turns, whether byo-yomi follows or not.
        assert!(clock(60.0, 0.0, 0).stone_budget(&second).banked);
        assert!(clock(60.0, 30.0, 5).stone_budget(&second).banked);
    }
}
