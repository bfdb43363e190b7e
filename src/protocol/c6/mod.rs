//! The Connect6 protocol of Chinese competitions (protocols.md §2): one parser for the Cloudict,
//! ConnectMore and SAU-platform dialects.
//!
//! | input | effect | stdout |
//! |---|---|---|
//! | `name`, `name?` | | `name Liuzi` |
//! | `new black` | new game, the engine is Black and plays at once | `move JJ` (`move JJ@@` with the placeholder option) |
//! | `new white` / `new <other>` | new game, the engine is White | |
//! | `move T` | the opponent's stones; the engine answers | `move T'` |
//! | `black T` / `white T` | stones of that colour (a stateless replay) | |
//! | `next` | the engine plays the side opposite to the last stones placed | `move T'` |
//! | `depth d` | seconds per turn from config `time.depth_turn_seconds` | |
//! | `vcf`, `unvcf`, `end [colour]`, `error`, `print`, `help` | accepted; notes on stderr | |
//! | `quit`, `exit` | stop | |
//!
//! `T` is 2 or 4 letters (one or two stones), optionally followed by the `@@` placeholder; Black's
//! single opening stone may also come doubled (`black JJJJ`, as ConnectMore sends it).
//! Only `move …` and `name …` lines go to stdout; everything else goes to stderr. Bad input is
//! reported on stderr and leaves the state exactly as it was.

mod token;

use super::input::{Event, Input};
use super::line_reader::{InputLine, LineReader, MAX_LINE_BYTES};
use super::Flow;
use crate::config::EngineConfig;
use crate::engine::{Engine, StoneBudget, ThinkObserver};
use crate::notation::{self, LetterOrder};
use crate::rules::{Board, Color, GameResult, Point, Stage};
use parking_lot::Mutex;
use std::io::{self, Read, Write};
use std::sync::Arc;
use std::time::Duration;

/// Lines that stop a running search before their turn comes: none. The protocol has no
/// interrupt, and its hosts wait for each `move` (Cloudict itself reads `quit` only after its
/// search; ConnectMore ends an engine by a signal, which stops the search at once). A `quit`
/// waits its turn like every other line.
pub fn is_urgent(_line: &str) -> bool {
    false
}

pub use token::PLACEHOLDER;

pub struct C6 {
    engine: Engine,
    name: String,
    letters: LetterOrder,
    write_placeholder: bool,
    /// The colour of the last stones placed by `black`/`white`/`move` or by the engine: `next`
    /// plays the other one.
    last_placed: Option<Color>,
    /// The engine's colour, from `new` (None until then).
    own_color: Option<Color>,
    board_size: usize,
    config: EngineConfig,
    /// The time budget of the stone being searched, for `Searching i/n` lines.
    stone_budget: Arc<Mutex<Option<Duration>>>,
}

/// What a command answered: protocol lines for stdout, notes for stderr.
#[derive(Default, Debug, Clone, PartialEq)]
pub struct Output {
    pub stdout: String,
    pub stderr: String,
}

impl C6 {
    pub fn new(mut engine: Engine, config: &EngineConfig) -> C6 {
        let turn_time = config.c6_turn_time(config.time.turn_seconds);
        engine.clock_mut().default_turn_time = Some(turn_time);
        C6 {
            board_size: engine.board().size(),
            engine,
            name: config.engine.name.clone(),
            letters: config.c6.letters.into(),
            write_placeholder: config.c6.write_placeholder,
            last_placed: None,
            own_color: None,
            config: config.clone(),
            stone_budget: Arc::new(Mutex::new(None)),
        }
    }

    /// Whether `Searching i/n` lines go to stdout: asked for, and a Cloudict-style host (SAU
    /// hosts read only `move`/`name` lines).
    fn progress_lines(&self) -> bool {
        self.config.protocol.progress_lines
            && self.letters == LetterOrder::Cloudict
            && !self.write_placeholder
    }

    /// Serves the protocol from the reader thread of `input` until `quit`/`exit`, the end of
    /// the input or a termination signal, running the lines in their order; a signal stops a
    /// running search, whose move is still written. Ponders between commands when
    /// `protocol.ponder` is on.
    pub fn serve<W: Write + Send + 'static, E: Write>(
        &mut self,
        input: Input,
        output: W,
        mut diagnostics: E,
    ) -> io::Result<()> {
        let output = Arc::new(Mutex::new(output));
        let control = input.control();
        let observer: Arc<dyn ThinkObserver> = control.clone();
        self.engine.set_observer(Some(observer));
        if self.progress_lines() {
            let output = Arc::clone(&output);
            let budget = Arc::clone(&self.stone_budget);
            control.set_display(Some(Box::new(move |_playouts, elapsed, _children| {
                let Some(budget) = *budget.lock() else {
                    return;
                };
                let share = elapsed.as_secs_f64() / budget.as_secs_f64().max(1e-9);
                let i = ((share * 100.0) as u32).min(99);
                let mut out = output.lock();
                // Errors surface at the next move's write.
                let _ = writeln!(out, "Searching {i}/100").and_then(|_| out.flush());
            })));
        }
        let mut out = Output::default();
        let mut pondered = true;
        let ponder_bounded = self.config.search.playouts > 0;
        loop {
            if !input.has_pending() && !pondered && self.should_ponder() {
                pondered = true;
                input.begin_ponder(!ponder_bounded);
                self.engine.ponder();
                input.idle();
                continue;
            }
            let (seq, line) = match input.next() {
                Event::Line(seq, line) => (seq, line),
                Event::End | Event::Terminated => return Ok(()),
            };
            input.begin_command(seq);
            let flow = self.handle_input(line.as_input(), &mut out);
            input.idle();
            pondered = false;
            {
                let mut output = output.lock();
                output.write_all(out.stdout.as_bytes())?;
                output.flush()?;
            }
            // A closed stderr must not stop the game.
            let _ = diagnostics.write_all(out.stderr.as_bytes());
            out.stdout.clear();
            out.stderr.clear();
            if flow == Flow::Quit {
                return Ok(());
            }
        }
    }

    fn should_ponder(&self) -> bool {
        let board = self.engine.board();
        self.config.protocol.ponder
            && !board.is_over()
            && self.own_color.is_some_and(|own| own != board.to_move())
    }

    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// Serves the protocol until `quit`/`exit` or the end of `input`.
    pub fn run<R: Read, W: Write, E: Write>(
        &mut self,
        input: R,
        mut output: W,
        mut diagnostics: E,
    ) -> io::Result<()> {
        let mut reader = LineReader::new(input);
        let mut out = Output::default();
        while let Some(line) = reader.next_line()? {
            let flow = self.handle_input(line, &mut out);
            output.write_all(out.stdout.as_bytes())?;
            output.flush()?;
            // A closed stderr must not stop the game.
            let _ = diagnostics.write_all(out.stderr.as_bytes());
            out.stdout.clear();
            out.stderr.clear();
            if flow == Flow::Quit {
                break;
            }
        }
        Ok(())
    }

    pub fn handle_input(&mut self, line: InputLine<'_>, out: &mut Output) -> Flow {
        match line {
            InputLine::Text(text) => self.handle_line(text, out),
            InputLine::NotUtf8 { .. } => {
                note(out, "error: input line is not valid UTF-8; ignored");
                Flow::Continue
            }
            InputLine::TooLong { .. } => {
                note(
                    out,
                    &format!("error: input line longer than {MAX_LINE_BYTES} bytes; ignored"),
                );
                Flow::Continue
            }
        }
    }

    /// Handles one line (without `\n`); stdout lines and stderr notes are appended to `out`.
    pub fn handle_line(&mut self, line: &str, out: &mut Output) -> Flow {
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else {
            return Flow::Continue;
        };
        let args: Vec<&str> = words.collect();
        match self.execute(&command.to_ascii_lowercase(), &args, out) {
            Ok(flow) => flow,
            Err(problem) => {
                tracing::debug!(%line, %problem, "Connect6 command refused");
                note(
                    out,
                    &format!(
                        "error: {problem} (input `{}`); state unchanged",
                        line.trim()
                    ),
                );
                Flow::Continue
            }
        }
    }

    fn execute(&mut self, command: &str, args: &[&str], out: &mut Output) -> Result<Flow, String> {
        let no_args = |args: &[&str]| match args.first() {
            None => Ok(()),
            Some(extra) => Err(format!("`{command}` takes no argument, got `{extra}`")),
        };
        match command {
            "name" | "name?" => {
                no_args(args)?;
                out.stdout.push_str(&format!("name {}\n", self.name));
            }
            "new" => {
                let own = match args {
                    [colour] if colour.eq_ignore_ascii_case("black") => Color::Black,
                    [_] => Color::White,
                    _ => return Err("usage: new black|white".to_string()),
                };
                self.engine
                    .new_game(self.board_size)
                    .map_err(|e| e.to_string())?;
                self.own_color = Some(own);
                self.last_placed = None;
                if own == Color::Black {
                    self.answer(out)?;
                }
            }
            "move" => {
                let [token] = args else {
                    return Err("usage: move XXXX".to_string());
                };
                if self.engine.board().is_over() {
                    return Err("the game is over".to_string());
                }
                let stones = self.parse_turn(token)?;
                let colour = self.engine.board().to_move();
                if self.own_color == Some(colour) {
                    return Err(format!(
                        "it is the engine's own turn ({colour}), not the opponent's"
                    ));
                }
                self.place(colour, &stones)?;
                if self.engine.board().is_over() {
                    note(
                        out,
                        &format!("game over: {}", result_words(self.engine.board().result())),
                    );
                } else {
                    self.own_color.get_or_insert(colour.opponent());
                    self.answer(out)?;
                }
            }
            "black" | "white" => {
                let [token] = args else {
                    return Err(format!("usage: {command} XXXX"));
                };
                let colour = Color::parse(command).expect("matched above");
                if self.engine.board().is_over() {
                    return Err("the game is over".to_string());
                }
                let stones = self.parse_turn(token)?;
                if self.engine.board().to_move() != colour {
                    return Err(format!(
                        "{colour} stones, but {} is to play",
                        self.engine.board().to_move()
                    ));
                }
                self.place(colour, &stones)?;
            }
            "next" => {
                no_args(args)?;
                if self.engine.board().is_over() {
                    return Err("the game is over".to_string());
                }
                let to_move = self.engine.board().to_move();
                if let Some(last) = self.last_placed {
                    if last == to_move {
                        return Err(format!("{last} has not finished its turn"));
                    }
                }
                self.own_color = Some(to_move);
                self.answer(out)?;
            }
            "depth" => {
                let [word] = args else {
                    return Err("usage: depth d".to_string());
                };
                let depth = word
                    .parse::<u32>()
                    .ok()
                    .filter(|&d| d >= 1)
                    .ok_or_else(|| format!("depth `{word}` is not a positive whole number"))?;
                let seconds = self.config.depth_turn_seconds(depth);
                self.engine.clock_mut().default_turn_time = Some(self.config.c6_turn_time(seconds));
                note(out, &format!("depth {depth}: {seconds} s per turn"));
            }
            "vcf" | "unvcf" => {
                no_args(args)?;
                note(out, &format!("`{command}` accepted; it changes nothing"));
            }
            "print" => {
                no_args(args)?;
                self.print_board(&mut out.stderr);
            }
            "end" => note(out, &format!("game ended {}", args.join(" "))),
            "error" => {
                let last = self.engine.board().last_stone().map(notation::format_gtp);
                tracing::warn!(?last, "the controller says our last move was illegal");
                note(out, "the controller reports our last move as illegal");
            }
            "help" => note(out, HELP),
            "quit" | "exit" => return Ok(Flow::Quit),
            _ => return Err(format!("unknown command `{command}`")),
        }
        Ok(Flow::Continue)
    }

    /// The stones of one complete turn: Black's opening stone alone, else two (one only when
    /// it ends the game). Checked on a copy of the board; nothing is placed.
    fn parse_turn(&self, token: &str) -> Result<Vec<Point>, String> {
        let mut stones = token::parse(token, self.board_size, self.letters)?;
        let board = self.engine.board();
        let opening = board.stone_count() == 0;
        if opening && stones.len() == 2 && stones[0] == stones[1] {
            stones.pop(); // `JJJJ`: Black's single opening stone written twice
        }
        if board.stage() != Stage::First {
            return Err("the previous turn is unfinished".to_string());
        }
        let mut trial = board.clone();
        for &p in &stones {
            trial.play(p).map_err(|e| {
                format!(
                    "stone `{}`: {e}",
                    notation::format_c6_stone(p, self.board_size, self.letters)
                )
            })?;
        }
        let complete = trial.stage() == Stage::First || trial.is_over();
        if !complete {
            return Err(if opening {
                "Black's opening turn is one stone".to_string()
            } else {
                "a turn is two stones".to_string()
            });
        }
        if opening && stones.len() != 1 {
            return Err("Black's opening turn is one stone".to_string());
        }
        Ok(stones)
    }

    fn place(&mut self, colour: Color, stones: &[Point]) -> Result<(), String> {
        for &p in stones {
            // parse_turn replayed these on a copy, so they cannot fail here.
            self.engine.play(colour, p).map_err(|e| e.to_string())?;
        }
        self.last_placed = Some(colour);
        Ok(())
    }

    /// The engine plays a whole turn for the side to move and writes `move …`.
    fn answer(&mut self, out: &mut Output) -> Result<(), String> {
        let colour = self.engine.board().to_move();
        let opening = self.engine.board().stone_count() == 0;
        let mut stones = vec![self.genmove(colour)?];
        if !opening && !self.engine.board().is_over() {
            stones.push(self.genmove(colour)?);
        }
        self.last_placed = Some(colour);
        let single = stones.len() == 1;
        if single && !opening {
            // Our first stone won; protocols expect two stones, so name any empty point.
            let board = self.engine.board();
            if let Some(filler) = board.points().find(|&p| board.is_empty_at(p)) {
                stones.push(filler);
            }
        }
        let placeholder = self.write_placeholder && stones.len() == 1;
        let text = token::format(&stones, self.board_size, self.letters, placeholder);
        out.stdout.push_str(&format!("move {text}\n"));
        if self.engine.board().is_over() {
            note(
                out,
                &format!("game over: {}", result_words(self.engine.board().result())),
            );
        }
        Ok(())
    }

    fn genmove(&mut self, colour: Color) -> Result<Point, String> {
        *self.stone_budget.lock() = self.engine.clock().stone_budget(self.engine.board()).time;
        let p = self.engine.genmove(colour).map_err(|e| e.to_string());
        *self.stone_budget.lock() = None;
        p
    }

    /// The board with this dialect's letters: rows top first, columns left to right.
    fn print_board(&self, err: &mut String) {
        let board: &Board = self.engine.board();
        let size = board.size();
        let letter = |i: usize| (b'A' + i as u8) as char;
        let row_label = |row: usize| match self.letters {
            LetterOrder::Cloudict => letter(row),
            LetterOrder::Sau => letter(size - 1 - row),
        };
        let header: String = (0..size).map(|c| format!(" {}", letter(c))).collect();
        err.push_str(&format!("  {header}\n"));
        for row in (0..size).rev() {
            err.push(row_label(row));
            err.push(' ');
            for col in 0..size {
                err.push(' ');
                err.push(match board.get(Point::new(col as u8, row as u8)) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                });
            }
            err.push('\n');
        }
        err.push_str(&format!(
            "{} stones; {}\n",
            board.stone_count(),
            match board.result() {
                GameResult::Ongoing => format!("{} to play", board.to_move()),
                other => result_words(other),
            }
        ));
    }

    /// Thinking time per turn now in force (the clock gives the first stone
    /// `time.first_stone_share` of it).
    pub fn turn_time(&self) -> Option<Duration> {
        self.engine.clock().default_turn_time
    }

    /// The budget of the next stone the engine would think about.
    pub fn next_stone_budget(&self) -> StoneBudget {
        self.engine.clock().stone_budget(self.engine.board())
    }
}

fn result_words(result: GameResult) -> String {
    match result {
        GameResult::Win(c) => format!("{c} wins"),
        GameResult::Draw => "draw".to_string(),
        GameResult::Ongoing => "ongoing".to_string(),
    }
}

fn note(out: &mut Output, text: &str) {
    out.stderr.push_str(text);
    if !text.ends_with('\n') {
        out.stderr.push('\n');
    }
}

const HELP: &str = "Liuzi Connect6 protocol: name | new black|white | move XXXX | black XXXX | \
white XXXX | next | depth d | vcf | unvcf | print | end | error | quit. Stones are two letters \
A..S each (column, then row; rows from the bottom, or from the top with --letters sau); a turn \
is four letters, Black's opening stone two (or JJ@@).";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::NearestPointGenerator;

    fn c6(placeholder: bool) -> C6 {
        let mut config = EngineConfig::builtin();
        config.c6.write_placeholder = placeholder;
        let engine = Engine::new(19, Box::new(NearestPointGenerator)).unwrap();
        C6::new(engine, &config)
    }

    fn send(c6: &mut C6, line: &str) -> Output {
        let mut out = Output::default();
        assert_eq!(c6.handle_line(line, &mut out), Flow::Continue);
        out
    }

    #[test]
    fn black_answers_new_at_once_with_or_without_placeholder() {
        assert_eq!(send(&mut c6(false), "new black").stdout, "move JJ\n");
        assert_eq!(send(&mut c6(true), "new black").stdout, "move JJ@@\n");
        let mut white = c6(true);
        assert_eq!(send(&mut white, "new white").stdout, "");
        let reply = send(&mut white, "move JJ@@").stdout;
        assert!(
            reply.starts_with("move ") && reply.len() == "move ABCD\n".len(),
            "{reply}"
        );
        assert_eq!(white.engine().board().stone_count(), 3);
    }

    #[test]
    fn turns_must_be_whole_and_legal() {
        let mut g = c6(false);
        send(&mut g, "new xxx");
        for bad in [
            "black JJKK",
            "white JJ",
            "black JJ@@@@",
            "black",
            "black JJ JJ",
        ] {
            let out = send(&mut g, bad);
            assert!(out.stderr.starts_with("error: "), "{bad}: {out:?}");
            assert_eq!(g.engine().board().stone_count(), 0, "{bad}");
        }
        assert_eq!(send(&mut g, "black JJJJ").stderr, "");
        assert_eq!(g.engine().board().stone_count(), 1);
        assert!(send(&mut g, "white KK")
            .stderr
            .contains("a turn is two stones"));
        assert!(send(&mut g, "white KKKK").stderr.contains("occupied"));
        assert!(send(&mut g, "black KKLL")
            .stderr
            .contains("white is to play"));
        assert_eq!(send(&mut g, "white KKLL").stderr, "");
        // `next` plays Black (the colour after the last placed, White).
        let reply = send(&mut g, "next").stdout;
        assert!(reply.starts_with("move "));
        assert_eq!(g.engine().board().to_move(), Color::White);
    }

    #[test]
    fn a_single_winning_stone_is_accepted_and_ends_the_game() {
        let mut g = c6(false);
        send(&mut g, "new white");
        // Black (the opponent) builds five on row A while White's replies go elsewhere.
        for line in [
            "black AAAA",
            "white SSQS",
            "black BACA",
            "white OSMS",
            "black DAEA",
            "white KSIS",
        ] {
            assert_eq!(send(&mut g, line).stderr, "", "{line}");
        }
        let out = send(&mut g, "move FA");
        assert_eq!(out.stdout, "");
        assert!(out.stderr.contains("black wins"), "{out:?}");
        assert!(send(&mut g, "next").stderr.contains("the game is over"));
        // A stone after it says so, not "the previous turn is unfinished".
        for line in ["move KA", "white KAKB", "black KA"] {
            let out = send(&mut g, line);
            assert!(out.stderr.contains("the game is over"), "{line}: {out:?}");
        }
    }

    #[test]
    fn quit_exit_and_dialect_commands() {
        let mut g = c6(false);
        assert_eq!(send(&mut g, "name?").stdout, "name Liuzi\n");
        assert!(send(&mut g, "depth 4").stderr.contains("4 s per turn"));
        let turn = EngineConfig::builtin().c6_turn_time(4.0);
        assert_eq!(g.turn_time(), Some(turn));
        // Black's opening stone is a turn of its own; later the first stone of a turn gets
        // first_stone_share (0.6) of it, the second the rest.
        assert_eq!(g.next_stone_budget().time, Some(turn));
        send(&mut g, "new white");
        assert!(send(&mut g, "move JJ").stdout.starts_with("move "));
        assert_eq!(g.engine().board().stone_count(), 3);
        assert_eq!(g.next_stone_budget().time, Some(turn.mul_f64(0.6)));
        assert!(send(&mut g, "depth 0").stderr.starts_with("error: "));
        for quiet in ["vcf", "unvcf", "end", "end black", "error", "print", "help"] {
            assert_eq!(send(&mut g, quiet).stdout, "", "{quiet}");
        }
        for quit in ["quit", "exit", "QUIT"] {
            let mut out = Output::default();
            assert_eq!(g.handle_line(quit, &mut out), Flow::Quit);
        }
    }
}
