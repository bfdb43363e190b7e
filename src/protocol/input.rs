//! Protocol input read on its own thread, so that an interrupt can stop the search of an earlier
//! command: while the engine thinks, the reader keeps reading. Commands run in their order: a
//! queued `quit` or the end of the input waits for the commands before it (each is bounded by
//! its clock or playouts), as in every GTP engine, so a piped script gets the same stones as a
//! slow one. Only an explicit interrupt (GoGui's; each front-end says which lines are one) or a
//! termination signal stops a running search early; the search answers with its best stone so
//! far and the lines are then handled in their order, as if read after it.
//!
//! Every line gets a sequence number. An interrupt read as line `n` stops the commands before
//! `n` (the one running, and any still queued), never a later one. A ponder search (thinking
//! on the opponent's time) or a live analysis is stopped by any line and by the end of the
//! input; pondering that is bounded work (a playout limit) finishes first, so that
//! reproducible configurations stay reproducible.
//!
//! At most [`MAX_QUEUED_LINES`] lines wait: a controller that floods the engine is pushed back
//! by the pipe. A termination signal is not queued behind them: the running search answers,
//! the lines still queued are dropped and the session ends.

use super::line_reader::{InputLine, LineReader};
use crate::engine::{ChildAnalysis, ThinkObserver, PROGRESS_INTERVAL};
use crossbeam::channel::{self, Receiver, Sender};
use parking_lot::Mutex;
use std::io::{self, Read};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Lines read ahead of the one being handled, at most (GoGui and match runners send one at a
/// time; a few hundred is a flood). The reader waits when they are queued, and so does the pipe.
pub const MAX_QUEUED_LINES: usize = 1024;

/// One input line as the reader thread hands it over (owned).
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    Text(String),
    NotUtf8 { prefix: String },
    TooLong { prefix: String },
}

impl Line {
    fn from_input(line: InputLine<'_>) -> Line {
        match line {
            InputLine::Text(t) => Line::Text(t.to_string()),
            InputLine::NotUtf8 { prefix } => Line::NotUtf8 { prefix },
            InputLine::TooLong { prefix } => Line::TooLong { prefix },
        }
    }

    pub fn as_input(&self) -> InputLine<'_> {
        match self {
            Line::Text(t) => InputLine::Text(t),
            Line::NotUtf8 { prefix } => InputLine::NotUtf8 {
                prefix: prefix.clone(),
            },
            Line::TooLong { prefix } => InputLine::TooLong {
                prefix: prefix.clone(),
            },
        }
    }
}

#[derive(Debug)]
pub enum Event {
    /// Line number `seq` (from 1).
    Line(u64, Line),
    /// End of input (or a read error, logged): finish and stop.
    End,
    /// SIGTERM / SIGINT / SIGHUP: stop the search at once, finish and stop.
    Terminated,
}

/// What the running command is, for the reader's decisions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Running {
    Idle,
    /// The command of line `seq`.
    Command(u64),
    /// Thinking on the opponent's time; `any_line` = every new line stops it.
    Ponder {
        any_line: bool,
    },
}

struct State {
    /// Lines read so far (the last one's number).
    read: u64,
    /// Lines handed to the front-end and started.
    started: u64,
    /// Commands of lines before this number are to stop (an interrupt's line number).
    stop_before: u64,
    /// The input has ended: pondering stops, commands run to their own limits.
    ended: bool,
    running: Running,
}

/// Shared by the reader thread, the signal handler and the running search.
pub struct Control {
    state: Mutex<State>,
    stop: AtomicBool,
    display: Mutex<Option<Box<Display>>>,
    /// How often the display is shown, in microseconds (an analysis stream's interval).
    display_micros: AtomicU64,
}

/// Shows a running search's progress (GoGui live graphics, Connect6 `Searching i/n`).
pub type Display = dyn Fn(u64, Duration, &[ChildAnalysis]) + Send + Sync;

impl Control {
    fn new() -> Control {
        Control {
            state: Mutex::new(State {
                read: 0,
                started: 0,
                stop_before: 0,
                ended: false,
                running: Running::Idle,
            }),
            stop: AtomicBool::new(false),
            display: Mutex::new(None),
            display_micros: AtomicU64::new(PROGRESS_INTERVAL.as_micros() as u64),
        }
    }

    /// The reader read line `seq`; `urgent` = it asks to stop what runs before it.
    fn line_read(&self, urgent: bool) -> u64 {
        let mut s = self.state.lock();
        s.read += 1;
        let seq = s.read;
        if urgent {
            s.stop_before = seq;
        }
        self.update(&s);
        seq
    }

    /// No more input will come: pondering stops; commands read before run to their own limits.
    pub fn end(&self) {
        let mut s = self.state.lock();
        s.ended = true;
        self.update(&s);
    }

    /// A termination signal: everything running stops at once.
    pub fn terminate(&self) {
        let mut s = self.state.lock();
        s.stop_before = u64::MAX;
        self.update(&s);
    }

    fn update(&self, s: &State) {
        let stop = match s.running {
            Running::Idle => false,
            Running::Command(seq) => seq < s.stop_before,
            Running::Ponder { any_line } => {
                s.stop_before > s.started || (any_line && (s.read > s.started || s.ended))
            }
        };
        if stop {
            self.stop.store(true, Ordering::Relaxed);
        }
    }

    fn set_running(&self, running: Running) {
        let mut s = self.state.lock();
        if let Running::Command(seq) = running {
            s.started = s.started.max(seq);
        }
        s.running = running;
        self.stop.store(false, Ordering::Relaxed);
        self.update(&s);
    }

    /// Installs how search progress is shown (`None`: not at all).
    pub fn set_display(&self, display: Option<Box<Display>>) {
        *self.display.lock() = display;
    }

    /// How often the display is shown from now on (the search's default when `None`).
    pub fn set_display_interval(&self, interval: Option<Duration>) {
        let interval = interval.unwrap_or(PROGRESS_INTERVAL);
        self.display_micros
            .store(interval.as_micros() as u64, Ordering::Relaxed);
    }
}

impl ThinkObserver for Control {
    fn stop_requested(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    fn progress(&self, playouts: u64, elapsed: Duration, children: &[ChildAnalysis]) {
        if let Some(display) = self.display.lock().as_ref() {
            display(playouts, elapsed, children);
        }
    }

    fn progress_interval(&self) -> Duration {
        Duration::from_micros(self.display_micros.load(Ordering::Relaxed))
    }
}

/// The receiving end: the front-end's loop takes events from here.
pub struct Input {
    events: Receiver<Event>,
    /// Set by a termination signal: the queued lines are dropped.
    terminated: Arc<AtomicBool>,
    /// Wakes [`Input::next`] when a signal comes while it waits (the line queue may be full).
    wake: Sender<()>,
    woken: Receiver<()>,
    control: Arc<Control>,
}

impl Input {
    /// Starts the reader thread on `input`. `urgent(line)` tells the lines that stop the
    /// running command (before they are handled in their turn).
    pub fn start<R, F>(input: R, urgent: F) -> Input
    where
        R: Read + Send + 'static,
        F: Fn(&str) -> bool + Send + 'static,
    {
        let (tx, rx) = channel::bounded(MAX_QUEUED_LINES);
        let (wake, woken) = channel::bounded(1);
        let control = Arc::new(Control::new());
        let reader_control = Arc::clone(&control);
        std::thread::Builder::new()
            .name("protocol-input".to_string())
            .spawn(move || read_loop(input, urgent, &reader_control, &tx))
            .expect("spawning the input thread");
        Input {
            events: rx,
            terminated: Arc::new(AtomicBool::new(false)),
            wake,
            woken,
            control,
        }
    }

    /// The next event; blocks. After a termination signal, [`Event::Terminated`] whatever is
    /// queued.
    pub fn next(&self) -> Event {
        if self.terminated.load(Ordering::SeqCst) {
            return Event::Terminated;
        }
        channel::select! {
            recv(self.events) -> event => match event {
                _ if self.terminated.load(Ordering::SeqCst) => Event::Terminated,
                Ok(event) => event,
                Err(_) => Event::End,
            },
            recv(self.woken) -> _ => Event::Terminated,
        }
    }

    /// Whether an event is waiting (replies can wait to be flushed together).
    pub fn has_pending(&self) -> bool {
        !self.events.is_empty() || self.terminated.load(Ordering::SeqCst)
    }

    pub fn control(&self) -> Arc<Control> {
        Arc::clone(&self.control)
    }

    /// For a signal handler: stops everything and ends the session, dropping the lines still
    /// queued. Never waits.
    pub fn terminator(&self) -> impl Fn() + Send + Sync + 'static {
        let control = Arc::clone(&self.control);
        let terminated = Arc::clone(&self.terminated);
        let wake = self.wake.clone();
        move || {
            terminated.store(true, Ordering::SeqCst);
            control.terminate();
            let _ = wake.try_send(());
        }
    }

    /// The command of line `seq` starts (a search in it may be stopped by later lines).
    pub fn begin_command(&self, seq: u64) {
        self.control.set_running(Running::Command(seq));
    }

    /// A ponder search starts; `any_line` = the next line stops it.
    pub fn begin_ponder(&self, any_line: bool) {
        self.control.set_running(Running::Ponder { any_line });
    }

    pub fn idle(&self) {
        self.control.set_running(Running::Idle);
    }
}

fn read_loop<R: Read, F: Fn(&str) -> bool>(
    input: R,
    urgent: F,
    control: &Control,
    tx: &Sender<Event>,
) {
    let mut reader = LineReader::new(input);
    loop {
        match reader.next_line() {
            Ok(Some(line)) => {
                let is_urgent = matches!(&line, InputLine::Text(t) if urgent(t));
                let seq = control.line_read(is_urgent);
                if tx.send(Event::Line(seq, Line::from_input(line))).is_err() {
                    return; // the front-end is gone
                }
            }
            Ok(None) => break,
            Err(e) => {
                if e.kind() != io::ErrorKind::Interrupted {
                    tracing::warn!(error = %e, "reading the protocol input failed; stopping");
                    break;
                }
            }
        }
    }
    control.end();
    let _ = tx.send(Event::End);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_interrupt_stops_earlier_commands_only() {
        let c = Control::new();
        assert_eq!(c.line_read(false), 1);
        c.set_running(Running::Command(1));
        assert!(!c.stop_requested());
        assert_eq!(c.line_read(false), 2);
        assert!(!c.stop_requested(), "a plain line does not stop a command");
        c.line_read(true);
        assert!(c.stop_requested(), "line 3 interrupts command 1");
        c.set_running(Running::Command(2));
        assert!(
            c.stop_requested(),
            "command 2 was queued before the interrupt"
        );
        c.line_read(false);
        c.set_running(Running::Command(4));
        assert!(!c.stop_requested(), "command 4 came after it");
        c.end();
        assert!(
            !c.stop_requested(),
            "the end of the input waits for command 4"
        );
        c.terminate();
        assert!(c.stop_requested(), "a signal does not wait");
    }

    #[test]
    fn the_end_of_the_input_stops_pondering_only() {
        let c = Control::new();
        c.line_read(false);
        c.set_running(Running::Command(1));
        c.end();
        assert!(!c.stop_requested());
        c.set_running(Running::Ponder { any_line: true });
        assert!(c.stop_requested(), "nothing can come to stop it any more");
    }

    #[test]
    fn ponder_stops_on_any_line_unless_bounded() {
        let c = Control::new();
        c.line_read(false);
        c.set_running(Running::Command(1));
        c.set_running(Running::Ponder { any_line: true });
        assert!(!c.stop_requested());
        c.line_read(false);
        assert!(c.stop_requested());
        c.set_running(Running::Command(2));
        c.set_running(Running::Ponder { any_line: false });
        c.line_read(false);
        assert!(!c.stop_requested(), "bounded pondering finishes its work");
        c.line_read(true);
        assert!(c.stop_requested(), "but an interrupt stops it");
    }

    /// Endless `name` lines, like a controller that never stops writing.
    struct Flood;

    impl Read for Flood {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            for (i, b) in buf.iter_mut().enumerate() {
                *b = b"name\n"[i % 5];
            }
            Ok(buf.len() / 5 * 5)
        }
    }

    #[test]
    fn a_flood_is_read_no_further_than_the_queue_bound() {
        let input = Input::start(Flood, |_| false);
        std::thread::sleep(Duration::from_millis(300));
        let read = input.control.state.lock().read;
        assert!(
            (1..=MAX_QUEUED_LINES as u64 + 1).contains(&read),
            "{read} lines read ahead"
        );
        assert!(matches!(input.next(), Event::Line(1, _)));
    }

    #[test]
    fn a_termination_signal_drops_the_queued_lines() {
        let input = Input::start(Flood, |_| false);
        assert!(matches!(input.next(), Event::Line(1, _)));
        (input.terminator())();
        assert!(input.has_pending());
        assert!(matches!(input.next(), Event::Terminated));
        assert!(matches!(input.next(), Event::Terminated));
        assert_eq!(
            input.control.state.lock().stop_before,
            u64::MAX,
            "all commands stop"
        );
    }

    #[test]
    fn the_reader_delivers_lines_in_order_then_the_end() {
        let input = Input::start(&b"a\nquit\nb"[..], |l| l == "quit");
        let mut seen = Vec::new();
        loop {
            match input.next() {
                Event::Line(seq, Line::Text(t)) => seen.push(format!("{seq}:{t}")),
                Event::End => break,
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(seen, ["1:a", "2:quit", "3:b"]);
    }
}
