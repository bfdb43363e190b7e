//! How a game's stones used their time (docs/time-control.md): stones and turns that were
//! searched against those decided without a search (forced, proven), and the share of the
//! budget the searched ones spent. Logged once a game, so that a match's engine logs show it.

use crate::search::common::Decision;
use std::fmt;
use std::time::Duration;

/// One stone as the accounting sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StoneTime {
    /// Stones on the board before it.
    pub index: usize,
    /// The first stone of a two-stone turn (a turn is it and the next stone of the same side).
    pub first_of_turn: bool,
    pub decision: Decision,
    pub used: Duration,
    /// The stone's budget; `None` = no time limit (such stones count in no share).
    pub budget: Option<Duration>,
    /// The stone's unused time went to a later stone (its turn's second stone, a game clock).
    pub banked: bool,
}

/// Totals over a game; see [`TimeUse::record`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TimeUse {
    pub searched_stones: u32,
    pub unsearched_stones: u32,
    /// Seconds used and budgeted by searched stones with a time budget.
    searched_used: f64,
    searched_budget: f64,
    pub searched_turns: u32,
    pub unsearched_turns: u32,
    /// Seconds used, and seconds the turn could have used, over searched two-stone turns.
    turn_used: f64,
    turn_budget: f64,
    /// The first stone of the turn in progress.
    open_turn: Option<StoneTime>,
}

impl TimeUse {
    /// Counts one stone. A turn's time is what its stones used against what it could have
    /// used: the first stone's budget plus the second's, or, when the first stone's unused
    /// time went to the second, the first stone's use plus the second's budget.
    pub fn record(&mut self, stone: StoneTime) {
        let searched = stone.decision == Decision::Searched;
        if searched {
            self.searched_stones += 1;
            if let Some(budget) = stone.budget {
                self.searched_used += stone.used.as_secs_f64();
                self.searched_budget += budget.as_secs_f64();
            }
        } else {
            self.unsearched_stones += 1;
        }
        if stone.first_of_turn {
            self.open_turn = Some(stone);
            return;
        }
        let Some(first) = self.open_turn.take().filter(|f| f.index + 1 == stone.index) else {
            return; // a lone stone (Black's first) or a turn whose first stone was not ours
        };
        if first.decision != Decision::Searched && !searched {
            self.unsearched_turns += 1;
            return;
        }
        self.searched_turns += 1;
        if let (Some(b1), Some(b2)) = (first.budget, stone.budget) {
            let first_part = if first.banked { first.used } else { b1 };
            self.turn_used += (first.used + stone.used).as_secs_f64();
            self.turn_budget += (first_part + b2).as_secs_f64();
        }
    }

    pub fn is_empty(&self) -> bool {
        self.searched_stones + self.unsearched_stones == 0
    }

    /// Share of their budget the searched stones used (0 without any).
    pub fn searched_stone_share(&self) -> f64 {
        ratio(self.searched_used, self.searched_budget)
    }

    /// Share of their time the searched turns used (0 without any).
    pub fn searched_turn_share(&self) -> f64 {
        ratio(self.turn_used, self.turn_budget)
    }

    /// Mean seconds a searched turn used (0 without any).
    pub fn searched_turn_seconds(&self) -> f64 {
        ratio(self.turn_used, f64::from(self.searched_turns))
    }
}

fn ratio(a: f64, b: f64) -> f64 {
    if b > 0.0 {
        a / b
    } else {
        0.0
    }
}

impl fmt::Display for TimeUse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "time use: {} turns searched, {} forced or proven; searched turns used {:.3} s, \
             {:.0}% of their time; stones: {} searched ({:.0}% of their budget), {} forced or \
             proven",
            self.searched_turns,
            self.unsearched_turns,
            self.searched_turn_seconds(),
            100.0 * self.searched_turn_share(),
            self.searched_stones,
            100.0 * self.searched_stone_share(),
            self.unsearched_stones
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stone(index: usize, decision: Decision, used: f64, budget: f64, banked: bool) -> StoneTime {
        StoneTime {
            index,
            first_of_turn: index % 2 == 1,
            decision,
            used: Duration::from_secs_f64(used),
            budget: Some(Duration::from_secs_f64(budget)),
            banked,
        }
    }

    #[test]
    fn turns_are_searched_when_either_stone_is_and_banked_time_counts_once() {
        let mut t = TimeUse::default();
        assert!(t.is_empty());
        // Black's lone opening stone: a stone, no turn.
        t.record(stone(0, Decision::Searched, 0.5, 1.0, false));
        // A period turn: the first stone left 0.3 s to the second, whose budget holds it.
        t.record(stone(1, Decision::Searched, 0.2, 0.5, true));
        t.record(stone(2, Decision::Searched, 0.7, 0.8, false));
        // Forced and proven: no search, no turn time counted.
        t.record(stone(5, Decision::ForcedBlock, 0.0, 0.5, true));
        t.record(stone(6, Decision::Proven, 0.01, 0.9, false));
        // Fixed budgets per stone: a forced first stone, a searched second.
        t.record(stone(9, Decision::Win, 0.0, 0.4, false));
        t.record(stone(10, Decision::Searched, 0.2, 0.4, false));
        assert_eq!((t.searched_stones, t.unsearched_stones), (4, 3));
        assert_eq!((t.searched_turns, t.unsearched_turns), (2, 1));
        assert!((t.searched_stone_share() - 1.6 / 2.7).abs() < 1e-9);
        // (0.2 + 0.7) of (0.2 + 0.8), and (0 + 0.2) of (0.4 + 0.4).
        assert!((t.searched_turn_share() - 1.1 / 1.8).abs() < 1e-9);
        assert!((t.searched_turn_seconds() - 0.55).abs() < 1e-9);
        let line = t.to_string();
        assert!(
            line.contains("2 turns searched, 1 forced or proven"),
            "{line}"
        );
        assert!(line.contains("61% of their time"), "{line}");
    }

    #[test]
    fn a_second_stone_without_its_first_is_no_turn() {
        let mut t = TimeUse::default();
        t.record(stone(2, Decision::Searched, 0.3, 0.5, false));
        // A first stone whose second was played by someone else: the next second is no pair.
        t.record(stone(5, Decision::Searched, 0.3, 0.5, false));
        t.record(stone(10, Decision::Searched, 0.3, 0.5, false));
        assert_eq!((t.searched_turns, t.unsearched_turns), (0, 0));
        assert_eq!(t.searched_stones, 3);
        // Stones without a budget count as stones only.
        t.record(StoneTime {
            budget: None,
            ..stone(13, Decision::Searched, 9.0, 0.0, false)
        });
        assert!((t.searched_stone_share() - 0.6).abs() < 1e-9);
    }
}
