//! Progress of long jobs on stderr: a bar with the elapsed time and an ETA when stderr is a
//! terminal, nothing otherwise, so that the jobs' plain lines and logs stay parseable in files
//! and pipes.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;

/// A bar of `len` steps labelled `what`; hidden unless stderr is a terminal.
pub fn bar(len: u64, what: &str) -> ProgressBar {
    styled(
        len,
        "{msg:>12} [{elapsed_precise}] {wide_bar} {pos}/{len} (ETA {eta})",
    )
    .with_message(what.to_string())
}

/// A bar with its own indicatif template; hidden unless stderr is a terminal.
pub fn styled(len: u64, template: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    bar.set_style(ProgressStyle::with_template(template).expect("valid progress template"));
    bar
}

/// Prints one line of a job's plain output on stderr: above the bar on a terminal (so the two
/// do not tear each other), as it is elsewhere.
pub fn line(bar: &ProgressBar, text: &str) {
    if bar.is_hidden() {
        eprintln!("{text}");
    } else {
        bar.println(text);
    }
}
