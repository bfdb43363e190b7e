//! The results file: one JSON object per finished game (JSON Lines), appended and synced as each
//! game ends. It is the match's source of truth: `--resume` reads it back and skips the games
//! it holds, and `liuzi-rate` fits ratings from it.

use super::outcome::{EndReason, Winner};
use super::schedule::ScheduledGame;
use crate::line_file::{read_line_file_text, LineFile, Opener};
use liuzi::notation;
use liuzi::records::{self, GameRecord};
use liuzi::rules::Point;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::path::Path;

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
    /// Games the match scheduled when this game was played: its game ids are below it. Lets
    /// `liuzi-rate` refuse a line that is not part of its match (absent in older files).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub match_games: Option<usize>,
}

/// Reads a results file for reading only (`liuzi-rate`), refusing what is not a regular file
/// before opening it (opening a FIFO to read would wait for a writer).
pub fn read_results_text(path: &Path) -> Result<String, String> {
    read_line_file_text(path)
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
    file: LineFile,
}

impl ResultsFile {
    /// Opens `path` for a new match of `match_games` games (it must not hold games yet) or,
    /// with `resume`, reads the games it holds, refusing a game id outside the match. A torn
    /// last line (the runner was killed mid-write) is cut off; a last line that is a whole
    /// game and lacks only its newline is kept, and the newline written.
    ///
    /// The file stays locked while this handle lives: a second run on the same file is refused
    /// at once (two writers would interleave lines and lose games), and nothing is read or cut
    /// before the lock is held.
    pub fn open(
        path: &Path,
        resume: bool,
        match_games: usize,
    ) -> Result<(ResultsFile, Vec<GameLine>), String> {
        let opener = Opener {
            program: "liuzi-match",
            file_option: "--results",
            refuse_existing: (!resume)
                .then_some("pass --resume to continue that match, or choose another file"),
        };
        let (file, text) = LineFile::open(path, opener, |last| {
            serde_json::from_slice::<GameLine>(last).is_ok()
        })?;
        let games = parse_lines(&text, path, match_games)?;
        Ok((ResultsFile { file }, games))
    }

    /// Appends one game and syncs it to disk before returning.
    pub fn append(&mut self, line: &GameLine) -> Result<(), String> {
        let text = serde_json::to_string(line).map_err(|e| e.to_string())?;
        self.file.append(&text)
    }
}

fn parse_lines(text: &str, path: &Path, match_games: usize) -> Result<Vec<GameLine>, String> {
    let mut games = Vec::new();
    let mut ids = HashSet::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let game: GameLine =
            serde_json::from_str(line).map_err(|e| format!("{}:{}: {e}", path.display(), n + 1))?;
        if game.game >= match_games {
            return Err(format!(
                "{}:{}: game {} is not part of this match of {match_games} games \
                 (game ids run from 0; raise --games to keep it, or use another results file)",
                path.display(),
                n + 1,
                game.game
            ));
        }
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
    use crate::line_file::MAX_LINE_FILE_BYTES as MAX_RESULTS_BYTES;
    use std::fs::{File, OpenOptions};
    use std::io::Write;
    use std::path::PathBuf;

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
            match_games: Some(10),
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
        let (mut file, old) = ResultsFile::open(&path, false, 10).unwrap();
        assert!(old.is_empty());
        file.append(&line(0)).unwrap();
        file.append(&line(1)).unwrap();
        drop(file);
        // A new match refuses to overwrite results.
        assert!(ResultsFile::open(&path, false, 10)
            .err()
            .unwrap()
            .contains("--resume"));
        // Simulate a kill in the middle of writing game 2.
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"{\"game\":2,\"pa").unwrap();
        drop(f);
        let (mut file, old) = ResultsFile::open(&path, true, 10).unwrap();
        assert_eq!(old, vec![line(0), line(1)]);
        file.append(&line(2)).unwrap();
        drop(file);
        let (_, old) = ResultsFile::open(&path, true, 10).unwrap();
        assert_eq!(old.len(), 3);
        assert_eq!(old[2], line(2));
    }

    #[test]
    fn a_results_file_replaced_or_removed_under_the_run_loses_no_game() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.jsonl");
        let (mut file, _) = ResultsFile::open(&path, false, 10).unwrap();
        file.append(&line(0)).unwrap();
        file.append(&line(1)).unwrap();
        // What `git stash` does to a tracked file: a new file at the path, an older content.
        let first = std::fs::read_to_string(&path).unwrap();
        let older = first.lines().next().unwrap().to_string() + "\n";
        std::fs::remove_file(&path).unwrap();
        std::fs::write(&path, &older).unwrap();
        file.append(&line(2)).unwrap();
        let aside = dir.path().join("r.jsonl.replaced");
        assert_eq!(std::fs::read_to_string(&aside).unwrap(), older);
        // Removed outright: written back as well.
        std::fs::remove_file(&path).unwrap();
        file.append(&line(3)).unwrap();
        // Replaced a second time: the first replacement stays where it was put.
        std::fs::remove_file(&path).unwrap();
        std::fs::write(&path, "").unwrap();
        file.append(&line(4)).unwrap();
        assert_eq!(std::fs::read_to_string(&aside).unwrap(), older);
        let second = dir.path().join("r.jsonl.replaced.2");
        assert_eq!(std::fs::read_to_string(&second).unwrap(), "");
        // The restored file is held under the lock like the first.
        let err = ResultsFile::open(&path, true, 10).err().unwrap();
        assert!(err.contains("in use by another liuzi-match run"), "{err}");
        drop(file);
        let (_, games) = ResultsFile::open(&path, true, 10).unwrap();
        assert_eq!(games, (0..5).map(line).collect::<Vec<_>>());
        // That reader let it go again: a second one reads the same games.
        let (_, games) = ResultsFile::open(&path, true, 10).unwrap();
        assert_eq!(games.len(), 5);
    }

    #[test]
    fn a_second_writer_is_refused_while_the_first_holds_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.jsonl");
        let (mut first, _) = ResultsFile::open(&path, false, 10).unwrap();
        first.append(&line(0)).unwrap();
        for resume in [false, true] {
            let err = ResultsFile::open(&path, resume, 10).err().unwrap();
            assert!(err.contains("in use by another liuzi-match run"), "{err}");
        }
        first.append(&line(1)).unwrap();
        drop(first);
        // Released with the handle: the games are intact and the match resumes.
        let (_, old) = ResultsFile::open(&path, true, 10).unwrap();
        assert_eq!(old, vec![line(0), line(1)]);
    }

    #[test]
    fn corrupt_and_duplicate_lines_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.jsonl");
        let good = serde_json::to_string(&line(0)).unwrap();
        std::fs::write(&path, format!("{good}\nnot json\n")).unwrap();
        let err = ResultsFile::open(&path, true, 10).err().unwrap();
        assert!(err.contains("r.jsonl:2"), "{err}");
        std::fs::write(&path, format!("{good}\n{good}\n")).unwrap();
        let err = ResultsFile::open(&path, true, 10).err().unwrap();
        assert!(err.contains("recorded twice"), "{err}");
    }

    #[test]
    fn a_whole_last_game_without_its_newline_is_kept_and_repaired() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.jsonl");
        let text = |n: usize| serde_json::to_string(&line(n)).unwrap();
        std::fs::write(&path, format!("{}\n{}", text(0), text(1))).unwrap();
        let (mut file, old) = ResultsFile::open(&path, true, 10).unwrap();
        assert_eq!(old, vec![line(0), line(1)]);
        file.append(&line(2)).unwrap();
        drop(file);
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            format!("{}\n{}\n{}\n", text(0), text(1), text(2))
        );
    }

    #[test]
    fn a_game_outside_the_match_is_refused_with_file_and_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.jsonl");
        let text = |n: usize| serde_json::to_string(&line(n)).unwrap();
        std::fs::write(&path, format!("{}\n{}\n{}\n", text(0), text(1), text(999))).unwrap();
        let err = ResultsFile::open(&path, true, 2).err().unwrap();
        assert!(
            err.contains("r.jsonl:3") && err.contains("game 999 is not part of this match"),
            "{err}"
        );
        // The file is left as it was.
        assert_eq!(std::fs::read_to_string(&path).unwrap().lines().count(), 3);
    }

    #[cfg(unix)]
    #[test]
    fn what_is_not_a_regular_file_is_refused_without_reading_it() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        assert!(std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success());
        // Each attempt runs on a thread so that a hang fails the test instead of blocking it.
        let refused = |path: PathBuf| {
            let (sender, receiver) = std::sync::mpsc::channel();
            std::thread::spawn(move || {
                let _ = sender.send(ResultsFile::open(&path, true, 10).err());
            });
            receiver
                .recv_timeout(std::time::Duration::from_secs(5))
                .expect("opening returns at once")
                .expect("refused")
        };
        for path in [fifo, dir.path().to_path_buf()] {
            let err = refused(path.clone());
            assert!(err.contains("not a regular file"), "{err}");
            assert!(err.contains(&path.display().to_string()), "{err}");
        }
        for device in ["/dev/full", "/dev/zero"] {
            let err = refused(PathBuf::from(device));
            assert!(
                err.contains(device) && err.contains("not a regular file"),
                "{err}"
            );
            assert!(read_results_text(Path::new(device)).is_err());
        }
        // A file over the cap is refused by its size, unread (sparse: costs no disk).
        let big = dir.path().join("big.jsonl");
        File::create(&big)
            .unwrap()
            .set_len(MAX_RESULTS_BYTES + 1)
            .unwrap();
        let err = refused(big.clone());
        assert!(err.contains("MiB"), "{err}");
        assert!(read_results_text(&big).unwrap_err().contains("MiB"));
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
