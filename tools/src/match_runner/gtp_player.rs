//! A GTP engine as a player: one stone per `genmove`/`play`, colours B, WW, BB (protocols.md §1).
//!
//! Time controls are passed on as GTP describes them: a per-turn limit T as Canadian byo-yomi
//! `time_settings 0 T 2` (two stones in T seconds), a clock as absolute time
//! `time_settings MAIN 0 0`, with `time_left` before every `genmove`. Both only when the engine
//! lists the commands; GTP has no increment, the engine sees it in `time_left`.

use super::engine_spec::EngineSpec;
use super::outcome::{EndReason, Fault, Winner};
use super::player::{
    read_stop, write_stop, GameStart, Player, PlayerContext, Stop, TurnReply, TurnRequest,
};
use super::process::{EngineProcess, LaunchSpec};
use super::time_control::TimeControl;
use liuzi::notation::{format_gtp, parse_gtp};
use liuzi::rules::{Board, Color, Point};
use std::collections::HashSet;
use std::time::{Duration, Instant};

/// The reply to one GTP command: `Ok` for `=`, `Err` for `?`, with the text after the marker.
type GtpReply = Result<String, String>;

pub struct GtpPlayer {
    process: EngineProcess,
    label: String,
    context: PlayerContext,
    commands: HashSet<String>,
    size: usize,
    /// Whether `time_left` may carry milliseconds. GTP says whole seconds, but then a 1 s turn
    /// reads `time_left b 0 2` from its start (0.99 s truncated) and the engine plays at once.
    /// Tried first; an engine that refuses it gets whole seconds from then on.
    fractional_time: bool,
}

impl GtpPlayer {
    pub fn start(
        spec: &EngineSpec,
        launch: &LaunchSpec,
        context: &PlayerContext,
    ) -> Result<GtpPlayer, String> {
        let process = EngineProcess::spawn(launch, context.cancel.clone())?;
        let mut player = GtpPlayer {
            process,
            label: spec.name.clone(),
            context: context.clone(),
            commands: HashSet::new(),
            size: 19,
            fractional_time: true,
        };
        let deadline = Instant::now() + context.timeouts.startup;
        let fail = |cmd: &str, stop: Stop| match stop {
            Stop::Fault(f) => format!("{}: start-up `{cmd}` failed: {}", spec.name, f.detail),
            Stop::Cancelled => format!("{}: start-up cancelled", spec.name),
        };
        let name = player
            .command("name", deadline)
            .map_err(|s| fail("name", s))?;
        if let Ok(engine_name) = name {
            tracing::debug!(engine = %spec.name, "GTP engine calls itself `{engine_name}`");
        }
        if let Ok(list) = player
            .command("list_commands", deadline)
            .map_err(|s| fail("list_commands", s))?
        {
            player.commands = list.lines().map(|l| l.trim().to_string()).collect();
        }
        for cmd in &spec.init {
            match player.command(cmd, deadline).map_err(|s| fail(cmd, s))? {
                Ok(_) => {}
                Err(e) => {
                    return Err(format!(
                        "{}: start-up command `{cmd}` was refused: {e}",
                        spec.name
                    ))
                }
            }
        }
        Ok(player)
    }

    /// Sends `cmd` and waits for its reply until `deadline`. Lines before the reply that do not
    /// start with `=` or `?` are logged and skipped.
    fn command(&mut self, cmd: &str, deadline: Instant) -> Result<GtpReply, Stop> {
        let sent = Instant::now();
        self.process.send(cmd).map_err(|e| write_stop(e, cmd))?;
        let waited = deadline.saturating_duration_since(sent);
        let mut first_ignored: Option<String> = None;
        let first = loop {
            let line = self.process.read_line(deadline).map_err(|e| {
                match (read_stop(e, cmd, waited), &first_ignored) {
                    // Say what the engine did print: usually a sign of the wrong protocol.
                    (Stop::Fault(mut f), Some(ignored)) => {
                        f.detail.push_str(&format!(
                            "; it printed `{ignored}`, which is not a GTP reply"
                        ));
                        Stop::Fault(f)
                    }
                    (stop, _) => stop,
                }
            })?;
            if line.starts_with('=') || line.starts_with('?') {
                break line;
            }
            if !line.trim().is_empty() {
                tracing::debug!(engine = %self.label, "ignored non-GTP line: {line}");
                first_ignored.get_or_insert_with(|| line.chars().take(80).collect());
            }
        };
        let success = first.starts_with('=');
        // Skip an optional numeric id after the marker.
        let text = first[1..]
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .trim()
            .to_string();
        let mut lines = vec![text];
        loop {
            let line = self
                .process
                .read_line(deadline)
                .map_err(|e| read_stop(e, cmd, waited))?;
            if line.trim().is_empty() {
                break;
            }
            lines.push(line);
        }
        let body = lines.join("\n").trim().to_string();
        Ok(if success { Ok(body) } else { Err(body) })
    }

    fn command_deadline(&self) -> Instant {
        Instant::now() + self.context.timeouts.command
    }

    /// A command the engine must accept; a `?` reply is a [`EndReason::Refused`] fault.
    fn required(&mut self, cmd: &str) -> Result<String, Stop> {
        let deadline = self.command_deadline();
        self.command(cmd, deadline)?.map_err(|e| {
            Stop::Fault(Fault::new(
                EndReason::Refused,
                format!("`{cmd}` refused: {e}"),
            ))
        })
    }

    fn supports(&self, cmd: &str) -> bool {
        self.commands.contains(cmd)
    }

    fn send_time_left(
        &mut self,
        color: Color,
        left: Duration,
        stones: usize,
        deadline: Instant,
    ) -> Result<(), Stop> {
        if !self.supports("time_left") {
            return Ok(());
        }
        let color = gtp_color(color);
        if self.fractional_time && left.subsec_millis() != 0 {
            let cmd = format!("time_left {color} {:.3} {stones}", left.as_secs_f64());
            match self.command(&cmd, deadline)? {
                Ok(_) => return Ok(()),
                Err(e) => {
                    tracing::debug!(engine = %self.label, "`{cmd}` refused ({e}): whole seconds from now on");
                    self.fractional_time = false;
                }
            }
        }
        let cmd = format!("time_left {color} {} {stones}", left.as_secs());
        if let Err(e) = self.command(&cmd, deadline)? {
            tracing::debug!(engine = %self.label, "`{cmd}` refused: {e}");
        }
        Ok(())
    }

    fn parse_genmove(&self, reply: &str) -> Result<Option<Point>, Stop> {
        let word = reply.trim();
        if word.eq_ignore_ascii_case("resign") {
            return Ok(None);
        }
        if word.eq_ignore_ascii_case("pass") {
            return Err(Fault::new(EndReason::Illegal, "passed (Connect6 has no pass)").into());
        }
        parse_gtp(word, self.size).map(Some).ok_or_else(|| {
            Fault::new(
                EndReason::BadOutput,
                format!(
                    "genmove reply `{word}` is not a vertex on {}x{}",
                    self.size, self.size
                ),
            )
            .into()
        })
    }
}

fn gtp_color(color: Color) -> &'static str {
    match color {
        Color::Black => "b",
        Color::White => "w",
    }
}

impl Player for GtpPlayer {
    fn label(&self) -> &str {
        &self.label
    }

    fn new_game(&mut self, start: &GameStart) -> Result<(), Stop> {
        self.size = start.size;
        self.required(&format!("boardsize {}", start.size))?;
        self.required("clear_board")?;
        if let Some(tc) = start.time.filter(|_| self.supports("time_settings")) {
            let cmd = match tc {
                TimeControl::PerTurn(limit) => {
                    format!("time_settings 0 {} 2", limit.as_secs().max(1))
                }
                TimeControl::Clock { main, .. } => {
                    format!("time_settings {} 0 0", main.as_secs().max(1))
                }
            };
            let deadline = self.command_deadline();
            if let Err(e) = self.command(&cmd, deadline)? {
                tracing::debug!(engine = %self.label, "`{cmd}` refused: {e}");
            }
        }
        for (n, &p) in start.opening.iter().enumerate() {
            self.required(&format!(
                "play {} {}",
                Board::color_of_stone(n).letter(),
                format_gtp(p)
            ))?;
        }
        Ok(())
    }

    fn play_turn(&mut self, request: &TurnRequest) -> Result<TurnReply, Stop> {
        let mut scratch = request.board.clone();
        let color = scratch.to_move();
        let mut stones = Vec::with_capacity(2);
        for i in 0..request.stones {
            if let Some(allowed) = request.allowed {
                let left = allowed.saturating_sub(request.started.elapsed());
                let stones_left = match request.time {
                    Some(TimeControl::PerTurn(_)) => request.stones - i,
                    _ => 0,
                };
                self.send_time_left(color, left, stones_left, request.deadline)?;
            }
            let cmd = format!("genmove {}", gtp_color(color));
            let reply = self.command(&cmd, request.deadline)?.map_err(|e| {
                Stop::Fault(Fault::new(
                    EndReason::Refused,
                    format!("`{cmd}` answered an error: {e}"),
                ))
            })?;
            let Some(p) = self.parse_genmove(&reply)? else {
                return Ok(TurnReply::Resign);
            };
            stones.push(p);
            // Stop asking after a stone the referee will reject or that ends the game.
            if scratch.play(p).is_err() || scratch.is_over() {
                break;
            }
        }
        Ok(TurnReply::Stones(stones))
    }

    fn observe_turn(&mut self, before: &Board, stones: &[Point]) -> Result<(), Stop> {
        for (i, &p) in stones.iter().enumerate() {
            let color = Board::color_of_stone(before.stone_count() + i);
            self.required(&format!("play {} {}", color.letter(), format_gtp(p)))?;
        }
        Ok(())
    }

    fn end_game(&mut self, _winner: Winner) {}

    fn shut_down(self: Box<Self>) {
        let grace = self.context.timeouts.quit;
        self.process.shut_down(Some("quit"), grace);
    }
}
