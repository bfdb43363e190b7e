//! The GTP commands: each checks all its arguments before it changes anything, so a failed
//! command leaves the state as it was.

use super::analyze;
use super::board_text::{self, push_vertex};
use super::live::Pending;
use super::params::PARAM_COMMANDS;
use super::stream::{Format, Request};
use super::Gtp;
use crate::engine::{EngineError, TimeLeft, TimeSettings};
use crate::notation;
use crate::protocol::Flow;
use crate::records::{self, sgf, GameRecord};
use crate::rules::{Color, GameResult, PlayError};
use std::fmt::Write as _;
use std::path::Path;
use std::str::SplitWhitespace;
use std::time::Duration;

/// Largest record file `loadsgf` reads.
const MAX_RECORD_BYTES: u64 = 16 << 20;

/// Every command, in the order `list_commands` gives them.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "gogui-interrupt",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "showboard",
    "time_settings",
    "time_left",
    "final_score",
    "loadsgf",
    "printsgf",
    "gogui-rules_game_id",
    "gogui-rules_board_size",
    "gogui-rules_side_to_move",
    "gogui-rules_legal_moves",
    "gogui-rules_board",
    "gogui-rules_captured_count",
    "gogui-rules_final_result",
    "gogui-analyze_commands",
    "liuzi-policy",
    "liuzi-visits",
    "liuzi-winrates",
    "lz-analyze",
    "kata-analyze",
    "genmove_analyze",
    "lz-genmove_analyze",
    "kata-genmove_analyze",
    "liuzi-set-param",
    "liuzi-get-param",
    "kata-set-param",
    "kata-get-param",
    "liuzi-param",
];

/// A command's arguments, read one at a time with GTP's error messages.
pub(super) struct Args<'a> {
    words: SplitWhitespace<'a>,
}

impl<'a> Args<'a> {
    pub(super) fn new(words: SplitWhitespace<'a>) -> Args<'a> {
        Args { words }
    }

    fn next(&mut self, what: &str) -> Result<&'a str, String> {
        self.words
            .next()
            .ok_or_else(|| format!("syntax error: missing {what}"))
    }

    fn optional(&mut self) -> Option<&'a str> {
        self.words.next()
    }

    /// Every argument left.
    fn rest(&mut self) -> Vec<&'a str> {
        self.words.by_ref().collect()
    }

    fn end(&mut self) -> Result<(), String> {
        match self.words.next() {
            None => Ok(()),
            Some(extra) => Err(format!("syntax error: unexpected argument `{extra}`")),
        }
    }

    fn color(&mut self) -> Result<Color, String> {
        let word = self.next("color")?;
        Color::parse(word).ok_or_else(|| format!("syntax error: invalid color `{word}`"))
    }

    fn seconds(&mut self, what: &str) -> Result<Duration, String> {
        let word = self.next(what)?;
        match word.parse::<f64>() {
            Ok(s) if s.is_finite() && (0.0..1e9).contains(&s) => Ok(Duration::from_secs_f64(s)),
            Ok(s) if s < 0.0 => Err(format!("syntax error: negative {what} `{word}`")),
            _ => Err(format!("syntax error: invalid {what} `{word}`")),
        }
    }

    fn count(&mut self, what: &str) -> Result<u32, String> {
        let word = self.next(what)?;
        word.parse::<u32>()
            .map_err(|_| format!("syntax error: invalid {what} `{word}`"))
    }
}

/// `kata-` commands report decimals, the others Leela Zero's integers.
fn stream_format(command: &str) -> Format {
    if command.starts_with("kata-") {
        Format::Kata
    } else {
        Format::Lz
    }
}

fn result_text(result: GameResult) -> Option<(&'static str, &'static str)> {
    match result {
        GameResult::Win(Color::Black) => Some(("B+R", "Black wins.")),
        GameResult::Win(Color::White) => Some(("W+R", "White wins.")),
        GameResult::Draw => Some(("0", "Draw.")),
        GameResult::Ongoing => None,
    }
}

impl Gtp {
    /// Runs command `name`, writing its reply text into `self.reply`.
    pub(super) fn execute(&mut self, name: &str, args: &mut Args<'_>) -> Result<Flow, String> {
        // The ruler's hot commands first.
        match name {
            "play" => return self.play(args).map(|_| Flow::Continue),
            "gogui-rules_side_to_move" => {
                args.end()?;
                self.reply.push_str(self.engine.board().to_move().name());
                return Ok(Flow::Continue);
            }
            "clear_board" => {
                args.end()?;
                let size = self.engine.board().size();
                self.engine.new_game(size).map_err(|e| e.to_string())?;
                return Ok(Flow::Continue);
            }
            "gogui-rules_board" => {
                args.end()?;
                board_text::rules_board(self.engine.board(), &mut self.reply);
                return Ok(Flow::Continue);
            }
            _ => {}
        }
        match name {
            "protocol_version" => {
                args.end()?;
                self.reply.push('2')
            }
            "name" => {
                args.end()?;
                self.reply.push_str(&self.name)
            }
            "version" => {
                args.end()?;
                self.reply.push_str(env!("CARGO_PKG_VERSION"))
            }
            "known_command" => {
                let command = args.next("command name")?;
                args.end()?;
                let known = COMMANDS.contains(&command);
                self.reply.push_str(if known { "true" } else { "false" });
            }
            "list_commands" => {
                args.end()?;
                self.reply.push_str(&COMMANDS.join("\n"))
            }
            "quit" => {
                args.end()?;
                return Ok(Flow::Quit);
            }
            "gogui-interrupt" => {
                // The reader thread already stopped the search it interrupts.
                args.end()?;
            }
            "boardsize" => {
                let word = args.next("size")?;
                let size = word
                    .parse::<usize>()
                    .map_err(|_| format!("syntax error: invalid size `{word}`"))?;
                args.end()?;
                self.engine
                    .new_game(size)
                    .map_err(|_| "unacceptable size".to_string())?;
            }
            "komi" => {
                let word = args.next("komi")?;
                word.parse::<f64>()
                    .map_err(|_| format!("syntax error: invalid komi `{word}`"))?;
                args.end()?;
                // Connect6 has no komi; GoGui always sends one.
            }
            "genmove" => self.genmove(args)?,
            "undo" => {
                args.end()?;
                self.engine.undo().map_err(|_| "cannot undo".to_string())?;
            }
            "showboard" => {
                args.end()?;
                board_text::showboard(self.engine.board(), &mut self.reply);
            }
            "time_settings" => {
                let main = args.seconds("main time")?;
                let byo_yomi = args.seconds("byo-yomi time")?;
                let byo_yomi_stones = args.count("byo-yomi stones")?;
                args.end()?;
                self.engine.clock_mut().set_settings(TimeSettings {
                    main,
                    byo_yomi,
                    byo_yomi_stones,
                });
            }
            "time_left" => {
                let color = args.color()?;
                let time = args.seconds("time")?;
                let stones = args.count("stones")?;
                args.end()?;
                self.engine
                    .clock_mut()
                    .set_time_left(color, TimeLeft { time, stones });
            }
            "final_score" => {
                args.end()?;
                let (score, _) =
                    result_text(self.engine.board().result()).ok_or("game is not over")?;
                self.reply.push_str(score);
            }
            "loadsgf" => self.loadsgf(args)?,
            "printsgf" => self.printsgf(args)?,
            "gogui-rules_game_id" => {
                args.end()?;
                self.reply.push_str("Connect6")
            }
            "gogui-rules_board_size" => {
                args.end()?;
                write!(self.reply, "{}", self.engine.board().size()).expect("String write")
            }
            "gogui-rules_legal_moves" => {
                args.end()?;
                let board = self.engine.board();
                for (i, p) in board.legal_points().enumerate() {
                    if i > 0 {
                        self.reply.push(' ');
                    }
                    push_vertex(&mut self.reply, p);
                }
            }
            "gogui-rules_captured_count" => {
                args.end()?;
                self.reply.push_str("0 0")
            }
            "gogui-rules_final_result" => {
                args.end()?;
                let (_, words) =
                    result_text(self.engine.board().result()).ok_or("game is not over")?;
                self.reply.push_str(words);
            }
            "gogui-analyze_commands" => {
                args.end()?;
                let commands = analyze::ANALYZE_COMMANDS.iter().chain(PARAM_COMMANDS);
                self.reply
                    .push_str(&commands.copied().collect::<Vec<_>>().join("\n"));
            }
            "lz-analyze" | "kata-analyze" => {
                if self.engine.board().is_over() {
                    return Err("game is over".to_string());
                }
                let request =
                    Request::parse(stream_format(name), &args.rest(), self.engine.board())?;
                self.pending = Some(Pending::Analyze(request));
            }
            "genmove_analyze" | "lz-genmove_analyze" | "kata-genmove_analyze" => {
                let words = args.rest();
                let board = self.engine.board();
                if board.is_over() {
                    return Err("game is over".to_string());
                }
                let request = Request::parse(stream_format(name), &words, board)?;
                let color = board.to_move(); // the parse refused any other colour
                self.pending = Some(Pending::Genmove(color, request));
            }
            "liuzi-set-param" | "kata-set-param" => {
                let key = args.next("setting name")?;
                let value = args.rest();
                if value.is_empty() {
                    return Err("syntax error: missing value".to_string());
                }
                self.set_param(key, &value.join(" "))?;
            }
            "liuzi-get-param" | "kata-get-param" => {
                let key = args.optional();
                args.end()?;
                self.get_param(key)?;
            }
            "liuzi-param" => {
                let section = args.next("section")?;
                let rest = args.rest();
                self.gogui_param(section, &rest)?;
            }
            "liuzi-policy" => {
                args.end()?;
                analyze::policy(&self.engine, &mut self.reply);
            }
            "liuzi-visits" => {
                args.end()?;
                analyze::visits(&self.engine, &mut self.reply);
            }
            "liuzi-winrates" => {
                args.end()?;
                analyze::win_rates(&self.engine, &mut self.reply);
            }
            _ => return Err("unknown command".to_string()),
        }
        Ok(Flow::Continue)
    }

    fn play(&mut self, args: &mut Args<'_>) -> Result<(), String> {
        let color = args.color()?;
        let word = args.next("vertex")?;
        args.end()?;
        if word.eq_ignore_ascii_case("pass") {
            return Err("illegal move: Connect6 has no pass".to_string());
        }
        let size = self.engine.board().size();
        let p = notation::parse_gtp(word, size)
            .ok_or_else(|| format!("syntax error: invalid vertex `{word}`"))?;
        self.engine.play(color, p).map_err(|e| match e {
            EngineError::Play(PlayError::Occupied) => "illegal move".to_string(),
            EngineError::Play(PlayError::WrongColor) => {
                format!("illegal move: {} to play", self.engine.board().to_move())
            }
            other => format!("illegal move: {other}"),
        })
    }

    fn genmove(&mut self, args: &mut Args<'_>) -> Result<(), String> {
        let color = args.color()?;
        args.end()?;
        let start = std::time::Instant::now();
        let p = self.engine.genmove(color).map_err(|e| match e {
            EngineError::WrongColor(to_move) => format!("{to_move} to play"),
            other => other.to_string(),
        })?;
        self.own_color = Some(color);
        push_vertex(&mut self.reply, p);
        self.final_gfx(p, start.elapsed());
        Ok(())
    }

    fn loadsgf(&mut self, args: &mut Args<'_>) -> Result<(), String> {
        let file = args.next("file name")?;
        let before_move = match args.optional() {
            None => None,
            Some(word) => Some(
                word.parse::<usize>()
                    .ok()
                    .filter(|&n| n >= 1)
                    .ok_or_else(|| format!("syntax error: invalid move number `{word}`"))?,
            ),
        };
        args.end()?;
        let path = Path::new(file);
        // A regular file of sane size only: a FIFO would block, /dev/zero fill the memory.
        let bytes = crate::artifact::read_limited(path, MAX_RECORD_BYTES)
            .map_err(|e| format!("cannot load {file}: cannot read: {e}"))?;
        let games = records::read_bytes(&bytes, records::RecordFormat::from_extension(path))
            .map_err(|e| format!("cannot load {}", e.in_file(path)))?;
        let mut game = games
            .into_iter()
            .next()
            .ok_or_else(|| format!("cannot load {file}: no game in it"))?;
        if let Some(n) = before_move {
            game.stones.truncate(n - 1);
        }
        let board = game
            .replay()
            .map_err(|e| format!("cannot load {file}: cannot read: {e}"))?;
        self.engine.set_board(board);
        Ok(())
    }

    /// `printsgf` answers the record; `printsgf FILE` writes it to a new file and refuses an
    /// existing one, which only `printsgf FILE overwrite` replaces (atomically).
    fn printsgf(&mut self, args: &mut Args<'_>) -> Result<(), String> {
        let file = args.optional();
        let overwrite = match args.optional() {
            None => false,
            Some("overwrite") => true,
            Some(other) => {
                return Err(format!(
                    "syntax error: unexpected argument `{other}` (only `overwrite`)"
                ))
            }
        };
        args.end()?;
        let record = GameRecord::from_board(self.engine.board());
        let text = sgf::format(&record, sgf::SgfOptions::default()) + "\n";
        let Some(file) = file else {
            self.reply.push_str(text.trim_end());
            return Ok(());
        };
        let path = Path::new(file);
        if overwrite {
            crate::artifact::write_atomically(path, |f| {
                std::io::Write::write_all(f, text.as_bytes())
            })
            .map_err(|e| format!("cannot write {file}: {e}"))
        } else {
            let mut f = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(path)
                .map_err(|e| match e.kind() {
                    std::io::ErrorKind::AlreadyExists => format!(
                        "{file} exists; not overwritten (`printsgf {file} overwrite` replaces it)"
                    ),
                    _ => format!("cannot write {file}: {e}"),
                })?;
            std::io::Write::write_all(&mut f, text.as_bytes())
                .map_err(|e| format!("cannot write {file}: {e}"))
        }
    }
}
