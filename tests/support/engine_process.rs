//! The real `liuzi` / `liuzi-c6` binary over pipes, with timing: send lines, wait for stdout
//! lines with a deadline, close stdin, wait for the exit with a deadline.
#![allow(dead_code)]

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStderr, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

pub const LIUZI: &str = env!("CARGO_BIN_EXE_liuzi");
pub const LIUZI_C6: &str = env!("CARGO_BIN_EXE_liuzi-c6");

pub fn repo_path(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(relative)
}

pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// The read end of a stderr pipe nobody reads ([`Stderr::Unread`]).
    _unread_stderr: Option<ChildStderr>,
}

pub enum Stderr {
    Null,
    /// Piped, and the read end closed at once: every write to stderr fails (EPIPE).
    Closed,
    /// Written to this file.
    File(PathBuf),
    /// Piped, and the read end kept open but never read: once the pipe is full, every write
    /// to stderr blocks (a controller that captures stderr and never reads it).
    Unread,
}

impl EngineProcess {
    pub fn start(program: &str, args: &[&str]) -> EngineProcess {
        EngineProcess::start_in(program, args, None, Stderr::Null)
    }

    pub fn start_in(
        program: &str,
        args: &[&str],
        cwd: Option<&Path>,
        stderr: Stderr,
    ) -> EngineProcess {
        let mut command = Command::new(program);
        command
            .args(args)
            .env_remove("RUST_LOG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped());
        let keep_stderr = matches!(stderr, Stderr::Unread);
        match stderr {
            Stderr::Null => command.stderr(Stdio::null()),
            Stderr::Closed | Stderr::Unread => command.stderr(Stdio::piped()),
            Stderr::File(path) => command.stderr(std::fs::File::create(path).unwrap()),
        };
        if let Some(dir) = cwd {
            command.current_dir(dir);
        }
        let mut child = command.spawn().expect("start the engine");
        let stderr = child.stderr.take();
        let _unread_stderr = if keep_stderr { stderr } else { None };
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        EngineProcess {
            stdin: child.stdin.take(),
            child,
            lines: rx,
            _unread_stderr,
        }
    }

    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// The next stdout line within `timeout`, or `None`.
    pub fn line_within(&mut self, timeout: Duration) -> Option<String> {
        self.lines.recv_timeout(timeout).ok()
    }

    /// The next stdout line; panics after 60 s.
    pub fn line(&mut self) -> String {
        self.line_within(Duration::from_secs(60))
            .expect("a line within 60 s")
    }

    /// The next GTP reply (its lines up to the blank line), joined by `\n`.
    pub fn reply(&mut self) -> String {
        let mut lines = Vec::new();
        loop {
            let line = self.line();
            if line.is_empty() {
                return lines.join("\n");
            }
            lines.push(line);
        }
    }

    /// Every stdout line up to and including the next one starting with `prefix`.
    pub fn lines_until(&mut self, prefix: &str) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self.line();
            let done = line.starts_with(prefix);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    /// The next stdout line that starts with `prefix` (others, e.g. progress lines, skipped).
    pub fn line_starting(&mut self, prefix: &str) -> String {
        loop {
            let line = self.line();
            if line.starts_with(prefix) {
                return line;
            }
        }
    }

    pub fn close_stdin(&mut self) {
        drop(self.stdin.take());
    }

    /// Waits up to `timeout` for the exit; `Some(success)` if it exited.
    pub fn exit_within(&mut self, timeout: Duration) -> Option<bool> {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some(status.success());
            }
            if start.elapsed() > timeout {
                return None;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends `signal` (`TERM`, `HUP`, ...) to the engine with `kill`.
    pub fn signal(&self, signal: &str) {
        let status = Command::new("kill")
            .args([&format!("-{signal}"), &self.pid().to_string()])
            .status()
            .expect("run kill");
        assert!(status.success(), "kill -{signal}");
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if self.child.try_wait().ok().flatten().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// A configuration file in `dir` with `text`; returns its path as a string.
pub fn write_config(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}
