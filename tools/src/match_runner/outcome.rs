//! How a game ended and why: the reasons the referee records.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Why a game ended. Everything but `Six` and `FullBoard` is a loss for the side at fault.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// Six or more in a row.
    Six,
    /// The board filled up with no six: a draw.
    FullBoard,
    /// The engine resigned (GTP `resign`).
    Resign,
    /// A stone on an occupied or off-board point, or a pass.
    Illegal,
    /// A turn with the wrong number of stones.
    WrongCount,
    /// Over the per-turn limit or out of clock time, or no reply at all.
    TimeOver,
    /// The engine exited, closed its output or could not be (re)started.
    Crash,
    /// A reply that cannot be parsed.
    BadOutput,
    /// Far more output than any protocol needs (megabytes of chatter): the engine is cut off.
    Flood,
    /// The engine answered an error to a command it must accept (a legal opponent stone, a new
    /// game on this board size, a start-up command).
    Refused,
}

impl EndReason {
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::Six => "six",
            EndReason::FullBoard => "full_board",
            EndReason::Resign => "resign",
            EndReason::Illegal => "illegal",
            EndReason::WrongCount => "wrong_count",
            EndReason::TimeOver => "time_over",
            EndReason::Crash => "crash",
            EndReason::BadOutput => "bad_output",
            EndReason::Flood => "flood",
            EndReason::Refused => "refused",
        }
    }

    /// Whether the loser misbehaved (its process is then restarted before the next game).
    pub fn is_fault(self) -> bool {
        !matches!(
            self,
            EndReason::Six | EndReason::FullBoard | EndReason::Resign
        )
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A misbehaviour of one engine: the game is lost for `reason`, `detail` says what happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    pub reason: EndReason,
    pub detail: String,
}

impl Fault {
    pub fn new(reason: EndReason, detail: impl Into<String>) -> Fault {
        Fault {
            reason,
            detail: detail.into(),
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.reason, self.detail)
    }
}

/// The winner of a finished game, or a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Winner {
    #[serde(rename = "B")]
    Black,
    #[serde(rename = "W")]
    White,
    #[serde(rename = "D")]
    Draw,
}

impl Winner {
    pub fn of(color: liuzi::rules::Color) -> Winner {
        match color {
            liuzi::rules::Color::Black => Winner::Black,
            liuzi::rules::Color::White => Winner::White,
        }
    }

    /// Score of `color` in this game: 1, 1/2 or 0.
    pub fn score_for(self, color: liuzi::rules::Color) -> f64 {
        match (self, color) {
            (Winner::Draw, _) => 0.5,
            (Winner::Black, liuzi::rules::Color::Black)
            | (Winner::White, liuzi::rules::Color::White) => 1.0,
            _ => 0.0,
        }
    }
}
