//! Game records of a match: one SGF file per game, and `.games` lines with a row-for-row
//! `.meta.tsv` (as in ../shared/data). Both are written with `liuzi::records` and can always be
//! rebuilt from the results file, which is what `--resume` does.

use super::launch::sanitize_file_name;
use super::results::GameLine;
use liuzi::records::{self, GameRecord, RecordResult};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use super::outcome::Winner;

/// The record of a finished game with its header fields.
pub fn game_record(line: &GameLine) -> Result<GameRecord, String> {
    Ok(GameRecord {
        size: line.size,
        stones: line.stones()?,
        result: match line.result {
            Winner::Black => RecordResult::BlackWins,
            Winner::White => RecordResult::WhiteWins,
            Winner::Draw => RecordResult::Draw,
        },
        black: Some(line.black.clone()),
        white: Some(line.white.clone()),
        date: Some(line.finished.chars().take(10).collect()),
        event: Some(line.event.clone()),
        place: None,
    })
}

/// A one-line description of how the game ended, for the SGF comment and the metadata.
pub fn describe_end(line: &GameLine) -> String {
    let (winner, loser) = match line.result {
        Winner::Black => ("Black", "White"),
        Winner::White => ("White", "Black"),
        Winner::Draw => return "Draw: the board is full".to_string(),
    };
    let mut text = match line.reason.as_str() {
        "six" => format!("{winner} wins with six in a row"),
        reason => format!("{winner} wins: {loser} {reason}"),
    };
    if !line.detail.is_empty() {
        text.push_str(&format!(" ({})", line.detail));
    }
    text
}

fn sgf_escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

/// Writes `<dir>/<game>-<black>-vs-<white>.sgf` (atomically: temporary file, then rename).
pub fn write_sgf(dir: &Path, line: &GameLine) -> Result<PathBuf, String> {
    let record = game_record(line)?;
    let mut text = records::sgf::format(&record, records::sgf::SgfOptions::default());
    // The game's end and clocks as a comment on the last node (just before the closing paren).
    let comment = format!(
        "C[{} game {}, pair {}. {}. Time used: Black {:.1} s, White {:.1} s.]",
        sgf_escape(&line.event),
        line.game,
        line.pair,
        sgf_escape(&describe_end(line)),
        line.time_ms[0] as f64 / 1000.0,
        line.time_ms[1] as f64 / 1000.0
    );
    text.insert_str(text.len() - 1, &comment);
    text.push('\n');
    let name = format!(
        "{:05}-{}-vs-{}.sgf",
        line.game,
        sanitize_file_name(&line.black),
        sanitize_file_name(&line.white)
    );
    let path = dir.join(name);
    liuzi::artifact::write_atomically(&path, |file| file.write_all(text.as_bytes()))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}

/// The `.meta.tsv` file that goes with a `.games` file: `x.games` -> `x.meta.tsv`.
pub fn meta_path(games_path: &Path) -> PathBuf {
    games_path.with_extension("meta.tsv")
}

fn tsv_field(text: &str) -> String {
    text.chars()
        .map(|c| if c == '\t' || c.is_control() { ' ' } else { c })
        .collect()
}

/// One `.meta.tsv` row: game, event, black, white, reason, finished, detail.
fn meta_row(line: &GameLine) -> String {
    [
        line.game.to_string(),
        tsv_field(&line.event),
        tsv_field(&line.black),
        tsv_field(&line.white),
        line.reason.to_string(),
        line.finished.clone(),
        tsv_field(&line.detail),
    ]
    .join("\t")
}

/// Appends `.games` lines and their metadata rows.
pub struct GamesOutput {
    games: File,
    meta: File,
    path: PathBuf,
}

impl GamesOutput {
    /// (Re)writes `path` and its `.meta.tsv` with the games already finished, ready to append.
    /// The `.games` format is 19x19 only, so other sizes are refused.
    pub fn create(path: &Path, size: usize, finished: &[GameLine]) -> Result<GamesOutput, String> {
        if size != records::games::SIZE {
            return Err(format!(
                "{}: the .games format is for 19x19 games only (this match is {size}x{size}); use --sgf-dir",
                path.display()
            ));
        }
        let open = |p: &Path| {
            OpenOptions::new()
                .create(true)
                .write(true)
                .truncate(true)
                .open(p)
                .map_err(|e| format!("{}: {e}", p.display()))
        };
        let mut output = GamesOutput {
            games: open(path)?,
            meta: open(&meta_path(path))?,
            path: path.to_path_buf(),
        };
        for line in finished {
            output.append(line)?;
        }
        Ok(output)
    }

    pub fn append(&mut self, line: &GameLine) -> Result<(), String> {
        let record = game_record(line)?;
        let games_line = records::games::format_line(&record);
        writeln!(self.games, "{games_line}")
            .and_then(|_| writeln!(self.meta, "{}", meta_row(line)))
            .and_then(|_| self.games.flush())
            .and_then(|_| self.meta.flush())
            .map_err(|e| format!("{}: {e}", self.path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::match_runner::outcome::EndReason;

    fn line() -> GameLine {
        GameLine {
            game: 3,
            pair: 1,
            opening: 1,
            event: "test]event".into(),
            black: "liuzi a".into(),
            white: "b/c".into(),
            result: Winner::White,
            reason: EndReason::TimeOver,
            detail: "turn took 2.000 s,\tlimit 1.000 s".into(),
            size: 19,
            opening_stones: 1,
            moves: "j10 i9-k9".into(),
            time_ms: [1500, 2000],
            started: "2026-03-04T05:06:07Z".into(),
            finished: "2026-03-04T05:06:09Z".into(),
            finished_unix: 0,
            match_games: None,
        }
    }

    #[test]
    fn sgf_reads_back_with_header_and_comment() {
        let dir = tempfile::tempdir().unwrap();
        let path = write_sgf(dir.path(), &line()).unwrap();
        assert_eq!(path.file_name().unwrap(), "00003-liuzi_a-vs-b_c.sgf");
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.contains("C[test\\]event game 3, pair 1. White wins: Black time_over"),
            "{text}"
        );
        let back = records::read_file(&path).unwrap();
        assert_eq!(back.len(), 1);
        assert_eq!(back[0].stones, line().stones().unwrap());
        assert_eq!(back[0].result, RecordResult::WhiteWins);
        assert_eq!(back[0].black.as_deref(), Some("liuzi a"));
        assert_eq!(back[0].date.as_deref(), Some("2026-03-04"));
    }

    #[test]
    fn games_and_meta_line_up() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.games");
        let mut out = GamesOutput::create(&path, 19, &[line()]).unwrap();
        let mut second = line();
        second.game = 4;
        second.result = Winner::Black;
        second.reason = EndReason::Six;
        out.append(&second).unwrap();
        drop(out);
        let games = std::fs::read_to_string(&path).unwrap();
        assert_eq!(games, "W\tj10 i9-k9\nB\tj10 i9-k9\n");
        let meta = std::fs::read_to_string(dir.path().join("m.meta.tsv")).unwrap();
        let rows: Vec<&str> = meta.lines().collect();
        assert_eq!(rows.len(), 2);
        assert_eq!(
            rows[0],
            "3\ttest]event\tliuzi a\tb/c\ttime_over\t2026-03-04T05:06:09Z\tturn took 2.000 s, limit 1.000 s"
        );
        // Rebuilding from the results file starts over rather than duplicating.
        GamesOutput::create(&path, 19, &[line()]).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap().lines().count(), 1);
        assert!(GamesOutput::create(&path, 9, &[])
            .err()
            .unwrap()
            .contains("19x19"));
    }
}
