//! The referee: plays one game between two players on its own board and adjudicates it.
//!
//! Every stone is checked on the referee's `Board`. A six wins, a full board draws; an illegal
//! stone, a wrong stone count, time over, a crash, unparsable output, a refused command or a
//! resignation loses, with the reason and a description recorded.

use super::outcome::{EndReason, Fault, Winner};
use super::player::{GameStart, Player, Stop, TurnReply, TurnRequest};
use super::time_control::{SideClock, TimeControl};
use liuzi::rules::{Board, Color, GameResult, Point};
use std::time::{Duration, Instant};

/// Everything the referee needs to know about one game.
#[derive(Clone, Debug)]
pub struct GameSetup {
    pub size: usize,
    /// Stones placed before the engines play (a whole number of turns, no six).
    pub opening: Vec<Point>,
    /// Time control of Black and White, indexed by `Color::index`.
    pub time: [Option<TimeControl>; 2],
    /// Slack over the time limit for process and pipe latency.
    pub margin: Duration,
    /// How long a turn may take when the side has no time control.
    pub untimed_turn: Duration,
}

/// A finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameOutcome {
    pub winner: Winner,
    pub reason: EndReason,
    /// What happened, for the loser's fault; empty for a six or a full board.
    pub detail: String,
    /// Every stone of the game, the opening included.
    pub stones: Vec<Point>,
    /// Thinking time of Black and White.
    pub time_used: [Duration; 2],
    /// The side whose misbehaviour ended the game (its process should be restarted).
    pub at_fault: Option<Color>,
}

/// The game was abandoned because the match is being interrupted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cancelled;

/// Checks that `opening` can start a game: legal stones, a whole number of turns, no six.
pub fn check_opening(size: usize, opening: &[Point]) -> Result<(), String> {
    let mut board =
        Board::new(size).ok_or_else(|| format!("board size {size} is not supported"))?;
    for (n, &p) in opening.iter().enumerate() {
        board
            .play(p)
            .map_err(|e| format!("opening stone {} is illegal: {e}", n + 1))?;
    }
    if board.is_over() {
        return Err("the opening already ends the game".into());
    }
    if !opening.is_empty() && Board::stage_of_stone(opening.len()) != liuzi::rules::Stage::First {
        return Err(format!(
            "the opening ends in the middle of a turn ({} stones)",
            opening.len()
        ));
    }
    Ok(())
}

/// Plays one game. `players` are Black and White (indexed by `Color::index`).
pub fn play_game(
    setup: &GameSetup,
    players: [&mut dyn Player; 2],
) -> Result<GameOutcome, Cancelled> {
    let mut referee = Referee::new(setup);
    let [black, white] = players;
    let mut players: [&mut dyn Player; 2] = [black, white];
    let result = referee.run(&mut players);
    let outcome = match result {
        Ok(outcome) => outcome,
        Err(Cancelled) => return Err(Cancelled),
    };
    for player in players.iter_mut() {
        player.end_game(outcome.winner);
    }
    Ok(outcome)
}

struct Referee<'a> {
    setup: &'a GameSetup,
    board: Board,
    clocks: [SideClock; 2],
}

impl<'a> Referee<'a> {
    fn new(setup: &'a GameSetup) -> Referee<'a> {
        let mut board = Board::new(setup.size).expect("size checked by the caller");
        for &p in &setup.opening {
            board.play(p).expect("opening checked by the caller");
        }
        Referee {
            setup,
            board,
            clocks: [SideClock::new(setup.time[0]), SideClock::new(setup.time[1])],
        }
    }

    fn finish(
        &self,
        winner: Winner,
        reason: EndReason,
        detail: String,
        at_fault: Option<Color>,
    ) -> GameOutcome {
        GameOutcome {
            winner,
            reason,
            detail,
            stones: self.board.history().to_vec(),
            time_used: [self.clocks[0].used(), self.clocks[1].used()],
            at_fault,
        }
    }

    /// `color` loses because of `stop`.
    fn loss(&self, color: Color, stop: Stop) -> Result<GameOutcome, Cancelled> {
        match stop {
            Stop::Cancelled => Err(Cancelled),
            Stop::Fault(fault) => {
                let at_fault = fault.reason.is_fault().then_some(color);
                Ok(self.finish(
                    Winner::of(color.opponent()),
                    fault.reason,
                    fault.detail,
                    at_fault,
                ))
            }
        }
    }

    fn run(&mut self, players: &mut [&mut dyn Player; 2]) -> Result<GameOutcome, Cancelled> {
        for color in [Color::Black, Color::White] {
            let start = GameStart {
                size: self.setup.size,
                color,
                opening: &self.setup.opening,
                time: self.setup.time[color.index()],
            };
            if let Err(stop) = players[color.index()].new_game(&start) {
                return self.loss(color, stop);
            }
        }
        loop {
            match self.board.result() {
                GameResult::Win(color) => {
                    return Ok(self.finish(Winner::of(color), EndReason::Six, String::new(), None))
                }
                GameResult::Draw => {
                    return Ok(self.finish(Winner::Draw, EndReason::FullBoard, String::new(), None))
                }
                GameResult::Ongoing => {}
            }
            let mover = self.board.to_move();
            let wanted = if self.board.stone_count() == 0 {
                1
            } else {
                2.min(self.board.area() - self.board.stone_count())
            };
            let stones = match self.request_turn(players[mover.index()], wanted) {
                Ok(stones) => stones,
                Err(stop) => return self.loss(mover, stop),
            };
            let before = self.board.clone();
            if let Err(fault) = self.apply_turn(&stones, wanted) {
                return self.loss(mover, fault.into());
            }
            if !self.board.is_over() {
                let opponent = mover.opponent();
                if let Err(stop) = players[opponent.index()].observe_turn(&before, &stones) {
                    return self.loss(opponent, stop);
                }
            }
        }
    }

    /// Asks `player` for a turn of `wanted` stones and books its time.
    fn request_turn(&mut self, player: &mut dyn Player, wanted: usize) -> Result<Vec<Point>, Stop> {
        let mover = self.board.to_move();
        let clock = &self.clocks[mover.index()];
        let allowed = clock.allowed();
        let started = Instant::now();
        let deadline = started + allowed.map_or(self.setup.untimed_turn, |a| a + self.setup.margin);
        let request = TurnRequest {
            board: &self.board,
            stones: wanted,
            started,
            allowed,
            time: clock.control(),
            deadline,
        };
        let reply = player.play_turn(&request);
        let spent = started.elapsed();
        let clock = &mut self.clocks[mover.index()];
        let timing = clock.charge(spent, self.setup.margin);
        let reply = reply?;
        timing.map_err(|detail| Fault::new(EndReason::TimeOver, detail))?;
        match reply {
            TurnReply::Stones(stones) => Ok(stones),
            TurnReply::Resign => Err(Fault::new(EndReason::Resign, "resigned").into()),
        }
    }

    /// Places the turn's stones on the referee's board, stopping at the first that ends the game.
    fn apply_turn(&mut self, stones: &[Point], wanted: usize) -> Result<(), Fault> {
        let mover = self.board.to_move();
        let wrong_count = || {
            Fault::new(
                EndReason::WrongCount,
                format!("{mover} played {} stone(s), {wanted} due", stones.len()),
            )
        };
        if stones.len() > wanted {
            return Err(wrong_count());
        }
        for (i, &p) in stones.iter().enumerate() {
            self.board.play(p).map_err(|e| {
                Fault::new(
                    EndReason::Illegal,
                    format!(
                        "stone {} of the turn at {}: {e}",
                        i + 1,
                        liuzi::notation::format_games(p)
                    ),
                )
            })?;
            if self.board.is_over() {
                // A winning (or board-filling) first stone ends the game; a second one is ignored.
                return Ok(());
            }
        }
        if stones.len() != wanted {
            return Err(wrong_count());
        }
        Ok(())
    }
}
