//! One engine process: spawned in its own process group, stdout read line by line on a reader
//! thread, every read bounded by a deadline, and the whole group killed when dropped.
//!
//! The reader thread is what makes hangs harmless: the match thread never blocks on the pipe,
//! it waits on a channel with `recv_timeout`, so an engine that stops talking costs at most its
//! deadline. Killing the process group (not just the child) also ends wrapper scripts' children.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

/// Longest stdout line kept; the rest of an overlong line is dropped (a garbage-spewing engine
/// must not exhaust memory).
const MAX_LINE_BYTES: usize = 64 * 1024;

/// How often a blocked read looks at the cancel flag.
const CANCEL_POLL: Duration = Duration::from_millis(100);

/// Set on Ctrl-C / SIGTERM: every pending read returns [`ReadError::Cancelled`].
#[derive(Clone, Debug, Default)]
pub struct CancelToken(Arc<AtomicBool>);

impl CancelToken {
    pub fn cancel(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::SeqCst)
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
    Cancelled,
}

enum ReaderEvent {
    Line(String),
    Eof,
    Failed(String),
}

pub struct EngineProcess {
    label: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<ReaderEvent>,
    closed: Option<String>,
    cancel: CancelToken,
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
            .envs(spec.env.iter().map(|(k, v)| (k, v)));
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
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            // Own process group: the terminal's Ctrl-C reaches only us, and we can kill the group.
            command.process_group(0);
        }
        #[cfg(target_os = "linux")]
        {
            use std::os::unix::process::CommandExt;
            // If the runner is killed outright (SIGKILL, no cleanup), the kernel kills the engine.
            // The signal follows the spawning *thread*; players never outlive their thread.
            // SAFETY: prctl is async-signal-safe and touches no memory of the parent.
            unsafe {
                command.pre_exec(|| {
                    if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                    Ok(())
                });
            }
        }
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
        let stdout = child.stdout.take().expect("stdout is piped");
        let stdin = child.stdin.take();
        let (sender, lines) = mpsc::channel();
        let label = spec.label.clone();
        thread::Builder::new()
            .name(format!("read-{label}"))
            .spawn(move || read_lines(stdout, sender))
            .map_err(|e| format!("{label}: cannot start reader thread: {e}"))?;
        Ok(EngineProcess {
            label,
            child,
            stdin,
            lines,
            closed: None,
            cancel,
        })
    }

    pub fn label(&self) -> &str {
        &self.label
    }

    /// Writes one line (a newline is added) and flushes.
    pub fn send(&mut self, line: &str) -> Result<(), String> {
        tracing::trace!(engine = %self.label, "> {line}");
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| "stdin already closed".to_string())?;
        let result = stdin
            .write_all(line.as_bytes())
            .and_then(|_| stdin.write_all(b"\n"))
            .and_then(|_| stdin.flush());
        result.map_err(|e| match self.exit_description(Duration::from_millis(50)) {
            Some(how) => format!("cannot write to engine ({how})"),
            None => format!("cannot write to engine: {e}"),
        })
    }

    /// The next stdout line, waiting until `deadline` at most.
    pub fn read_line(&mut self, deadline: Instant) -> Result<String, ReadError> {
        if let Some(how) = &self.closed {
            return Err(ReadError::Closed(how.clone()));
        }
        loop {
            if self.cancel.is_cancelled() {
                return Err(ReadError::Cancelled);
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(ReadError::Timeout);
            }
            match self.lines.recv_timeout((deadline - now).min(CANCEL_POLL)) {
                Ok(ReaderEvent::Line(line)) => {
                    tracing::trace!(engine = %self.label, "< {line}");
                    return Ok(line);
                }
                Ok(ReaderEvent::Eof) | Err(RecvTimeoutError::Disconnected) => {
                    let how = self
                        .exit_description(Duration::from_millis(500))
                        .unwrap_or_else(|| "closed its output".to_string());
                    self.closed = Some(how.clone());
                    return Err(ReadError::Closed(how));
                }
                Ok(ReaderEvent::Failed(e)) => {
                    let how = format!("output unreadable: {e}");
                    self.closed = Some(how.clone());
                    return Err(ReadError::Closed(how));
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// How the process ended, if it ends within `wait`. Does not reap it (see `Drop`).
    fn exit_description(&mut self, wait: Duration) -> Option<String> {
        let until = Instant::now() + wait;
        loop {
            if let Some(status) = peek_exit(&self.child) {
                return Some(describe_exit(status));
            }
            if Instant::now() >= until {
                return None;
            }
            thread::sleep(Duration::from_millis(10));
        }
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
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.stdin = None;
        // Kill the group before reaping the leader: while the leader is unreaped its pid, and so
        // the group id, cannot be reused by an unrelated process.
        #[cfg(unix)]
        unsafe {
            // SAFETY: plain syscall on the group we created; an error (group already gone) is harmless.
            libc::kill(-(self.child.id() as libc::pid_t), libc::SIGKILL);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Exit status of a child that has exited, without reaping it.
#[cfg(unix)]
fn peek_exit(child: &Child) -> Option<ExitStatus> {
    use std::os::unix::process::ExitStatusExt;
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    // SAFETY: waitid writes into `info`; WNOWAIT leaves the child waitable for `Drop`.
    let rc = unsafe {
        libc::waitid(
            libc::P_PID,
            child.id() as libc::id_t,
            &mut info,
            libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
        )
    };
    // SAFETY: si_pid/si_status are valid for a WEXITED result; si_pid == 0 means "still running".
    let (pid, status, code) = unsafe { (info.si_pid(), info.si_status(), info.si_code) };
    if rc != 0 || pid == 0 {
        return None;
    }
    Some(if code == libc::CLD_EXITED {
        ExitStatus::from_raw((status & 0xff) << 8)
    } else {
        ExitStatus::from_raw(status & 0x7f)
    })
}

#[cfg(not(unix))]
fn peek_exit(_child: &Child) -> Option<ExitStatus> {
    None
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

/// Reader thread body: splits stdout into lines (without `\r\n`), capping their length.
fn read_lines(stdout: impl Read, sender: mpsc::Sender<ReaderEvent>) {
    let mut reader = BufReader::new(stdout);
    let mut line: Vec<u8> = Vec::new();
    let mut overlong = false;
    loop {
        let chunk = match reader.fill_buf() {
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
        if newline {
            if overlong {
                tracing::debug!("engine output line longer than {MAX_LINE_BYTES} bytes truncated");
            }
            if sender.send(ReaderEvent::Line(finish_line(&line))).is_err() {
                return; // the process handle is gone
            }
            line.clear();
            overlong = false;
        }
    }
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
            thread::sleep(Duration::from_millis(20));
            unsafe { libc::kill(grandchild, 0) != 0 }
        });
        assert!(gone, "grandchild {grandchild} survived");
    }

    #[test]
    fn cancel_interrupts_a_read() {
        let cancel = CancelToken::default();
        let mut p = EngineProcess::spawn(&sh("sleep 30"), cancel.clone()).unwrap();
        let c = cancel.clone();
        thread::spawn(move || {
            thread::sleep(Duration::from_millis(150));
            c.cancel();
        });
        assert!(matches!(
            p.read_line(soon(10_000)),
            Err(ReadError::Cancelled)
        ));
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
        thread::sleep(Duration::from_millis(100));
        // A pipe buffer may accept the first write; keep writing until the error shows.
        let failed = (0..100).any(|_| p.send("hello").is_err());
        assert!(failed);
    }
}
