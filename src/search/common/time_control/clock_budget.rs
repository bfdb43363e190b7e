//! A stone's time from a running clock: a byo-yomi period shared by its stones, main time spread
//! over the turns to come (with the period after it, or the sudden-death reserve), and the time
//! main time lends a stone whose choice is close.

use super::clock::Clock;
use super::margins::{lag_margin, sudden_death_reserve};
use super::settings::TimeSettings;
use crate::rules::{Board, Stage};
use std::time::Duration;

impl Clock {
    /// A stone's time from a clock, and in main time how much longer it may run while its
    /// choice is close (`unsettled_extension`; never past what the clock allows this stone).
    pub(super) fn clock_budget(
        &self,
        board: &Board,
        settings: &TimeSettings,
        share: f64,
    ) -> (Duration, Option<Duration>) {
        let p = &self.policy;
        let margin = |at_stake: Duration| lag_margin(p.lag, at_stake);
        let left = self.time_left(board.to_move(), settings);
        let stones_this_turn = match board.stage() {
            Stage::First if board.stone_count() > 0 => 2,
            _ => 1,
        };
        let stone_of = |turn: Duration, stones: u32| {
            if stones == 1 {
                turn
            } else {
                turn.mul_f64(share)
            }
        };
        if left.stones > 0 {
            // In a byo-yomi period: the period's time covers its stones; the turn's stones
            // (those still in this period) share their part.
            let in_period = stones_this_turn.min(left.stones);
            let raw = left.time / left.stones * in_period;
            let turn = (raw - margin(raw)).min(p.max_turn_time);
            return (
                stone_of(turn, in_period).min(left.time - margin(left.time)),
                None,
            );
        }
        let turn_index = (board.stone_count() as u32).div_ceil(2);
        let turns_left = p
            .turn_horizon
            .saturating_sub(turn_index)
            .max(p.min_turns_left)
            .max(1);
        // Sudden death: what every stone the side may still have to play costs at the least is
        // kept back, so that a game played to a full board never runs past the clock (before
        // this, such games ended with each stone taking the 10 ms floor from an empty clock).
        let reserve = if settings.has_byo_yomi() {
            Duration::ZERO
        } else {
            sudden_death_reserve(p.min_stone_time, board)
        };
        let usable = left.time.saturating_sub(reserve);
        let raw = usable / turns_left;
        let mut turn = raw - margin(raw);
        let mut cap = usable - margin(usable);
        if settings.has_byo_yomi() {
            // Byo-yomi still comes after main time: each turn may count on its share of a
            // period (Leela Zero's max_time_for_move), and a stone may run into the period.
            let period_per_stone = settings.byo_yomi / settings.byo_yomi_stones;
            let period_turn = period_per_stone * stones_this_turn;
            turn += period_turn - margin(period_turn);
            cap = left.time + period_per_stone - margin(period_per_stone);
        }
        let time = stone_of(turn.min(p.max_turn_time), stones_this_turn).min(cap);
        // Lent by the later turns of the horizon: at most this stone's time again, times the
        // setting, and no further than the cap.
        let extension = time
            .mul_f64(p.unsettled_extension)
            .min(cap.saturating_sub(time))
            .min(p.max_turn_time.saturating_sub(time));
        (time, (!extension.is_zero()).then_some(extension))
    }
}

#[cfg(test)]
mod tests {
    use super::super::margins::{own_stones_left, STONE_OVERHEAD};
    use super::super::settings::{TimeLeft, MAX_TURN_TIME};
    use super::*;
    use crate::rules::{Color, Point};
    use crate::search::common::time_control::test_support::{board_with, clock, secs};

    #[test]
    fn only_main_time_lends_a_close_choice_more_time_and_never_past_the_clock() {
        let b = board_with(3);
        let with = |mut c: Clock, extension: f64| {
            c.policy.unsettled_extension = extension;
            c.stone_budget(&b)
        };
        // Off by default; then the planned time again (the setting's multiple).
        assert_eq!(with(clock(300.0, 0.0, 0), 0.0).extension, None);
        let budget = with(clock(300.0, 0.0, 0), 1.0);
        assert_eq!(budget.extension, budget.time);
        let half = with(clock(300.0, 0.0, 0), 0.5);
        assert_eq!(half.extension, Some(half.time.unwrap().mul_f64(0.5)));
        // Byo-yomi periods, fixed turn times and no clock: the time is the deadline.
        assert_eq!(with(clock(0.0, 2.0, 2), 1.0).extension, None);
        let mut fixed = Clock {
            default_turn_time: Some(secs(1.0)),
            ..Clock::default()
        };
        fixed.policy.unsettled_extension = 1.0;
        assert_eq!(fixed.stone_budget(&b).extension, None);
        // Little main time left: the stone and its extension together stay within the clock.
        let mut c = clock(300.0, 0.0, 0);
        c.policy.unsettled_extension = 4.0;
        for left in [0.05, 0.5, 3.0] {
            c.set_time_left(
                Color::Black,
                TimeLeft {
                    time: secs(left),
                    stones: 0,
                },
            );
            let budget = c.stone_budget(&b);
            let total = budget.time.unwrap() + budget.extension.unwrap_or_default();
            let cap =
                (secs(left) - lag_margin(c.policy.lag, secs(left))).max(c.policy.min_stone_time);
            assert!(total <= cap, "{total:?} > {cap:?} with {left} s left");
        }
    }

    #[test]
    fn absolute_time_spreads_over_the_expected_turns_and_never_exceeds_the_clock() {
        let mut c = clock(300.0, 0.0, 0);
        let b = board_with(3);
        let t = c.stone_budget(&b).time.unwrap().as_secs_f64();
        // Turn 2 of a 16-turn horizon: 300 s, less 12 ms for each of the 180 stones Black may
        // still place, over 14 turns, less the lag; 60% for the first stone.
        assert_eq!(own_stones_left(&b), 180);
        assert!(
            (t - 0.6 * ((300.0 - 2.16) / 14.0 - 0.3)).abs() < 1e-3,
            "{t}"
        );
        for left in [0.0, 0.1, 0.5, 2.0, 20.0] {
            c.set_time_left(
                Color::Black,
                TimeLeft {
                    time: secs(left),
                    stones: 0,
                },
            );
            let t = c.stone_budget(&b).time.unwrap();
            let cap =
                (secs(left) - lag_margin(c.policy.lag, secs(left))).max(c.policy.min_stone_time);
            assert!(t <= cap, "{t:?} > {cap:?} with {left} s left");
        }
        // Late in the game the horizon floor keeps budgets sane.
        c.set_time_left(
            Color::Black,
            TimeLeft {
                time: secs(100.0),
                stones: 0,
            },
        );
        let late = c.stone_budget(&board_with(83)).time.unwrap().as_secs_f64();
        // 140 stones still possible keep 1.68 s back.
        assert!(
            (late - 0.6 * ((100.0 - 1.68) / 10.0 - 0.3)).abs() < 1e-3,
            "{late}"
        );
    }

    #[test]
    fn sudden_death_lasts_to_a_full_board() {
        // White plays a whole 19x19 game under a 20 s sudden-death clock, every stone taking
        // its full budget and 2 ms more: the clock never runs out (each stone's budget fits in
        // what is left), however long the game. Stones go on a pattern without six in a row
        // ((x + 2y) mod 4 < 2 for Black), so the board fills without a winner.
        let mut c = clock(20.0, 0.0, 0);
        let mut b = Board::standard();
        let (mut black, mut white): (Vec<Point>, Vec<Point>) = (0..19u8)
            .flat_map(|y| (0..19u8).map(move |x| Point::new(x, y)))
            .partition(|p| (p.col as usize + 2 * p.row as usize) % 4 < 2);
        let mut left = secs(20.0);
        while let Some(point) = match b.to_move() {
            Color::Black => black.pop(),
            Color::White => white.pop(),
        } {
            if b.to_move() == Color::White {
                c.set_time_left(
                    Color::White,
                    TimeLeft {
                        time: left,
                        stones: 0,
                    },
                );
                let budget = c.stone_budget(&b).time.unwrap();
                let spent = budget + STONE_OVERHEAD;
                assert!(
                    spent <= left,
                    "stone {}: {spent:?} with {left:?} left",
                    b.stone_count() + 1
                );
                left -= spent;
            }
            b.play(point).unwrap();
        }
        assert!(b.stone_count() > 340, "{} stones", b.stone_count());
        // The price at this short clock: 2.17 s kept back for 181 stones, so White's first
        // stone plans 0.64 s where 20 s / 15 turns would give 0.8 s (at 30 minutes: 0.1%).
        let first = clock(20.0, 0.0, 0)
            .stone_budget(&board_with(1))
            .time
            .unwrap();
        assert!(first > secs(0.75 * 0.6 * 20.0 / 15.0), "{first:?}");
    }

    #[test]
    fn byo_yomi_period_is_shared_by_its_stones() {
        let mut c = clock(0.0, 30.0, 10);
        // White's first stone of a turn, fresh period: 3 s per stone, the pair gets 6 s.
        let b = board_with(1);
        assert_eq!(b.to_move(), Color::White);
        let first = c.stone_budget(&b).time.unwrap().as_secs_f64();
        assert!((first - 0.6 * (6.0 - 0.3)).abs() < 1e-3, "{first}");
        // Last stone of a period gets everything but the lag.
        c.set_time_left(
            Color::White,
            TimeLeft {
                time: secs(4.0),
                stones: 1,
            },
        );
        let last = c.stone_budget(&b).time.unwrap().as_secs_f64();
        assert!((last - 3.7).abs() < 1e-3, "{last}");
    }

    #[test]
    fn main_time_with_byo_yomi_counts_on_the_period() {
        let c = clock(60.0, 30.0, 5);
        let b = board_with(3);
        let t = c.stone_budget(&b).time.unwrap().as_secs_f64();
        // Turn 2 of a 16-turn horizon: 60 s / 14 less the 0.3 s lag, and the turn's share of a
        // period. Byo-yomi follows: nothing is kept back for the later stones.
        let expected = 0.6 * (60.0 / 14.0 - 0.3 + (2.0 * 6.0 - 0.3));
        assert!((t - expected).abs() < 1e-3, "{t} vs {expected}");
        let mut c = c;
        c.set_time_left(
            Color::Black,
            TimeLeft {
                time: secs(0.5),
                stones: 0,
            },
        );
        // Almost out of main time: may run into the first period, never past its share.
        assert!(c.stone_budget(&b).time.unwrap() <= secs(0.5 + 6.0 - 0.3));
    }

    #[test]
    fn a_huge_clock_plans_no_more_than_the_longest_turn() {
        // Time_settings 999999999 0 0 planned ~3e7 s a turn.
        let c = clock(999_999_999.0, 0.0, 0);
        for n in [1, 3, 4, 100] {
            let t = c.stone_budget(&board_with(n)).time.unwrap();
            assert!(t <= MAX_TURN_TIME, "{n} stones: {t:?}");
            assert!(t >= MAX_TURN_TIME.mul_f64(0.3), "{n} stones: {t:?}");
        }
        let c = clock(0.0, 999_999_999.0, 2);
        assert!(c.stone_budget(&board_with(3)).time.unwrap() <= MAX_TURN_TIME);
    }

    #[test]
    fn time_left_counts_to_the_millisecond() {
        let mut c = clock(60.0, 0.0, 0);
        c.set_time_left(
            Color::Black,
            TimeLeft {
                time: secs(0.123),
                stones: 0,
            },
        );
        let t = c.stone_budget(&board_with(83)).time.unwrap();
        // Less than the 1.68 s kept back for the 140 stones still possible: the 10 ms floor;
        // 1.68 s more than 1.5 s gives 1.5 s over 10 turns, less a tenth, 60% for the first
        // stone: 81 ms.
        assert_eq!(t, c.policy.min_stone_time);
        c.set_time_left(
            Color::Black,
            TimeLeft {
                time: secs(1.68 + 1.5),
                stones: 0,
            },
        );
        let t = c.stone_budget(&board_with(83)).time.unwrap().as_secs_f64();
        assert!((t - 0.081).abs() < 1e-6, "{t}");
    }
}
