//! The referee's view of an engine, whatever protocol it speaks: the `Player` trait and what
//! its calls carry. The protocol clients implement it; `launch` picks one for an engine spec.
//!
//! GTP is stone-level and the Connect6 protocol is turn-level; both are driven a whole turn at a
//! time here. The referee keeps the authoritative board and checks every stone a player returns.

use super::outcome::{EndReason, Fault, Winner};
use super::process::{CancelToken, ReadError, WriteError};
use super::time_control::TimeControl;
use liuzi::rules::{Board, Color, Point};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Why a player call did not complete.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The engine misbehaved and loses the game.
    Fault(Fault),
    /// The match is being interrupted (Ctrl-C): the game is abandoned, not scored.
    Cancelled,
}

impl From<Fault> for Stop {
    fn from(f: Fault) -> Stop {
        Stop::Fault(f)
    }
}

/// Turns a failed read while waiting for the reply to `what` into a [`Stop`].
pub fn read_stop(err: ReadError, what: &str, waited: Duration) -> Stop {
    match err {
        ReadError::Timeout => Stop::Fault(Fault::new(
            EndReason::TimeOver,
            format!("no reply to `{what}` within {:.3} s", waited.as_secs_f64()),
        )),
        ReadError::Closed(how) => Stop::Fault(Fault::new(
            EndReason::Crash,
            format!("engine {how} (waiting for `{what}`)"),
        )),
        ReadError::Flood(how) => Stop::Fault(Fault::new(
            EndReason::Flood,
            format!("engine {how} (waiting for `{what}`)"),
        )),
        ReadError::Cancelled => Stop::Cancelled,
    }
}

/// Turns a failed write of `what` into a [`Stop`].
pub fn write_stop(err: WriteError, what: &str) -> Stop {
    Stop::Fault(match err {
        WriteError::Failed(e) => Fault::new(EndReason::Crash, format!("sending `{what}`: {e}")),
        WriteError::Flood(how) => {
            Fault::new(EndReason::Flood, format!("engine {how} (before `{what}`)"))
        }
    })
}

/// The start of a game, as one player sees it.
pub struct GameStart<'a> {
    pub size: usize,
    pub color: Color,
    /// Stones placed before the engines play, in order (a whole number of turns).
    pub opening: &'a [Point],
    pub time: Option<TimeControl>,
}

/// A request for one whole turn.
pub struct TurnRequest<'a> {
    /// The position before the turn.
    pub board: &'a Board,
    /// Stones wanted: 1 for Black's opening turn or when one empty point is left, else 2.
    pub stones: usize,
    /// When the turn's clock started.
    pub started: Instant,
    /// Time the turn may take, without the margin; `None` without a time control.
    pub allowed: Option<Duration>,
    pub time: Option<TimeControl>,
    /// Hard limit for every read of this turn.
    pub deadline: Instant,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TurnReply {
    /// The stones in play order. A player stops early after a stone that is illegal or wins,
    /// so there may be fewer than asked for.
    Stones(Vec<Point>),
    Resign,
}

pub trait Player: Send {
    /// The engine's name in the match.
    fn label(&self) -> &str;

    /// Prepares a new game (board size, colour, opening, clock).
    fn new_game(&mut self, start: &GameStart) -> Result<(), Stop>;

    /// Asks for this player's turn.
    fn play_turn(&mut self, request: &TurnRequest) -> Result<TurnReply, Stop>;

    /// Tells the player the opponent's turn, played on `before`.
    fn observe_turn(&mut self, before: &Board, stones: &[Point]) -> Result<(), Stop>;

    /// The game is over (the winning turn has not been sent to the loser).
    fn end_game(&mut self, winner: Winner);

    /// Ends the process politely (`quit`), then kills what is left.
    fn shut_down(self: Box<Self>);
}

/// Timeouts outside the game clock.
#[derive(Clone, Copy, Debug)]
pub struct Timeouts {
    /// Start-up, handshake and start-up commands.
    pub startup: Duration,
    /// Any command that is not a move request (boardsize, play, time_left, ...).
    pub command: Duration,
    /// How long a turn may take when the engine has no time control.
    pub untimed_turn: Duration,
    /// Grace period for `quit` before the process is killed.
    pub quit: Duration,
}

impl Default for Timeouts {
    fn default() -> Timeouts {
        Timeouts {
            startup: Duration::from_secs(30),
            command: Duration::from_secs(10),
            untimed_turn: Duration::from_secs(600),
            quit: Duration::from_secs(1),
        }
    }
}

/// What every player needs besides its spec.
#[derive(Clone, Debug)]
pub struct PlayerContext {
    pub cancel: CancelToken,
    pub timeouts: Timeouts,
    /// Engine stderr is appended to `<dir>/<name>.stderr.log`; discarded when `None`.
    pub stderr_dir: Option<PathBuf>,
    /// The match worker the players serve, when several play at once: their stderr then goes
    /// to `<dir>/<name>.w<k>.stderr.log`, so that one file holds one game at a time.
    pub stderr_worker: Option<usize>,
}
