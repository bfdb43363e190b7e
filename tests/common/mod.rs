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
