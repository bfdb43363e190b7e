//! Helpers shared by the integration tests: run the built `liuzi` binary over pipes.
#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

pub struct Run {
    pub stdout: String,
    pub stderr: String,
    pub success: bool,
}

/// The fast test configuration (short thinking times, fixed seed, 1 thread).
pub fn fast_config() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/fast.toml")
        .display()
        .to_string()
}

/// Runs `liuzi args...` with `input` on stdin until it exits; returns what it wrote.
pub fn run_liuzi(args: &[&str], input: &[u8]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_liuzi"))
        .args(args)
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start liuzi");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    // Write from another thread so a full stdout pipe cannot deadlock us.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let output = child.wait_with_output().expect("wait for liuzi");
    writer.join().unwrap();
    Run {
        stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        success: output.status.success(),
    }
}

/// Splits GTP output into replies (each without its final blank line).
pub fn gtp_replies(stdout: &str) -> Vec<String> {
    assert!(
        stdout.is_empty() || stdout.ends_with("\n\n"),
        "output must end with a blank line: {stdout:?}"
    );
    stdout
        .split_terminator("\n\n")
        .map(str::to_string)
        .collect()
}

/// An interactive session: send lines, read replies one line at a time (with a timeout, so a
/// missing reply fails the test instead of hanging it).
pub struct Session {
    child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    lines: std::sync::mpsc::Receiver<String>,
    reader: Option<std::thread::JoinHandle<()>>,
}

impl Session {
    pub fn start(args: &[&str]) -> Session {
        use std::io::BufRead;
        let mut child = Command::new(env!("CARGO_BIN_EXE_liuzi"))
            .args(args)
            .env_remove("RUST_LOG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start liuzi");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        let reader = std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Session {
            stdin: child.stdin.take(),
            child,
            lines: rx,
            reader: Some(reader),
        }
    }

    pub fn send(&mut self, line: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(line).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    pub fn send_str(&mut self, line: &str) {
        self.send(line.as_bytes());
    }

    /// The next stdout line; panics after 30 s without one.
    pub fn read_line(&mut self) -> String {
        self.lines
            .recv_timeout(std::time::Duration::from_secs(30))
            .expect("a reply line within 30 s")
    }

    /// Closes stdin and waits: returns every stdout line not read yet and whether it exited 0.
    pub fn finish(mut self) -> (Vec<String>, bool) {
        drop(self.stdin.take());
        let status = self.child.wait().unwrap();
        self.reader.take().unwrap().join().unwrap();
        (self.lines.try_iter().collect(), status.success())
    }
}
