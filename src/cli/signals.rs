//! Termination signals (SIGTERM, SIGINT, SIGHUP) end the session: the running search answers,
//! queued commands are dropped. Two things a tournament director expects besides:
//! - a signal ignored when the engine started (under `nohup`, or a background job's SIGINT)
//!   stays ignored;
//! - the end is prompt even when nobody reads stdout: a reply the controller does not take
//!   within [`GRACE`] is given up and the process exits (status 1).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How long the session may take to end after a termination signal (the running search
/// answers within half a second; the rest is writing what is left of the replies).
pub const GRACE: Duration = Duration::from_secs(3);

/// Makes the termination signals call `stop`, and exit the process [`GRACE`] later if it is
/// still running then.
pub fn on_termination(stop: impl Fn() + Send + Sync + 'static) {
    let ignored = disposition::ignored_at_start();
    if ignored.len() == disposition::CAUGHT.len() {
        tracing::info!("termination signals are ignored, as they were at start");
        return;
    }
    let handler = move || {
        stop();
        exit_after_grace();
    };
    if let Err(e) = ctrlc::set_handler(handler) {
        tracing::warn!(error = %e, "cannot catch termination signals");
    }
    disposition::ignore_again(&ignored);
}

/// Exits the process [`GRACE`] from now unless it has ended by then (once).
fn exit_after_grace() {
    static STARTED: AtomicBool = AtomicBool::new(false);
    if STARTED.swap(true, Ordering::SeqCst) {
        return;
    }
    let spawned = std::thread::Builder::new()
        .name("termination".to_string())
        .spawn(|| {
            std::thread::sleep(GRACE);
            tracing::warn!(
                "the session did not end {} s after a termination signal (stdout not read?); \
                 exiting without the replies left",
                GRACE.as_secs()
            );
            crate::protocol::stderr_queue::flush_within(Duration::from_millis(200));
            std::process::exit(1);
        });
    if spawned.is_err() {
        std::process::exit(1);
    }
}

#[cfg(unix)]
mod disposition {
    /// The signals the `ctrlc` crate (with its `termination` feature) catches.
    pub const CAUGHT: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

    /// Those of [`CAUGHT`] whose disposition is "ignore" now (inherited from the parent).
    pub fn ignored_at_start() -> Vec<libc::c_int> {
        CAUGHT.into_iter().filter(|&s| is_ignored(s)).collect()
    }

    fn is_ignored(signal: libc::c_int) -> bool {
        // SAFETY: a query only (no new action); `old` is a plain C struct the call fills in.
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            libc::sigaction(signal, std::ptr::null(), &mut old) == 0
                && old.sa_sigaction == libc::SIG_IGN
        }
    }

    /// Sets `signals` back to "ignore" (after `ctrlc` installed its handler for all three).
    pub fn ignore_again(signals: &[libc::c_int]) {
        for &signal in signals {
            // SAFETY: SIG_IGN is a valid disposition for these catchable signals.
            unsafe {
                libc::signal(signal, libc::SIG_IGN);
            }
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn an_ignored_signal_is_seen_and_set_again() {
            // SIGHUP only: the test harness never sends it.
            ignore_again(&[libc::SIGHUP]);
            assert!(ignored_at_start().contains(&libc::SIGHUP));
        }
    }
}

#[cfg(not(unix))]
mod disposition {
    /// Elsewhere, nothing is inherited as ignored that we could see.
    pub const CAUGHT: [i32; 3] = [0; 3];

    pub fn ignored_at_start() -> Vec<i32> {
        Vec::new()
    }

    pub fn ignore_again(_signals: &[i32]) {}
}
