//! The state file: one JSON line per finished iteration, appended as it ends. Its last line
//! holds the settings to resume from; the lines together are the run's record.

use crate::match_runner::outcome::Winner;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Who plays a game of an iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Plus,
    Minus,
    Reference,
}

/// One game of an iteration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IterationGame {
    pub black: Side,
    pub white: Side,
    /// `B`, `W` or `D`, as in a match's results.
    pub result: Winner,
    /// How it ended (`six`, `full_board`, or the loser's fault).
    pub reason: String,
    pub moves: String,
}

/// One finished iteration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Iteration {
    pub iteration: u32,
    /// The tuned keys, in the spec's order (checked on resume).
    pub keys: Vec<String>,
    pub theta: Vec<f64>,
    pub delta: Vec<i8>,
    pub plus: Vec<f64>,
    pub minus: Vec<f64>,
    pub games: Vec<IterationGame>,
    /// The plus side's score minus the minus side's over the games.
    pub result: f64,
    pub theta_after: Vec<f64>,
}

/// The state file, open for appending.
pub struct StateFile {
    path: PathBuf,
}

impl StateFile {
    /// Reads the iterations `path` holds (none when it does not exist); every line must parse
    /// and follow the one before, for the same `keys`.
    pub fn open(path: &Path, keys: &[String]) -> Result<(StateFile, Vec<Iteration>), String> {
        let shown = path.display();
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(format!("{shown}: cannot read: {e}")),
        };
        let mut done: Vec<Iteration> = Vec::new();
        for (n, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let at = format!("{shown}:{}", n + 1);
            let it: Iteration =
                serde_json::from_str(line).map_err(|e| format!("{at}: not an iteration: {e}"))?;
            if it.keys != keys {
                return Err(format!(
                    "{at}: tunes {:?}, the spec {:?}; start a new state file",
                    it.keys, keys
                ));
            }
            let expected = done.len() as u32;
            if it.iteration != expected {
                return Err(format!(
                    "{at}: iteration {} where {expected} was expected",
                    it.iteration
                ));
            }
            if it.theta_after.len() != keys.len() {
                return Err(format!(
                    "{at}: theta_after has {} values",
                    it.theta_after.len()
                ));
            }
            done.push(it);
        }
        Ok((
            StateFile {
                path: path.to_path_buf(),
            },
            done,
        ))
    }

    /// Appends `it` as one line, flushed before returning.
    pub fn append(&mut self, it: &Iteration) -> Result<(), String> {
        let shown = self.path.display();
        let mut line = serde_json::to_string(it).map_err(|e| format!("{shown}: {e}"))?;
        line.push('\n');
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)
            .map_err(|e| format!("{shown}: cannot open: {e}"))?;
        file.write_all(line.as_bytes())
            .and_then(|()| file.flush())
            .map_err(|e| format!("{shown}: cannot write: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iteration(k: u32) -> Iteration {
        Iteration {
            iteration: k,
            keys: vec!["search.exploration".into()],
            theta: vec![0.4],
            delta: vec![1],
            plus: vec![0.45],
            minus: vec![0.35],
            games: vec![IterationGame {
                black: Side::Plus,
                white: Side::Minus,
                result: Winner::Black,
                reason: "six".into(),
                moves: "k10 j9-j11".into(),
            }],
            result: 1.0,
            theta_after: vec![0.41],
        }
    }

    #[test]
    fn iterations_are_appended_and_read_back_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.jsonl");
        let keys = vec!["search.exploration".to_string()];
        let (mut file, done) = StateFile::open(&path, &keys).unwrap();
        assert!(done.is_empty());
        file.append(&iteration(0)).unwrap();
        file.append(&iteration(1)).unwrap();
        let (_, done) = StateFile::open(&path, &keys).unwrap();
        assert_eq!(done, vec![iteration(0), iteration(1)]);
        // Other keys, a gap and garbage are errors naming the file and line.
        let other = vec!["search.prior_weight".to_string()];
        let e = StateFile::open(&path, &other).err().unwrap();
        assert!(
            e.contains("state.jsonl:1") && e.contains("new state file"),
            "{e}"
        );
        let (mut file, _) = StateFile::open(&path, &keys).unwrap();
        file.append(&iteration(3)).unwrap();
        let e = StateFile::open(&path, &keys).err().unwrap();
        assert!(e.contains("state.jsonl:3: iteration 3 where 2"), "{e}");
        std::fs::write(&path, "{\"iteration\": 0\n").unwrap();
        let e = StateFile::open(&path, &keys).err().unwrap();
        assert!(e.contains("state.jsonl:1: not an iteration"), "{e}");
    }
}
