//! One engine process: spawned through `tokio::process` in its own process group, stdout read
//! line by line by a task on a small shared runtime, every read and write bounded by a deadline,
//! and the whole group killed when dropped.
//!
//! The match threads stay synchronous: each call blocks on the runtime until a line arrives, the
//! deadline passes or the match is cancelled, so an engine that stops talking costs at most its
//! deadline. Killing the process group (not just the child) also ends wrapper scripts' children.
//!
//! Output is bounded: an engine that has more than [`FLOOD_BYTES`] of stdout waiting unread, or
//! that writes more than that in answer to one command, is flooding; its reader stops and every
//! later read fails with [`ReadError::Flood`], so the engine loses the game as misbehaving.

use std::path::PathBuf;
use std::process::{ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, Command};
use tokio::runtime::Runtime;
use tokio::sync::{mpsc, watch};

/// Longest stdout line kept; the rest of an overlong line is dropped.
const MAX_LINE_BYTES: usize = 64 * 1024;

/// Output allowed to wait unread, and output allowed in answer to one command. Far above any
/// honest engine's chatter (Cloudict prints about 2 KB a search); a flood past it loses.
pub const FLOOD_BYTES: usize = 16 * 1024 * 1024;

/// Bookkeeping cost of one queued line besides its text, so that floods of empty lines count.
const LINE_OVERHEAD: usize = 64;

/// How long writing one command line may take before the engine counts as not reading.
const WRITE_TIMEOUT: Duration = Duration::from_secs(10);

/// After the engine exits, how long its last lines may take to come through the pipe. Its
/// output may stay open much longer (a grandchild that inherited it), so the exit itself, not
/// the end of the output, ends the engine.
const EXIT_DRAIN: Duration = Duration::from_millis(250);

/// The runtime that drives every engine's pipes: one I/O thread is plenty for a few pipes.
fn runtime() -> &'static Runtime {
    static RUNTIME: OnceLock<Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("engine-io")
            .enable_all()
            .build()
            .expect("cannot start the engine I/O runtime")
    })
}

/// Set on Ctrl-C / SIGTERM: every pending read returns [`ReadError::Cancelled`] at once.
#[derive(Clone)]
pub struct CancelToken(Arc<watch::Sender<bool>>);

impl Default for CancelToken {
    fn default() -> CancelToken {
        CancelToken(Arc::new(watch::channel(false).0))
    }
}

impl std::fmt::Debug for CancelToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CancelToken({})", self.is_cancelled())
    }
}

impl CancelToken {
    pub fn cancel(&self) {
        self.0.send_replace(true);
    }

    pub fn is_cancelled(&self) -> bool {
        *self.0.borrow()
    }

    /// Resolves once the token is cancelled.
    async fn cancelled(&self) {
        let mut receiver = self.0.subscribe();
        // `wait_for` only fails when the sender is gone, and we hold it.
        let _ = receiver.wait_for(|&cancelled| cancelled).await;
    }
}

/// What to start: program and arguments, working directory, extra environment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaunchSpec {
    /// Name used in logs and error messages.
    pub label: String,
    pub argv: Vec<String>,
    pub dir: Option<PathBuf>,
    pub env: Vec<(String, String)>,
    /// Where the engine's stderr goes; `None` discards it.
    pub stderr_log: Option<PathBuf>,
}

#[derive(Debug)]
pub enum ReadError {
    /// The deadline passed with no complete line.
    Timeout,
    /// stdout closed: the engine exited or crashed. Holds a description of how it ended.
    Closed(String),
    /// The engine wrote more than [`FLOOD_BYTES`]; holds what it did.
    Flood(String),
    Cancelled,
}

#[derive(Debug)]
pub enum WriteError {
    /// The pipe is closed or the engine reads nothing; holds a description.
    Failed(String),
    /// The engine flooded its output earlier (see [`ReadError::Flood`]).
    Flood(String),
}

/// What ended a wait in `read_line`.
enum Wake {
    Output(Option<ReaderEvent>),
    Exited(std::io::Result<ExitStatus>),
}

enum ReaderEvent {
    Line(String),
    Eof,
    Failed(String),
}

/// Byte counts shared by the reader task and the process handle.
#[derive(Default)]
struct OutputMeter {
    /// Queued by the reader, not yet taken by `read_line`.
    unread: AtomicUsize,
    /// Read from the pipe since the last command was sent.
    since_command: AtomicUsize,
    /// Set (with its description) once the engine flooded; the reader has stopped.
    flooded: OnceLock<String>,
}

pub struct EngineProcess {
    label: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::UnboundedReceiver<ReaderEvent>,
    meter: Arc<OutputMeter>,
    closed: Option<String>,
    /// How the engine process itself ended, once it has (its output may still be open).
    exited: Option<String>,
    cancel: CancelToken,
    /// The engine's process group id (its pid at start), kept because tokio forgets the pid
    /// once the leader has been reaped, while its children may live on.
    #[cfg_attr(not(unix), allow(dead_code))]
    group: Option<u32>,
    /// Whether the group has been killed already (by `Drop` or after a flood).
    killed: AtomicBool,
}

impl EngineProcess {
    pub fn spawn(spec: &LaunchSpec, cancel: CancelToken) -> Result<EngineProcess, String> {
        let (program, args) = spec
            .argv
            .split_first()
            .ok_or_else(|| format!("{}: empty command", spec.label))?;
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .envs(spec.env.iter().map(|(k, v)| (k, v)))
            .kill_on_drop(true);
        if let Some(dir) = &spec.dir {
            command.current_dir(dir);
        }
        command.stderr(match &spec.stderr_log {
            None => Stdio::null(),
            Some(path) => std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map(Stdio::from)
                .map_err(|e| format!("cannot open engine log {}: {e}", path.display()))?,
        });
        // Own process group: the terminal's Ctrl-C reaches only us, and we can kill the group.
        #[cfg(unix)]
        command.process_group(0);
        let _context = runtime().enter();
        let mut child = command.spawn().map_err(|e| {
            let place = spec
                .dir
                .as_ref()
                .map(|d| format!(" in {}", d.display()))
                .unwrap_or_default();
            format!(
                "{}: cannot start `{}`{place}: {e}",
                spec.label,
                spec.argv.join(" ")
            )
        })?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| format!("{}: no stdout pipe", spec.label))?;
        let stdin = child.stdin.take();
        let group = child.id();
        let (sender, lines) = mpsc::unbounded_channel();
        let meter = Arc::new(OutputMeter::default());
        runtime().spawn(read_lines(stdout, sender, meter.clone()));
        Ok(EngineProcess {
            label: spec.label.clone(),
            child,
            stdin,
            lines,
            meter,
            closed: None,
            exited: None,
            cancel,
            group,
            killed: AtomicBool::new(false),
        })
    }

    pub fn label(&self) -> &str {
        &self.label
    }

    /// Writes one line (a newline is added) and flushes, within [`WRITE_TIMEOUT`].
    pub fn send(&mut self, line: &str) -> Result<(), WriteError> {
        tracing::trace!(engine = %self.label, "> {line}");
        if let Some(flood) = self.meter.flooded.get() {
            // Its output is cut off (which may have ended it): the flood is what went wrong.
            return Err(WriteError::Flood(flood.clone()));
        }
        self.meter.since_command.store(0, Ordering::SeqCst);
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| WriteError::Failed("stdin already closed".to_string()))?;
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        let result = runtime().block_on(async {
            tokio::time::timeout(WRITE_TIMEOUT, async {
                stdin.write_all(&bytes).await?;
                stdin.flush().await
            })
            .await
        });
        match result {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(WriteError::Failed(
                match self.exit_description(Duration::from_millis(50)) {
                    Some(how) => format!("cannot write to engine ({how})"),
                    None => format!("cannot write to engine: {e}"),
                },
            )),
            Err(_) => Err(WriteError::Failed(format!(
                "the engine read none of its input for {} s",
                WRITE_TIMEOUT.as_secs()
            ))),
        }
    }

    /// The next stdout line, waiting until `deadline` at most.
    pub fn read_line(&mut self, deadline: Instant) -> Result<String, ReadError> {
        if let Some(how) = &self.closed {
            return Err(ReadError::Closed(how.clone()));
        }
        if let Some(flood) = self.meter.flooded.get() {
            self.kill_group();
            return Err(ReadError::Flood(flood.clone()));
        }
        if self.cancel.is_cancelled() {
            return Err(ReadError::Cancelled);
        }
        let cancel = self.cancel.clone();
        let lines = &mut self.lines;
        let child = &mut self.child;
        // Once the engine has exited, only what it wrote before is still to come.
        let (deadline, watch_exit) = match self.exited {
            Some(_) => (deadline.min(Instant::now() + EXIT_DRAIN), false),
            None => (deadline, true),
        };
        let woke = runtime().block_on(async {
            tokio::select! {
                biased;
                _ = cancel.cancelled() => Err(ReadError::Cancelled),
                event = tokio::time::timeout_at(deadline.into(), lines.recv()) => {
                    event.map(Wake::Output).map_err(|_| ReadError::Timeout)
                }
                status = child.wait(), if watch_exit => Ok(Wake::Exited(status)),
            }
        });
        let event = match woke {
            Ok(Wake::Output(event)) => event,
            Ok(Wake::Exited(status)) => {
                self.exited = Some(match status {
                    Ok(status) => describe_exit(status),
                    Err(e) => format!("ended ({e})"),
                });
                return self.read_line(deadline);
            }
            Err(ReadError::Timeout) if self.exited.is_some() => {
                // Exited, and its output is held open by a process it left behind.
                let how = self.exited.clone().unwrap_or_default();
                self.closed = Some(how.clone());
                return Err(ReadError::Closed(how));
            }
            Err(e) => return Err(e),
        };
        match event {
            Some(ReaderEvent::Line(line)) => {
                self.meter
                    .unread
                    .fetch_sub(line.len() + LINE_OVERHEAD, Ordering::SeqCst);
                tracing::trace!(engine = %self.label, "< {line}");
                Ok(line)
            }
            Some(ReaderEvent::Eof) | None => {
                if let Some(flood) = self.meter.flooded.get() {
                    self.kill_group();
                    return Err(ReadError::Flood(flood.clone()));
                }
                let how = match &self.exited {
                    Some(how) => how.clone(),
                    None => self
                        .exit_description(Duration::from_millis(500))
                        .unwrap_or_else(|| "closed its output".to_string()),
                };
                self.closed = Some(how.clone());
                Err(ReadError::Closed(how))
            }
            Some(ReaderEvent::Failed(e)) => {
                let how = format!("output unreadable: {e}");
                self.closed = Some(how.clone());
                Err(ReadError::Closed(how))
            }
        }
    }

    /// How the process ended, if it ends within `wait`.
    fn exit_description(&mut self, wait: Duration) -> Option<String> {
        let child = &mut self.child;
        runtime()
            .block_on(async { tokio::time::timeout(wait, child.wait()).await })
            .ok()
            .and_then(Result::ok)
            .map(describe_exit)
    }

    /// Asks the engine to exit with `quit_command`, waits up to `grace` for its output to close,
    /// then kills whatever is left (dropping does the killing).
    pub fn shut_down(mut self, quit_command: Option<&str>, grace: Duration) {
        if let Some(cmd) = quit_command {
            if self.closed.is_none() && self.send(cmd).is_ok() {
                self.stdin = None; // EOF as well, for engines that ignore quit
                let deadline = Instant::now() + grace;
                while let Ok(_line) = self.read_line(deadline) {}
            }
        }
    }

    /// Kills the engine's process group (or the engine alone where there are no groups).
    fn kill_group(&self) {
        if self.killed.swap(true, Ordering::SeqCst) {
            return;
        }
        // A group outlives its leader while any member lives, and its id is not reused before
        // it is empty, so killing it after the leader was reaped is safe.
        #[cfg(unix)]
        if let Some(pid) = self.group {
            // An error means the group is gone already, which is what we want.
            let _ = nix::sys::signal::killpg(
                nix::unistd::Pid::from_raw(pid as i32),
                nix::sys::signal::Signal::SIGKILL,
            );
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.stdin = None;
        self.kill_group();
        let _ = self.child.start_kill();
        let child = &mut self.child;
        let _ = runtime()
            .block_on(async { tokio::time::timeout(Duration::from_secs(5), child.wait()).await });
    }
}

fn describe_exit(status: ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return format!("killed by signal {signal}");
        }
    }
    match status.code() {
        Some(code) => format!("exited with code {code}"),
        None => "exited".to_string(),
    }
}

/// Reader task: splits stdout into lines (without `\r\n`), capping their length and stopping
/// at a flood (see [`FLOOD_BYTES`]).
async fn read_lines(
    stdout: impl AsyncRead + Unpin,
    sender: mpsc::UnboundedSender<ReaderEvent>,
    meter: Arc<OutputMeter>,
) {
    let mut reader = BufReader::new(stdout);
    let mut line: Vec<u8> = Vec::new();
    let mut overlong = false;
    loop {
        let chunk = match reader.fill_buf().await {
            Ok([]) => {
                if !line.is_empty() {
                    let _ = sender.send(ReaderEvent::Line(finish_line(&line)));
                }
                let _ = sender.send(ReaderEvent::Eof);
                return;
            }
            Ok(chunk) => chunk,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                let _ = sender.send(ReaderEvent::Failed(e.to_string()));
                return;
            }
        };
        let (take, newline) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        let body = &chunk[..if newline { take - 1 } else { take }];
        let room = MAX_LINE_BYTES.saturating_sub(line.len());
        if body.len() > room {
            overlong = true;
        }
        line.extend_from_slice(&body[..body.len().min(room)]);
        reader.consume(take);
        let since = meter.since_command.fetch_add(take, Ordering::SeqCst) + take;
        if since > FLOOD_BYTES {
            flood(
                &meter,
                format!(
                    "wrote over {} MiB in answer to one command",
                    FLOOD_BYTES >> 20
                ),
            );
            return;
        }
        if newline {
            if overlong {
                tracing::debug!("engine output line longer than {MAX_LINE_BYTES} bytes truncated");
            }
            let text = finish_line(&line);
            let cost = text.len() + LINE_OVERHEAD;
            let unread = meter.unread.fetch_add(cost, Ordering::SeqCst) + cost;
            if unread > FLOOD_BYTES {
                flood(
                    &meter,
                    format!("left over {} MiB of output unread", FLOOD_BYTES >> 20),
                );
                return;
            }
            if sender.send(ReaderEvent::Line(text)).is_err() {
                return; // the process handle is gone
            }
            line.clear();
            overlong = false;
        }
    }
}

/// Records a flood; returning from the reader then drops the pipe and closes the channel.
fn flood(meter: &OutputMeter, what: String) {
    tracing::warn!("engine output flood: {what}");
    let _ = meter.flooded.set(format!("flooded its output: {what}"));
}

fn finish_line(bytes: &[u8]) -> String {
    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    String::from_utf8_lossy(bytes).into_owned()
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn sh(script: &str) -> LaunchSpec {
        LaunchSpec {
            label: "sh".into(),
            argv: vec!["sh".into(), "-c".into(), script.into()],
            dir: None,
            env: vec![],
            stderr_log: None,
        }
    }

    fn soon(ms: u64) -> Instant {
        Instant::now() + Duration::from_millis(ms)
    }

    fn alive(pid: i32) -> bool {
        nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), None).is_ok()
    }

    #[test]
    fn reads_lines_and_reports_exit() {
        let mut p =
            EngineProcess::spawn(&sh("printf 'a\\r\\nb\\n'; exit 3"), CancelToken::default())
                .unwrap();
        assert_eq!(p.read_line(soon(5000)).unwrap(), "a");
        assert_eq!(p.read_line(soon(5000)).unwrap(), "b");
        match p.read_line(soon(5000)) {
            Err(ReadError::Closed(how)) => assert_eq!(how, "exited with code 3"),
            other => panic!("expected Closed, got {other:?}"),
        }
    }

    #[test]
    fn an_exit_ends_the_engine_while_a_grandchild_holds_its_output() {
        // The shell answers, leaves `sleep` holding its stdout, and exits: a crash, seen at
        // once, not a silence that lasts until the deadline.
        let mut p =
            EngineProcess::spawn(&sh("echo hello; sleep 30 & exit 3"), CancelToken::default())
                .unwrap();
        assert_eq!(p.read_line(soon(5000)).unwrap(), "hello");
        let start = Instant::now();
        match p.read_line(soon(5000)) {
            Err(ReadError::Closed(how)) => assert_eq!(how, "exited with code 3"),
            other => panic!("expected Closed, got {other:?}"),
        }
        assert!(start.elapsed() < Duration::from_secs(2));
        assert!(matches!(p.read_line(soon(5000)), Err(ReadError::Closed(_))));
    }

    #[test]
    fn lines_written_just_before_an_exit_are_read() {
        let mut p = EngineProcess::spawn(
            &sh("sleep 30 & printf 'a\\nb\\n'; exit 0"),
            CancelToken::default(),
        )
        .unwrap();
        std::thread::sleep(Duration::from_millis(300));
        assert_eq!(p.read_line(soon(5000)).unwrap(), "a");
        assert_eq!(p.read_line(soon(5000)).unwrap(), "b");
        assert!(matches!(p.read_line(soon(5000)), Err(ReadError::Closed(_))));
    }

    #[test]
    fn read_times_out_on_a_silent_engine_and_drop_kills_the_group() {
        // The shell starts a grandchild that would outlive a plain kill of the shell.
        let mut p =
            EngineProcess::spawn(&sh("sleep 30 & echo $!; wait"), CancelToken::default()).unwrap();
        let grandchild: i32 = p.read_line(soon(5000)).unwrap().trim().parse().unwrap();
        let start = Instant::now();
        assert!(matches!(p.read_line(soon(200)), Err(ReadError::Timeout)));
        assert!(start.elapsed() < Duration::from_secs(2));
        drop(p);
        // Poll: the grandchild is reaped by init shortly after the kill.
        let gone = (0..100).any(|_| {
            std::thread::sleep(Duration::from_millis(20));
            !alive(grandchild)
        });
        assert!(gone, "grandchild {grandchild} survived");
    }

    #[test]
    fn cancel_interrupts_a_read() {
        let cancel = CancelToken::default();
        let mut p = EngineProcess::spawn(&sh("sleep 30"), cancel.clone()).unwrap();
        let c = cancel.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(150));
            c.cancel();
        });
        let start = Instant::now();
        assert!(matches!(
            p.read_line(soon(10_000)),
            Err(ReadError::Cancelled)
        ));
        assert!(start.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn overlong_lines_are_truncated() {
        let mut p = EngineProcess::spawn(
            &sh("head -c 200000 /dev/zero | tr '\\0' x; echo; echo ok"),
            CancelToken::default(),
        )
        .unwrap();
        assert_eq!(p.read_line(soon(5000)).unwrap().len(), MAX_LINE_BYTES);
        assert_eq!(p.read_line(soon(5000)).unwrap(), "ok");
    }

    #[test]
    fn unread_flood_is_reported_and_bounded() {
        // Short lines, never read while they pile up: the reader must stop at the bound.
        let mut p = EngineProcess::spawn(
            &sh("echo first; yes chatter | head -c 100000000; echo never"),
            CancelToken::default(),
        )
        .unwrap();
        std::thread::sleep(Duration::from_millis(300));
        let start = Instant::now();
        let mut lines = 0usize;
        let err = loop {
            match p.read_line(soon(20_000)) {
                Ok(line) => {
                    assert_ne!(line, "never");
                    lines += 1;
                }
                Err(e) => break e,
            }
        };
        assert!(matches!(err, ReadError::Flood(_)), "{err:?}");
        assert!(lines * ("chatter".len() + LINE_OVERHEAD) <= 2 * FLOOD_BYTES);
        assert!(start.elapsed() < Duration::from_secs(20));
    }

    #[test]
    fn missing_program_is_a_clear_error() {
        let mut spec = sh("");
        spec.argv = vec!["/nonexistent/engine".into()];
        let err = EngineProcess::spawn(&spec, CancelToken::default())
            .err()
            .unwrap();
        assert!(err.contains("cannot start `/nonexistent/engine`"), "{err}");
    }

    #[test]
    fn write_to_a_dead_engine_fails_cleanly() {
        let mut p = EngineProcess::spawn(&sh("exit 0"), CancelToken::default()).unwrap();
        std::thread::sleep(Duration::from_millis(100));
        // A pipe buffer may accept the first write; keep writing until the error shows.
        let failed = (0..100).any(|_| p.send("hello").is_err());
        assert!(failed);
    }

    #[test]
    fn write_to_an_engine_that_reads_nothing_times_out() {
        // `sleep` never reads stdin: the pipe fills and the write must give up, not hang.
        let mut p = EngineProcess::spawn(&sh("sleep 30"), CancelToken::default()).unwrap();
        let big = "x".repeat(MAX_LINE_BYTES);
        let start = Instant::now();
        let failed = (0..64).any(|_| p.send(&big).is_err());
        assert!(failed);
        assert!(start.elapsed() < WRITE_TIMEOUT + Duration::from_secs(5));
    }
}
