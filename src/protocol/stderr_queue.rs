//! stderr written by a thread of its own, fed through a bounded queue. Many controllers pipe
//! the engine's stderr and never read it; once that pipe is full a plain write blocks, and the
//! search or the protocol thread that wrote a log line or a live `gogui-gfx:` block would
//! freeze with it. Here a writer never waits: what does not fit in the queue is dropped and
//! counted, and the count is reported once stderr moves again.

use crossbeam::channel::{self, Receiver, Sender, TrySendError};
use std::io::{self, Write};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// Messages (log lines, gfx blocks) that may wait for stderr; more are dropped.
const QUEUED_MESSAGES: usize = 1024;

/// A bounded queue in front of a sink, drained by its own thread.
pub struct StderrQueue {
    messages: Sender<Vec<u8>>,
    counts: Arc<Counts>,
}

#[derive(Default)]
struct Counts {
    /// Messages dropped since the last report.
    dropped: AtomicU64,
    /// Messages queued and not yet written.
    pending: AtomicUsize,
}

impl StderrQueue {
    /// Starts the thread that writes to `sink`; `None` if it cannot be started.
    pub fn start<W: Write + Send + 'static>(sink: W, capacity: usize) -> Option<StderrQueue> {
        let (messages, queued) = channel::bounded(capacity);
        let counts = Arc::new(Counts::default());
        let writer_counts = Arc::clone(&counts);
        std::thread::Builder::new()
            .name("stderr".to_string())
            .spawn(move || drain(sink, &queued, &writer_counts))
            .ok()?;
        Some(StderrQueue { messages, counts })
    }

    /// Queues `message`, or drops it when the queue is full; never waits.
    pub fn send(&self, message: Vec<u8>) {
        self.counts.pending.fetch_add(1, Ordering::SeqCst);
        if let Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) =
            self.messages.try_send(message)
        {
            self.counts.pending.fetch_sub(1, Ordering::SeqCst);
            self.counts.dropped.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Waits until everything queued is written, for at most `timeout`; whether it was.
    pub fn flush_within(&self, timeout: Duration) -> bool {
        let start = Instant::now();
        while self.counts.pending.load(Ordering::SeqCst) > 0 {
            if start.elapsed() >= timeout {
                return false;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        true
    }
}

fn drain<W: Write>(mut sink: W, queued: &Receiver<Vec<u8>>, counts: &Counts) {
    for message in queued {
        let dropped = counts.dropped.swap(0, Ordering::Relaxed);
        if dropped > 0 {
            let note = format!(
                "liuzi: {dropped} messages to stderr were dropped: nothing was reading it\n"
            );
            let _ = sink.write_all(note.as_bytes());
        }
        // A closed stderr must not stop the game.
        let _ = sink.write_all(&message).and_then(|()| sink.flush());
        counts.pending.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The process's queue in front of the real stderr, started on first use.
fn process_queue() -> Option<&'static StderrQueue> {
    static QUEUE: OnceLock<Option<StderrQueue>> = OnceLock::new();
    QUEUE
        .get_or_init(|| StderrQueue::start(io::stderr(), QUEUED_MESSAGES))
        .as_ref()
}

/// Writes `message` to stderr without ever waiting for it (see the module comment).
pub fn write(message: Vec<u8>) {
    match process_queue() {
        Some(queue) => queue.send(message),
        // No thread for it: write directly rather than lose the message.
        None => {
            let _ = io::stderr().write_all(&message);
        }
    }
}

/// Gives what is queued for stderr up to `timeout` to be written (before the process exits).
pub fn flush_within(timeout: Duration) -> bool {
    process_queue().is_none_or(|queue| queue.flush_within(timeout))
}

/// stderr as an [`io::Write`] that never waits: each `write` is one queued message (tracing
/// writes one event per call).
#[derive(Clone, Copy, Debug, Default)]
pub struct QueuedStderr;

impl Write for QueuedStderr {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        write(buf.to_vec());
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parking_lot::Mutex;

    /// A sink that blocks until the test lets it write, like a pipe nobody reads.
    struct Stalled {
        gate: Arc<Mutex<()>>,
        written: Arc<Mutex<Vec<u8>>>,
    }

    impl Write for Stalled {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            let _open = self.gate.lock();
            self.written.lock().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_stalled_sink_never_blocks_a_writer_and_the_drops_are_reported() {
        let gate = Arc::new(Mutex::new(()));
        let written = Arc::new(Mutex::new(Vec::new()));
        let closed = gate.lock();
        let sink = Stalled {
            gate: Arc::clone(&gate),
            written: Arc::clone(&written),
        };
        let queue = StderrQueue::start(sink, 4).unwrap();
        let start = Instant::now();
        for i in 0..100 {
            queue.send(format!("m{i}\n").into_bytes());
        }
        assert!(start.elapsed() < Duration::from_secs(5), "sending waited");
        assert!(!queue.flush_within(Duration::from_millis(50)));
        drop(closed);
        assert!(queue.flush_within(Duration::from_secs(10)));
        queue.send(b"after\n".to_vec());
        assert!(queue.flush_within(Duration::from_secs(10)));
        let text = String::from_utf8(written.lock().clone()).unwrap();
        // At most the queue and the message being written got through; the rest are counted.
        let kept = text.lines().filter(|l| l.starts_with('m')).count();
        assert!((1..=5).contains(&kept), "{text}");
        let reported: u64 = text
            .lines()
            .filter_map(|l| l.strip_prefix("liuzi: "))
            .map(|l| l.split_whitespace().next().unwrap().parse::<u64>().unwrap())
            .sum();
        assert_eq!(reported as usize + kept, 100, "{text}");
        assert!(text.ends_with("after\n"), "{text}");
    }
}
