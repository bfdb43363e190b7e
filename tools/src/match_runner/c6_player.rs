//! A Connect6-protocol engine as a player (protocols.md §2): Cloudict or SAU dialect.
//!
//! The engine hears the game a turn at a time: `new black` (it answers its first stone at
//! once), or `new white` then `move XX` for Black's first stone, then `move XXXX` for every
//! opponent turn. A position that did not start that way (an opening) is set up Cloudict-style:
//! `new white`, `black XXXX` / `white XXXX` for every turn, then `next`.
//!
//! Only `move T` (one token) and `name N` lines starting in column 0 are protocol; everything
//! else on stdout is noise and ignored. The real Cloudict needs each part of that rule: its
//! start-up help text has indented `name ...` and `move XXXX   - tell the engine...` lines, its
//! searches print `VCF time :`, `Searching i/n`, `AB Time :` and the like, and it prints
//! `We loss!` with no newline, which glues it to the front of its next line.

use super::engine_spec::{EngineSpec, Protocol};
use super::outcome::{EndReason, Fault, Winner};
use super::player::{
    read_stop, write_stop, GameStart, Player, PlayerContext, Stop, TurnReply, TurnRequest,
};
use super::process::{EngineProcess, LaunchSpec};
use liuzi::notation::{format_c6_stone, LetterOrder};
use liuzi::rules::{Board, Color, Point};
use std::time::Instant;

/// Cloudict's concession, printed without a newline: it can start any later line.
const GLUED_NOISE: &str = "We loss!";

/// The text after `keyword` (`"move "`, `"name "`) when `line` is that protocol line.
fn protocol_line<'a>(line: &'a str, keyword: &str) -> Option<&'a str> {
    let mut rest = line;
    while let Some(after) = rest.strip_prefix(GLUED_NOISE) {
        rest = after;
    }
    rest.strip_prefix(keyword)
}

/// The token of a `move T` reply; `None` for every other line, help text included.
fn move_reply(line: &str) -> Option<&str> {
    let token = protocol_line(line, "move ")?.trim();
    (!token.is_empty() && !token.contains(char::is_whitespace)).then_some(token)
}

/// A line that looks like a move reply but is not one, kept to explain a time-out.
fn looks_like_a_move(line: &str) -> bool {
    line.trim_start()
        .trim_start_matches(GLUED_NOISE)
        .starts_with("move")
}

pub struct C6Player {
    process: EngineProcess,
    label: String,
    dialect: Protocol,
    placements: bool,
    context: PlayerContext,
    size: usize,
    /// Whether this game's first message (`new ...`) has been sent.
    started: bool,
    /// Stones of the current game the engine knows about.
    told: usize,
}

impl C6Player {
    pub fn start(
        spec: &EngineSpec,
        launch: &LaunchSpec,
        context: &PlayerContext,
    ) -> Result<C6Player, String> {
        let process = EngineProcess::spawn(launch, context.cancel.clone())?;
        let mut player = C6Player {
            process,
            label: spec.name.clone(),
            dialect: spec.protocol,
            placements: spec.placements,
            context: context.clone(),
            size: 19,
            started: false,
            told: 0,
        };
        let query = match spec.protocol {
            Protocol::Sau => "name?",
            _ => "name",
        };
        let deadline = Instant::now() + context.timeouts.startup;
        let describe = |stop: Stop| match stop {
            Stop::Fault(f) => format!("{}: no `name` reply at start-up: {}", spec.name, f.detail),
            Stop::Cancelled => format!("{}: start-up cancelled", spec.name),
        };
        player
            .process
            .send(query)
            .map_err(|e| describe(write_stop(e, query)))?;
        let waited = context.timeouts.startup;
        loop {
            let line = player
                .process
                .read_line(deadline)
                .map_err(|e| describe(read_stop(e, query, waited)))?;
            if let Some(name) = protocol_line(&line, "name ") {
                tracing::debug!(engine = %spec.name, "Connect6 engine calls itself `{}`", name.trim());
                break;
            }
        }
        for cmd in &spec.init {
            player
                .process
                .send(cmd)
                .map_err(|e| describe(write_stop(e, cmd)))?;
        }
        Ok(player)
    }

    fn order(&self) -> LetterOrder {
        match self.dialect {
            Protocol::Sau => LetterOrder::Sau,
            _ => LetterOrder::Cloudict,
        }
    }

    fn send(&mut self, line: &str) -> Result<(), Stop> {
        self.process.send(line).map_err(|e| write_stop(e, line))
    }

    fn letters(&self, p: Point) -> String {
        format_c6_stone(p, self.size, self.order())
    }

    /// One turn as a `move` token: two stones, or Black's single first stone (`JJ`, or `JJ@@`
    /// in the SAU dialect, where `@` is the template engines' "no stone" placeholder).
    fn move_token(&self, stones: &[Point]) -> String {
        let mut token: String = stones.iter().map(|&p| self.letters(p)).collect();
        if stones.len() == 1 && self.dialect == Protocol::Sau {
            token.push_str("@@");
        }
        token
    }

    /// A placement token always has two stones; a single stone is doubled (as ConnectMore does).
    fn placement_token(&self, stones: &[Point]) -> String {
        match stones {
            [p] => format!("{0}{0}", self.letters(*p)),
            _ => self.move_token(stones),
        }
    }

    /// Sets up `history` with `new white` and placements, ready for `next`.
    fn send_placements(&mut self, history: &[Point]) -> Result<(), Stop> {
        if !self.placements {
            return Err(Fault::new(
                EndReason::Refused,
                "cannot set up this position: the engine does not take black/white placements",
            )
            .into());
        }
        self.send("new white")?;
        for turn in turns(history) {
            let color = Board::color_of_stone(turn.start).name();
            let line = format!("{color} {}", self.placement_token(&history[turn.clone()]));
            self.send(&line)?;
        }
        Ok(())
    }

    /// Parses the token of a `move` line into stones.
    fn parse_move(&self, token: &str, wanted: usize) -> Result<Vec<Point>, Fault> {
        let bad = || {
            Fault::new(
                EndReason::BadOutput,
                format!("`move {token}` is not a move"),
            )
        };
        let letters = token
            .strip_suffix("@@")
            .filter(|t| t.len() == 2)
            .unwrap_or(token);
        if !letters.is_ascii() || !(letters.len() == 2 || letters.len() == 4) {
            return Err(bad());
        }
        let mut stones = Vec::with_capacity(2);
        for pair in letters.as_bytes().chunks(2) {
            let (a, b) = (pair[0].to_ascii_uppercase(), pair[1].to_ascii_uppercase());
            if !a.is_ascii_uppercase() || !b.is_ascii_uppercase() {
                return Err(bad());
            }
            let (a, b) = ((a - b'A') as i32, (b - b'A') as i32);
            let row = match self.order() {
                LetterOrder::Cloudict => b,
                LetterOrder::Sau => self.size as i32 - 1 - b,
            };
            if a >= self.size as i32 || row < 0 || row >= self.size as i32 {
                return Err(Fault::new(
                    EndReason::Illegal,
                    format!("`move {token}`: point off the {0}x{0} board", self.size),
                ));
            }
            stones.push(Point::new(a as u8, row as u8));
        }
        // A single stone written twice (`JJJJ`) is accepted where one stone is due.
        if wanted == 1 && stones.len() == 2 && stones[0] == stones[1] {
            stones.pop();
        }
        Ok(stones)
    }
}

/// Index ranges of the turns in a stone history: [0], [1, 2], [3, 4], ...
fn turns(history: &[Point]) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < history.len() {
        let end = if start == 0 {
            1
        } else {
            (start + 2).min(history.len())
        };
        out.push(start..end);
        start = end;
    }
    out
}

impl Player for C6Player {
    fn label(&self) -> &str {
        &self.label
    }

    fn new_game(&mut self, start: &GameStart) -> Result<(), Stop> {
        self.size = start.size;
        self.started = false;
        self.told = 0;
        if !start.opening.is_empty() && !self.placements {
            let opening_only_black_stone = start.opening.len() == 1 && start.color == Color::White;
            if !opening_only_black_stone {
                return Err(Fault::new(
                    EndReason::Refused,
                    "cannot set up an opening: the engine does not take black/white placements",
                )
                .into());
            }
        }
        Ok(())
    }

    fn play_turn(&mut self, request: &TurnRequest) -> Result<TurnReply, Stop> {
        let history = request.board.history();
        let command = if !self.started {
            self.started = true;
            match history.len() {
                0 => "new black".to_string(),
                1 => {
                    self.send("new white")?;
                    format!("move {}", self.move_token(history))
                }
                _ => {
                    self.send_placements(history)?;
                    "next".to_string()
                }
            }
        } else {
            let pending = &history[self.told.min(history.len())..];
            format!("move {}", self.move_token(pending))
        };
        self.told = history.len();
        self.send(&command)?;
        let waited = request.deadline.saturating_duration_since(request.started);
        let mut near_miss: Option<String> = None;
        let token = loop {
            let line = self.process.read_line(request.deadline).map_err(|e| {
                match (read_stop(e, &command, waited), &near_miss) {
                    // Say what the engine did print that was almost a reply.
                    (Stop::Fault(mut f), Some(seen)) => {
                        f.detail.push_str(&format!(
                            "; it printed `{seen}`, which is not a `move XXXX` line"
                        ));
                        Stop::Fault(f)
                    }
                    (stop, _) => stop,
                }
            })?;
            if let Some(token) = move_reply(&line) {
                break token.to_string();
            }
            if looks_like_a_move(&line) {
                near_miss.get_or_insert_with(|| line.chars().take(80).collect());
            }
            if !line.trim().is_empty() {
                tracing::trace!(engine = %self.label, "noise: {line}");
            }
        };
        let stones = self.parse_move(&token, request.stones)?;
        self.told += stones.len();
        Ok(TurnReply::Stones(stones))
    }

    fn observe_turn(&mut self, _before: &Board, _stones: &[Point]) -> Result<(), Stop> {
        // Sent with the next `move`, which is also the request for this player's turn.
        Ok(())
    }

    fn end_game(&mut self, winner: Winner) {
        if self.dialect == Protocol::Sau && self.started {
            let line = match winner {
                Winner::Black => "end black",
                Winner::White => "end white",
                Winner::Draw => "end",
            };
            let _ = self.process.send(line);
        }
    }

    fn shut_down(self: Box<Self>) {
        let grace = self.context.timeouts.quit;
        self.process.shut_down(Some("quit"), grace);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_column_zero_single_token_lines_are_replies() {
        // Cloudict's start-up help text, verbatim in its shape.
        assert_eq!(
            move_reply(
                "            move XXXX   - tell the engine that the opponent take the move XXXX,"
            ),
            None
        );
        assert_eq!(
            protocol_line("            name        - print the name", "name "),
            None
        );
        assert_eq!(move_reply("move XXXX   - tell the engine"), None);
        assert!(looks_like_a_move("move XXXX   - tell the engine"));
        assert_eq!(move_reply("move JKKJ"), Some("JKKJ"));
        assert_eq!(move_reply("move JJ@@ "), Some("JJ@@"));
        assert_eq!(move_reply("We loss!move JJ"), Some("JJ"));
        assert_eq!(
            protocol_line("We loss!name Cloudict", "name "),
            Some("Cloudict")
        );
        for noise in [
            "AB Time :\t0.018",
            "Searching 3/40",
            "Win by VCF.",
            "We loss!",
            "",
            "move",
        ] {
            assert_eq!(move_reply(noise), None, "{noise}");
        }
    }

    #[test]
    fn turns_split_b_ww_bb() {
        let h: Vec<Point> = (0..6).map(|i| Point::new(i, 0)).collect();
        assert_eq!(turns(&h), vec![0..1, 1..3, 3..5, 5..6]);
        assert!(turns(&[]).is_empty());
    }
}
