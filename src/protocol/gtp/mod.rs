//! GTP v2 front-end for Connect6 (protocols.md §1), with GoGui's `gogui-rules_*` extension so
//! that GoGui can use Liuzi both as the program and as the ruler.
//!
//! Framing follows GTP v2 exactly: input lines are cleaned (control characters except tab
//! dropped, so CRLF works; `#` comments cut; empty lines ignored), an optional numeric id is
//! echoed, replies are `=id text` or `?id message` starting in column 0, each followed by a
//! blank line. A failed command leaves the state exactly as it was.
//!
//! Speed: GoGui's ruler replays whole games from `clear_board` after every stone (§1.5), so
//! `play`, `clear_board`, `gogui-rules_side_to_move` and `gogui-rules_board` do no search and
//! write into reused buffers; replies are flushed only when no more input is waiting.
//! `liuzi bench-ruler` (`src/bench/`) times that storm.

mod analyze;
mod board_text;
mod commands;
mod live;
mod params;
mod stream;

/// Lines that stop a running search before their turn comes: `gogui-interrupt` and GoGui's
/// interrupt comment `# interrupt` (with or without an id). A `quit` waits its turn, like every
/// other command.
pub fn is_urgent(line: &str) -> bool {
    let trimmed = line.trim_start();
    if let Some(comment) = trimmed.strip_prefix('#') {
        return comment.trim() == "interrupt";
    }
    let cleaned = clean(trimmed);
    let mut words = cleaned.split_whitespace();
    let name = match words.next() {
        Some(word) if is_id(word) => words.next(),
        other => other,
    };
    name == Some("gogui-interrupt")
}

pub use commands::COMMANDS;

use super::input::{Event, Input};
use super::line_reader::{InputLine, LineReader, MAX_LINE_BYTES};
use super::Flow;
use crate::config::EngineConfig;
use crate::engine::{Engine, ThinkObserver};
use crate::rules::Color;
use live::Pending;
use parking_lot::Mutex;
use std::borrow::Cow;
use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

pub struct Gtp {
    engine: Engine,
    name: String,
    /// Reply text of the command being run; reused so the hot commands do not allocate.
    reply: String,
    /// The colour of the last `genmove`: the engine ponders while the other side is to move.
    own_color: Option<Color>,
    ponder: bool,
    /// Pondering is bounded work (a playout limit): it finishes before the next command.
    ponder_bounded: bool,
    live_gfx: bool,
    /// The controller has sent a `gogui-*` command: it is GoGui, which shows live graphics
    /// (other controllers would only log them).
    gogui: Arc<AtomicBool>,
    /// The configuration in force (`liuzi-set-param` changes it).
    config: EngineConfig,
    /// A command whose reply streams, to run once its first line is out.
    pending: Option<Pending>,
    /// The analysis stream reported to while the engine thinks.
    stream: Arc<Mutex<Option<stream::Stream>>>,
    /// An analysis reply is still open: the next line read ends it.
    stream_open: bool,
}

impl Gtp {
    pub fn new(engine: Engine, config: &EngineConfig) -> Gtp {
        Gtp {
            engine,
            name: config.engine.name.clone(),
            reply: String::with_capacity(4096),
            own_color: None,
            ponder: config.protocol.ponder,
            ponder_bounded: config.search.playouts > 0,
            live_gfx: config.protocol.live_gfx,
            gogui: Arc::new(AtomicBool::new(false)),
            config: config.clone(),
            pending: None,
            stream: Arc::new(Mutex::new(None)),
            stream_open: false,
        }
    }

    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// Serves GTP from the reader thread of `input` until `quit`, the end of the input or a
    /// termination signal, running the commands in their order: `gogui-interrupt`, GoGui's
    /// `# interrupt` and the signal stop a running search (its stone is still answered), and the
    /// engine ponders between commands when `protocol.ponder` is on.
    pub fn serve<W: Write + Send + 'static>(&mut self, input: Input, output: W) -> io::Result<()> {
        let control = input.control();
        let observer: Arc<dyn ThinkObserver> = control.clone();
        self.engine.set_observer(Some(observer));
        let output = Arc::new(Mutex::new(io::BufWriter::with_capacity(64 * 1024, output)));
        let gogui = Arc::clone(&self.gogui);
        let live_gfx = self.live_gfx;
        let stream = Arc::clone(&self.stream);
        let stream_output = Arc::clone(&output);
        control.set_display(Some(Box::new(move |playouts, elapsed, children| {
            if live_gfx && gogui.load(Ordering::Relaxed) {
                let mut text = String::new();
                analyze::live_gfx(children, playouts, elapsed.as_secs_f64(), &mut text);
                // Never waits: a full, unread stderr drops blocks, it never stops the search.
                super::stderr_queue::write(text.into_bytes());
            }
            let report = stream.lock().as_mut().and_then(|s| s.due_report(children));
            if let Some(line) = report {
                let mut output = stream_output.lock();
                // A closed stdout surfaces at the reply's next write.
                let _ = output
                    .write_all(line.as_bytes())
                    .and_then(|_| output.flush());
            }
        })));
        let mut out = String::with_capacity(64 * 1024);
        let mut pondered = true;
        loop {
            if !input.has_pending() {
                let mut output = output.lock();
                output.write_all(out.as_bytes())?;
                out.clear();
                output.flush()?;
                drop(output);
                if !pondered && self.should_ponder() {
                    pondered = true;
                    input.begin_ponder(!self.ponder_bounded);
                    self.engine.ponder();
                    input.idle();
                    continue;
                }
            }
            let event = input.next();
            if std::mem::take(&mut self.stream_open) {
                out.push('\n'); // the analysis reply ends with the next line
            }
            match event {
                Event::Line(seq, line) => {
                    input.begin_command(seq);
                    let flow = self.handle_input(line.as_input(), &mut out);
                    if let Some(pending) = self.pending.take() {
                        // The reply's first line goes out before the search starts.
                        let mut locked = output.lock();
                        locked.write_all(out.as_bytes())?;
                        locked.flush()?;
                        drop(locked);
                        out.clear();
                        let mut emit = |text: &str| out.push_str(text);
                        self.run_pending(pending, Some((&input, &control)), &mut emit);
                    }
                    input.idle();
                    pondered = false;
                    let mut output = output.lock();
                    if out.len() > 32 * 1024 || flow == Flow::Quit {
                        output.write_all(out.as_bytes())?;
                        out.clear();
                    }
                    if flow == Flow::Quit {
                        return output.flush();
                    }
                }
                Event::End | Event::Terminated => {
                    let mut output = output.lock();
                    output.write_all(out.as_bytes())?;
                    return output.flush();
                }
            }
        }
    }

    /// Whether `serve` runs the session (a reader thread and an observer): streams can then
    /// wait for the next line.
    fn serving(&self) -> bool {
        self.engine.has_observer()
    }

    fn should_ponder(&self) -> bool {
        let board = self.engine.board();
        self.ponder && !board.is_over() && self.own_color.is_some_and(|own| own != board.to_move())
    }

    /// Serves GTP until `quit` or the end of `input`; replies go to `output`.
    pub fn run<R: Read, W: Write>(&mut self, input: R, output: W) -> io::Result<()> {
        let mut reader = LineReader::new(input);
        let mut output = io::BufWriter::with_capacity(64 * 1024, output);
        let mut out = String::with_capacity(64 * 1024);
        while let Some(line) = reader.next_line()? {
            let flow = self.handle_input(line, &mut out);
            if flow == Flow::Quit || !reader.has_buffered_input() || out.len() > 32 * 1024 {
                output.write_all(out.as_bytes())?;
                out.clear();
                if flow == Flow::Quit || !reader.has_buffered_input() {
                    output.flush()?;
                }
            }
            if flow == Flow::Quit {
                return Ok(());
            }
        }
        output.write_all(out.as_bytes())?;
        output.flush()
    }

    /// Handles one input line as the line reader delivered it, appending the reply to `out`.
    pub fn handle_input(&mut self, line: InputLine<'_>, out: &mut String) -> Flow {
        match line {
            InputLine::Text(text) => self.handle_line(text, out),
            InputLine::NotUtf8 { prefix } => {
                respond_error(out, &leading_id(&prefix), "input is not valid UTF-8");
                Flow::Continue
            }
            InputLine::TooLong { prefix } => {
                let message = format!("line longer than {MAX_LINE_BYTES} bytes");
                respond_error(out, &leading_id(&prefix), &message);
                Flow::Continue
            }
        }
    }

    /// Handles one line of text (without `\n`), appending the reply, if any, to `out`.
    pub fn handle_line(&mut self, line: &str, out: &mut String) -> Flow {
        let line = clean(line);
        let mut words = line.split_whitespace();
        let Some(first) = words.next() else {
            return Flow::Continue; // empty or comment-only line: no reply
        };
        let (id, name) = if is_id(first) {
            match words.next() {
                Some(name) => (first, name),
                None => {
                    respond_error(out, first, "missing command");
                    return Flow::Continue;
                }
            }
        } else {
            ("", first)
        };
        self.reply.clear();
        if name.starts_with("gogui-") && !self.gogui.load(Ordering::Relaxed) {
            self.gogui.store(true, Ordering::Relaxed);
        }
        let mut args = commands::Args::new(words);
        match self.execute(name, &mut args) {
            Ok(flow) if self.pending.is_some() => {
                // A streaming reply: its first line now, the rest as the engine thinks.
                out.push('=');
                out.push_str(id);
                out.push('\n');
                if !self.serving() {
                    let pending = self.pending.take().expect("checked above");
                    self.run_pending(pending, None, &mut |text| out.push_str(text));
                }
                flow
            }
            Ok(flow) => {
                respond(out, '=', id, &self.reply);
                flow
            }
            Err(message) => {
                tracing::debug!(command = %line, %message, "GTP command failed");
                respond_error(out, id, &message);
                Flow::Continue
            }
        }
    }
}

/// GTP preprocessing: cut a `#` comment, drop control characters other than tab (CR included).
fn clean(line: &str) -> Cow<'_, str> {
    let line = line.split_once('#').map_or(line, |(before, _)| before);
    if line.chars().any(|c| c.is_control() && c != '\t') {
        Cow::Owned(
            line.chars()
                .filter(|&c| !c.is_control() || c == '\t')
                .collect(),
        )
    } else {
        Cow::Borrowed(line)
    }
}

/// GTP ids are non-negative integers.
fn is_id(word: &str) -> bool {
    !word.is_empty() && word.len() <= 18 && word.bytes().all(|b| b.is_ascii_digit())
}

/// The id at the start of a line we cannot otherwise read, so the error reply can echo it.
fn leading_id(text: &str) -> String {
    match clean(text).split_whitespace().next() {
        Some(word) if is_id(word) => word.to_string(),
        _ => String::new(),
    }
}

fn respond(out: &mut String, status: char, id: &str, text: &str) {
    out.push(status);
    out.push_str(id);
    if !text.is_empty() {
        out.push(' ');
        // A blank line would end the reply early: never send one inside it.
        if text.contains("\n\n") || text.ends_with('\n') {
            let mut joined = String::with_capacity(text.len());
            for line in text.lines().filter(|l| !l.trim().is_empty()) {
                if !joined.is_empty() {
                    joined.push('\n');
                }
                joined.push_str(line);
            }
            out.push_str(&joined);
        } else {
            out.push_str(text);
        }
    }
    out.push_str("\n\n");
}

fn respond_error(out: &mut String, id: &str, message: &str) {
    let one_line = message.replace('\n', " ");
    respond(out, '?', id, &one_line);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::NearestPointGenerator;
    use crate::rules::Point;

    fn gtp() -> Gtp {
        let config = EngineConfig::builtin();
        let engine = Engine::new(19, Box::new(NearestPointGenerator)).unwrap();
        Gtp::new(engine, &config)
    }

    #[test]
    fn cleaning_follows_gtp_preprocessing() {
        assert_eq!(clean("play b K10 # why"), "play b K10 ");
        assert_eq!(clean("play\tb K10\r"), "play\tb K10");
        assert_eq!(clean("na\x07me"), "name");
        assert!(matches!(clean("name"), Cow::Borrowed(_)));
        assert!(is_id("0") && is_id("123") && !is_id("-1") && !is_id("1a") && !is_id(""));
        assert_eq!(leading_id("12 play \u{fffd}"), "12");
        assert_eq!(leading_id("play 12"), "");
    }

    #[test]
    fn vertices_are_written_like_the_notation_module() {
        for size in [6, 19, 25] {
            for i in 0..size * size {
                let p = Point::from_index(i, size);
                let mut text = String::new();
                board_text::push_vertex(&mut text, p);
                assert_eq!(text, crate::notation::format_gtp(p));
            }
        }
    }

    #[test]
    fn only_interrupts_are_urgent_and_quit_waits_its_turn() {
        for line in [
            "# interrupt",
            "  #interrupt ",
            "gogui-interrupt",
            "7 gogui-interrupt\r",
        ] {
            assert!(is_urgent(line), "{line:?}");
        }
        for line in ["quit", "3 quit", "# a comment", "genmove b", ""] {
            assert!(!is_urgent(line), "{line:?}");
        }
    }

    #[test]
    fn streaming_replies_are_framed_without_the_reader_thread() {
        let mut g = gtp();
        let mut out = String::new();
        g.handle_line("5 genmove_analyze b 10", &mut out);
        assert_eq!(
            out,
            "=5\ninfo move K10 visits 0 winrate 5000 prior 10000 lcb 0 order 0 player B stone 1 \
             reason opening pv K10\nplay K10\n\n"
        );
        assert_eq!(g.engine().board().stone_count(), 1);
        out.clear();
        // Nothing can stop an analysis here, so it reports what is known (nothing) and ends.
        g.handle_line("lz-analyze 10", &mut out);
        assert_eq!(out, "=\n\n");
        out.clear();
        g.handle_line("2 lz-analyze b", &mut out);
        assert!(out.starts_with("?2 white is to play"), "{out}");
    }

    #[test]
    fn replies_never_contain_a_blank_line() {
        let mut out = String::new();
        respond(&mut out, '=', "3", "a\n\nb\n");
        assert_eq!(out, "=3 a\nb\n\n");
        out.clear();
        respond_error(&mut out, "", "bad\nthing");
        assert_eq!(out, "? bad thing\n\n");
    }

    #[test]
    fn every_listed_command_is_known_and_handled() {
        let mut g = gtp();
        for command in COMMANDS {
            let mut out = String::new();
            g.handle_line(&format!("known_command {command}"), &mut out);
            assert_eq!(out, "= true\n\n");
            out.clear();
            if *command != "quit" {
                g.handle_line(command, &mut out);
                assert!(!out.contains("unknown command"), "{command}: {out}");
            }
        }
    }
}
