//! The one error type of the record readers: which file, which line, what is wrong.

use std::fmt;
use std::path::{Path, PathBuf};

/// Displays as `file:line: problem`, leaving out the parts that are not known,
/// e.g. `games.sgf:3: stone 17 (K10) is on an occupied point`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    pub file: Option<PathBuf>,
    /// From 1.
    pub line: Option<usize>,
    pub problem: String,
}

impl RecordError {
    pub fn new(problem: impl Into<String>) -> RecordError {
        RecordError {
            file: None,
            line: None,
            problem: problem.into(),
        }
    }

    /// Sets the line unless a more precise one is already known.
    pub fn at_line(mut self, line: usize) -> RecordError {
        self.line.get_or_insert(line);
        self
    }

    pub fn in_file(mut self, path: &Path) -> RecordError {
        self.file.get_or_insert_with(|| path.to_path_buf());
        self
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.file, self.line) {
            (Some(file), Some(line)) => write!(f, "{}:{line}: ", file.display())?,
            (Some(file), None) => write!(f, "{}: ", file.display())?,
            (None, Some(line)) => write!(f, "line {line}: ")?,
            (None, None) => {}
        }
        f.write_str(&self.problem)
    }
}

impl std::error::Error for RecordError {}

/// 1-based line number of byte `offset` in `text`.
pub(crate) fn line_of(text: &str, offset: usize) -> usize {
    1 + text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
}
