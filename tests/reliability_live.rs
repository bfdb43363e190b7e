//! Tests against the real binary, over real pipes, signals and resource
//! limits: a stderr nobody reads never freezes the engine; SIGTERM ends a session whose stdout
//! nobody reads, and a flooding controller is pushed back; a table the process may not
//! allocate is refused naming its key; signals ignored at start stay ignored.

#[path = "support/engine_process.rs"]
mod engine_process;

use engine_process::*;
use std::io::Write;
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

fn fast_config() -> String {
    repo_path("tests/data/fast.toml").display().to_string()
}

/// With stderr a pipe nobody drains, the debug log of refused commands (and the
/// live `gogui-gfx:` blocks of a search) filled it and the engine froze in the write: no
/// reply, and neither `# interrupt` nor `quit` ended it.
#[test]
fn an_unread_stderr_never_freezes_the_protocol_or_the_search() {
    let dir = tempfile::tempdir().unwrap();
    let config = write_config(
        dir.path(),
        "slow.toml",
        "[engine]\nthreads = 1\n[time]\nstone_seconds = 20.0\n",
    );
    let mut e = EngineProcess::start_in(LIUZI, &["--config", &config, "-vv"], None, Stderr::Unread);
    // A `gogui-*` command: the controller is GoGui, searches write live graphics.
    e.send("1 gogui-analyze_commands");
    assert!(e.reply().starts_with("=1"));
    // Each refused 3,000-byte line is logged at debug level: 100 of them are ~300 KB, several
    // times what a pipe holds.
    let junk = "x".repeat(3000);
    for id in 2..102 {
        e.send(&format!("{id} no_such_command {junk}"));
        let reply = e
            .line_within(Duration::from_secs(20))
            .unwrap_or_else(|| panic!("no reply to command {id}: the engine is stuck on stderr"));
        assert!(reply.starts_with(&format!("?{id} ")), "{reply}");
        assert_eq!(e.line(), "");
    }
    e.send("200 play b K10");
    assert_eq!(e.reply(), "=200");
    e.send("201 genmove w");
    std::thread::sleep(Duration::from_millis(1500));
    let asked = Instant::now();
    e.send("# interrupt");
    let stone = e
        .line_within(Duration::from_secs(10))
        .expect("the interrupted search answers");
    assert!(stone.starts_with("=201 "), "{stone}");
    assert!(
        asked.elapsed() < Duration::from_secs(5),
        "{:?}",
        asked.elapsed()
    );
    assert_eq!(e.line(), "");
    e.send("202 quit");
    assert_eq!(e.reply(), "=202");
    assert_eq!(e.exit_within(Duration::from_secs(10)), Some(true));
}

/// `liuzi --threads 1 gtp` sent 400,000 `list_commands` lines (5.6 MB) by a thread while its
/// stdout is never read; returns the process, its unread stdout, the bytes the engine has
/// taken so far and the writing thread.
fn flooded() -> (Child, ChildStdout, Arc<AtomicUsize>, JoinHandle<()>) {
    let mut child = Command::new(LIUZI)
        .args(["--threads", "1", "gtp"])
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the engine");
    let stdout = child.stdout.take().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let taken = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&taken);
    let writer = std::thread::spawn(move || {
        let chunk = "list_commands\n".repeat(1000);
        for _ in 0..400 {
            // The engine's exit closes the pipe: stop there.
            if stdin.write_all(chunk.as_bytes()).is_err() {
                return;
            }
            counter.fetch_add(chunk.len(), Ordering::SeqCst);
        }
    });
    (child, stdout, taken, writer)
}

/// Waits up to `timeout` for `child` to exit; whether it did.
fn exited_within(child: &mut Child, timeout: Duration) -> bool {
    let start = Instant::now();
    while start.elapsed() < timeout {
        if child.try_wait().unwrap().is_some() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    false
}

fn kill(pid: u32, signal: &str) {
    let status = Command::new("kill")
        .args([&format!("-{signal}"), &pid.to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

/// The queue: 1 M queued lines took the engine from 5 to 55 MB; now a controller
/// that floods it is pushed back by the pipe once the engine's queue is full.
#[test]
fn a_flooding_controller_is_pushed_back_by_the_pipe() {
    let (mut child, stdout, taken, writer) = flooded();
    std::thread::sleep(Duration::from_secs(3));
    let bytes = taken.load(Ordering::SeqCst);
    let _ = child.kill();
    let _ = child.wait();
    drop(stdout);
    writer.join().unwrap();
    // The pipes, the reader's buffer and 1,024 queued lines hold ~0.2 MB; 2 MB is far above.
    assert!(
        bytes < 2 << 20,
        "the engine took {bytes} bytes of input ahead"
    );
}

/// SIGTERM with 83 MB of replies unread left the engine running until they were
/// read. Now the session ends at once, or within the grace period when a reply cannot be
/// written.
#[test]
fn sigterm_ends_the_session_promptly_when_stdout_is_not_read() {
    let (mut child, stdout, _taken, writer) = flooded();
    std::thread::sleep(Duration::from_secs(3));
    let asked = Instant::now();
    kill(child.id(), "TERM");
    // The grace period is 3 s; 12 s leaves room for a loaded machine.
    let ended = exited_within(&mut child, Duration::from_secs(12));
    let took = asked.elapsed();
    if !ended {
        let _ = child.kill();
        let _ = child.wait();
    }
    drop(stdout);
    writer.join().unwrap();
    assert!(ended, "still running {took:?} after SIGTERM");
}

/// Under `nohup` (SIGHUP ignored) or as a background job (SIGINT ignored), the
/// engine installed its handlers anyway and ended the session on HUP or INT.
#[test]
fn signals_ignored_at_start_stay_ignored() {
    let config = fast_config();
    let mut e = EngineProcess::start(
        "sh",
        &[
            "-c",
            "trap '' HUP INT; exec \"$0\" \"$@\"",
            LIUZI,
            "--config",
            &config,
        ],
    );
    e.send("1 name");
    assert_eq!(e.reply(), "=1 Liuzi");
    e.signal("HUP");
    e.signal("INT");
    assert_eq!(
        e.exit_within(Duration::from_secs(2)),
        None,
        "the engine ended on an ignored SIGHUP or SIGINT"
    );
    e.send("2 name");
    assert_eq!(e.reply(), "=2 Liuzi");
    // A signal that was not ignored still ends the session.
    e.signal("TERM");
    assert_eq!(e.exit_within(Duration::from_secs(10)), Some(true));
}

/// Runs `liuzi --config FILE gtp` with `quit` on stdin under `limit` bytes of the resource;
/// `None` where the limit cannot be set. Returns (exit code, stderr).
#[cfg(unix)]
fn run_limited(config: &str, resource: Resource, limit: u64) -> Option<(Option<i32>, String)> {
    use std::os::unix::process::CommandExt;
    let mut command = Command::new(LIUZI);
    command
        .args(["--config", config, "gtp"])
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    // SAFETY: only async-signal-safe calls between fork and exec (setrlimit).
    unsafe {
        command.pre_exec(move || {
            let rlimit = libc::rlimit {
                rlim_cur: limit as libc::rlim_t,
                rlim_max: limit as libc::rlim_t,
            };
            if libc::setrlimit(resource, &rlimit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(e) => {
            eprintln!("skipped: cannot start the engine under a memory limit: {e}");
            return None;
        }
    };
    let _ = child.stdin.take().unwrap().write_all(b"quit\n");
    let out = child.wait_with_output().unwrap();
    Some((
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    ))
}

#[cfg(all(unix, target_os = "linux", target_env = "gnu"))]
type Resource = libc::__rlimit_resource_t;
#[cfg(all(unix, not(all(target_os = "linux", target_env = "gnu"))))]
type Resource = libc::c_int;

/// `[alphabeta] hash_mb` within half of the machine's memory but beyond the
/// process's address-space (or data) limit aborted the process (exit 134) in the allocation.
/// Now it is refused naming the key, like a tree (`search.max_nodes`) beyond the limit; an
/// ordinary configuration still plays under the same limit.
#[cfg(unix)]
#[test]
fn sizes_beyond_a_process_memory_limit_are_refused_naming_the_key() {
    const LIMIT: u64 = 1 << 30;
    let dir = tempfile::tempdir().unwrap();
    let weights = repo_path("engine-config/default.weights");
    let evaluator = repo_path("engine-config/default.eval");
    let files = format!(
        "weights = \"{}\"\nevaluator = \"{}\"\nbook = \"none\"\nthreads = 1\n",
        weights.display(),
        evaluator.display()
    );
    // 1.5 GiB asks for a 1 GiB table (16-byte slots, a power of two), all of the limit.
    let table = write_config(
        dir.path(),
        "table.toml",
        &format!("[engine]\n{files}search = \"alphabeta\"\n[alphabeta]\nhash_mb = 1536\n"),
    );
    // 1.6 GB of tree edges.
    let tree = write_config(
        dir.path(),
        "tree.toml",
        &format!("[engine]\n{files}[search]\nmax_nodes = 50000000\n"),
    );
    for (resource, name) in [
        (libc::RLIMIT_AS, "RLIMIT_AS"),
        (libc::RLIMIT_DATA, "RLIMIT_DATA"),
    ] {
        for (config, key) in [(&table, "alphabeta.hash_mb"), (&tree, "search.max_nodes")] {
            let Some((code, stderr)) = run_limited(config, resource, LIMIT) else {
                return;
            };
            assert_eq!(code, Some(1), "{key} under {name}: {stderr}");
            assert!(
                stderr.contains(config.as_str()) && stderr.contains(key),
                "{key} under {name}: {stderr}"
            );
        }
    }
    let plays = write_config(dir.path(), "plays.toml", &format!("[engine]\n{files}"));
    let Some((code, stderr)) = run_limited(&plays, libc::RLIMIT_AS, LIMIT) else {
        return;
    };
    assert_eq!(code, Some(0), "{stderr}");
}
