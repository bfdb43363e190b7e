//! The results file: one JSON object per finished game (JSON Lines), appended and synced as each
//! game ends. It is the match's source of truth: `--resume` reads it back and skips the games
//! it holds, and `liuzi-rate` fits ratings from it.

use super::outcome::{EndReason, Winner};
use super::schedule::ScheduledGame;
use liuzi::notation;
use liuzi::records::{self, GameRecord};
use liuzi::rules::Point;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// One finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameLine {
    /// Game id: the position in the match schedule.
    pub game: usize,
    /// The two games of a colour-swapped pair share this id.
    pub pair: usize,
    pub opening: usize,
    pub event: String,
    pub black: String,
    pub white: String,
    pub result: Winner,
    pub reason: EndReason,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub detail: String,
    pub size: usize,
    /// How many of the stones were the opening.
    pub opening_stones: usize,
    /// Every stone in `.games` notation: turns separated by spaces, a turn's stones by `-`.
    pub moves: String,
    /// Thinking time of Black and White in milliseconds.
    pub time_ms: [u64; 2],
    /// RFC 3339 UTC times.
    pub started: String,
    pub finished: String,
    /// Seconds since the Unix epoch at the end of the game (for time-decay weighting).
    pub finished_unix: u64,
}

/// Formats stones as the moves field of a `.games` line (the records module's writer).
pub fn format_moves(stones: &[Point], size: usize) -> String {
    let record = GameRecord {
        stones: stones.to_vec(),
        ..GameRecord::new(size)
    };
    let line = records::games::format_line(&record);
    line.split_once('\t')
        .map(|(_, moves)| moves.to_string())
        .unwrap_or_default()
}

/// Parses the moves field back into stones.
pub fn parse_moves(moves: &str, size: usize) -> Result<Vec<Point>, String> {
    moves
        .split([' ', '-'])
        .filter(|s| !s.is_empty())
        .map(|s| notation::parse_games(s, size).ok_or_else(|| format!("bad point `{s}` in moves")))
        .collect()
}

impl GameLine {
    pub fn stones(&self) -> Result<Vec<Point>, String> {
        parse_moves(&self.moves, self.size)
    }

    /// Checks that this recorded game is the game `scheduled` with `opening` between `names`.
    pub fn check_against(
        &self,
        scheduled: &ScheduledGame,
        names: &[String],
        opening: &[Point],
    ) -> Result<(), String> {
        let (black, white) = (&names[scheduled.black], &names[scheduled.white]);
        if &self.black != black || &self.white != white {
            return Err(format!(
                "game {} was {} (black) vs {} (white), but this match schedules {black} vs {white}",
                self.game, self.black, self.white
            ));
        }
        let stones = self.stones()?;
        if self.opening_stones != opening.len() || !stones.starts_with(opening) {
            return Err(format!(
                "game {} was played from a different opening",
                self.game
            ));
        }
        Ok(())
    }
}

/// An open results file, positioned for appending.
pub struct ResultsFile {
    path: PathBuf,
    file: File,
}

impl ResultsFile {
    /// Opens `path` for a new match (it must not hold games yet) or, with `resume`, reads the
    /// games it holds. A torn last line (the runner was killed mid-write) is cut off.
    ///
    /// The file stays locked while this handle lives: a second run on the same file is refused
    /// at once (two writers would interleave lines and lose games), and nothing is read or cut
    /// before the lock is held.
    pub fn open(path: &Path, resume: bool) -> Result<(ResultsFile, Vec<GameLine>), String> {
        let describe = |e: std::io::Error| format!("{}: {e}", path.display());
        let mut file = OpenOptions::new()
            .create(true)
            .read(true)
            .write(true)
            .truncate(false)
            .open(path)
            .map_err(describe)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                return Err(format!(
                    "{} is in use by another liuzi-match run; wait for it to finish, or choose another --results file",
                    path.display()
                ))
            }
            Err(TryLockError::Error(e)) => {
                return Err(format!("{}: cannot lock the file: {e}", path.display()))
            }
        }
        let mut existing = Vec::new();
        file.read_to_end(&mut existing).map_err(describe)?;
        if !resume && existing.iter().any(|b| !b.is_ascii_whitespace()) {
            return Err(format!(
                "{} already holds results; pass --resume to continue that match, or choose another file",
                path.display()
            ));
        }
        let complete = match existing.iter().rposition(|&b| b == b'\n') {
            Some(i) => i + 1,
            None => 0,
        };
        if complete < existing.len() {
            tracing::warn!(
                "{}: dropping an unfinished last line ({} bytes) left by an interrupted run",
                path.display(),
                existing.len() - complete
            );
        }
        let games = parse_lines(&existing[..complete], path)?;
        file.set_len(complete as u64).map_err(describe)?;
        file.seek(SeekFrom::End(0)).map_err(describe)?;
        Ok((
            ResultsFile {
                path: path.to_path_buf(),
                file,
            },
            games,
        ))
    }

    /// Appends one game and syncs it to disk before returning.
    pub fn append(&mut self, line: &GameLine) -> Result<(), String> {
        let mut text = serde_json::to_string(line).map_err(|e| e.to_string())?;
        text.push('\n');
        self.file
            .write_all(text.as_bytes())
            .and_then(|_| self.file.sync_data())
            .map_err(|e| format!("{}: {e}", self.path.display()))
    }
}

fn parse_lines(bytes: &[u8], path: &Path) -> Result<Vec<GameLine>, String> {
    let text =
        std::str::from_utf8(bytes).map_err(|e| format!("{}: not UTF-8: {e}", path.display()))?;
    let mut games = Vec::new();
    let mut ids = HashSet::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let game: GameLine =
            serde_json::from_str(line).map_err(|e| format!("{}:{}: {e}", path.display(), n + 1))?;
        if !ids.insert(game.game) {
            return Err(format!(
                "{}:{}: game {} is recorded twice",
                path.display(),
                n + 1,
                game.game
            ));
        }
        games.push(game);
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(game: usize) -> GameLine {
        GameLine {
            game,
            pair: game / 2,
            opening: 0,
            event: "t".into(),
            black: "a".into(),
            white: "b".into(),
            result: Winner::Black,
            reason: EndReason::Six,
            detail: String::new(),
            size: 19,
            opening_stones: 1,
            moves: "j10 i9-k9 l9-k8".into(),
            time_ms: [5, 7],
            started: "2026-01-01T00:00:00Z".into(),
            finished: "2026-01-01T00:00:01Z".into(),
            finished_unix: 1_767_225_601,
        }
    }

    #[test]
    fn moves_round_trip() {
        let stones = parse_moves("j10 i9-k9 l9-k8", 19).unwrap();
        assert_eq!(stones.len(), 5);
        assert_eq!(format_moves(&stones, 19), "j10 i9-k9 l9-k8");
        assert_eq!(format_moves(&[], 19), "");
        assert!(parse_moves("j10 z99", 19).is_err());
    }

    #[test]
    fn appends_resumes_and_cuts_a_torn_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.jsonl");
        let (mut file, old) = ResultsFile::open(&path, false).unwrap();
        assert!(old.is_empty());
        file.append(&line(0)).unwrap();
        file.append(&line(1)).unwrap();
        drop(file);
        // A new match refuses to overwrite results.
        assert!(ResultsFile::open(&path, false)
            .err()
            .unwrap()
            .contains("--resume"));
        // Simulate a kill in the middle of writing game 2.
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"{\"game\":2,\"pa").unwrap();
        drop(f);
        let (mut file, old) = ResultsFile::open(&path, true).unwrap();
        assert_eq!(old, vec![line(0), line(1)]);
        file.append(&line(2)).unwrap();
        drop(file);
        let (_, old) = ResultsFile::open(&path, true).unwrap();
        assert_eq!(old.len(), 3);
        assert_eq!(old[2], line(2));
    }

    #[test]
    fn a_second_writer_is_refused_while_the_first_holds_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.jsonl");
        let (mut first, _) = ResultsFile::open(&path, false).unwrap();
        first.append(&line(0)).unwrap();
        for resume in [false, true] {
            let err = ResultsFile::open(&path, resume).err().unwrap();
            assert!(err.contains("in use by another liuzi-match run"), "{err}");
        }
        first.append(&line(1)).unwrap();
        drop(first);
        // Released with the handle: the games are intact and the match resumes.
        let (_, old) = ResultsFile::open(&path, true).unwrap();
        assert_eq!(old, vec![line(0), line(1)]);
    }

    #[test]
    fn corrupt_and_duplicate_lines_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.jsonl");
        let good = serde_json::to_string(&line(0)).unwrap();
        std::fs::write(&path, format!("{good}\nnot json\n")).unwrap();
        let err = ResultsFile::open(&path, true).err().unwrap();
        assert!(err.contains("r.jsonl:2"), "{err}");
        std::fs::write(&path, format!("{good}\n{good}\n")).unwrap();
        let err = ResultsFile::open(&path, true).err().unwrap();
        assert!(err.contains("recorded twice"), "{err}");
    }

    #[test]
    fn check_against_the_schedule() {
        let names = vec!["a".to_string(), "b".to_string()];
        let g = ScheduledGame {
            id: 0,
            pair: 0,
            opening: 0,
            black: 0,
            white: 1,
        };
        let opening = parse_moves("j10", 19).unwrap();
        line(0).check_against(&g, &names, &opening).unwrap();
        let swapped = ScheduledGame {
            black: 1,
            white: 0,
            ..g
        };
        assert!(line(0)
            .check_against(&swapped, &names, &opening)
            .unwrap_err()
            .contains("schedules b vs a"));
        let other = parse_moves("k10", 19).unwrap();
        assert!(line(0)
            .check_against(&g, &names, &other)
            .unwrap_err()
            .contains("different opening"));
    }
}
