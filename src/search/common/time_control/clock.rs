//! Game clocks as the protocols report them (GTP time_settings / time_left), turned into a
//! per-stone thinking budget.
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

use super::Limits;
use crate::rules::{Board, Color, Stage};
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

    fn has_byo_yomi(&self) -> bool {
        self.byo_yomi > Duration::ZERO && self.byo_yomi_stones > 0
    }

    /// The clock at the start of a game.
    fn initial(&self) -> TimeLeft {
        if self.main > Duration::ZERO || !self.has_byo_yomi() {
            TimeLeft {
                time: self.main,
                stones: 0,
            }
        } else {
            self.new_period()
        }
    }

    fn new_period(&self) -> TimeLeft {
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

/// What a stone costs beyond its search (the protocol's commands, the board's update, the
/// root's forced-stone checks), kept back for every stone still to come under sudden death.
const STONE_OVERHEAD: Duration = Duration::from_millis(2);

/// The most stones the side to move may still place: half the empty points, and this turn's
/// second stone.
fn own_stones_left(board: &Board) -> u32 {
    let empty = (board.size() * board.size()).saturating_sub(board.stone_count()) as u32;
    empty.div_ceil(2) + 1
}

/// The lag margin kept back from `at_stake`: the configured margin, but never more than a
/// tenth of it.
pub fn lag_margin(lag: Duration, at_stake: Duration) -> Duration {
    lag.min(at_stake / 10)
}

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
    fn limited(&self) -> Option<TimeSettings> {
        self.settings.filter(|s| !s.is_unlimited())
    }

    fn time_left(&self, color: Color, settings: &TimeSettings) -> TimeLeft {
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

    /// A stone's time from a clock, and in main time how much longer it may run while its
    /// choice is close (`unsettled_extension`; never past what the clock allows this stone).
    fn clock_budget(
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
            (p.min_stone_time + STONE_OVERHEAD) * own_stones_left(board)
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
    use super::*;
    use crate::rules::Point;

    fn secs(s: f64) -> Duration {
        Duration::from_secs_f64(s)
    }

    /// A board with `n` stones on it (the side to move and stage follow from `n`).
    fn board_with(n: usize) -> Board {
        let mut b = Board::standard();
        for i in 0..n {
            b.play(Point::new((i % 19) as u8, (2 * (i / 19)) as u8))
                .unwrap();
        }
        b
    }

    fn clock(main: f64, byo: f64, stones: u32) -> Clock {
        let mut c = Clock::default();
        c.set_settings(TimeSettings {
            main: secs(main),
            byo_yomi: secs(byo),
            byo_yomi_stones: stones,
        });
        c
    }

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
    fn the_lag_margin_is_never_more_than_a_tenth_of_the_time_at_stake() {
        assert_eq!(lag_margin(secs(0.3), secs(10.0)), secs(0.3));
        assert_eq!(lag_margin(secs(0.3), secs(0.3)), secs(0.03));
        // A 0.3 s period for one stone keeps 0.27 s, not 12 ms.
        let c = clock(0.0, 0.3, 1);
        let t = c.stone_budget(&board_with(3)).time.unwrap().as_secs_f64();
        assert!((t - 0.27).abs() < 1e-6, "{t}");
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
