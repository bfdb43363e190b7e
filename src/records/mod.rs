//! Game records: one in-memory form ([`GameRecord`]) and readers/writers for every file format
//! Liuzi meets — SGF ([`sgf`]), the CCGC competition record ([`ccgc`]) and the canonical
//! `.games` lines of the shared data ([`games`]).
//!
//! Every reader checks what it reads: points on the board, stone colours in Connect6 order
//! (B, WW, BB, ...), no stone on an occupied point or after a six, and a stated result that
//! agrees with a six on the board. Errors name the file, the line and the problem.
//!
//! One tolerance: when the first stone of a turn makes six, some sites (LittleGolem) still
//! record the turn's second stone. That stone was never part of the game; readers drop it.

pub mod ccgc;
mod error;
pub mod games;
pub mod sgf;

pub use error::RecordError;

use crate::notation;
use crate::rules::{Board, Color, GameResult, PlayError, Point, MAX_SIZE, MIN_SIZE};
use std::path::Path;

/// The outcome a record states.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum RecordResult {
    BlackWins,
    WhiteWins,
    Draw,
    /// Unfinished, unknown or not stated.
    #[default]
    Unknown,
}

impl RecordResult {
    pub fn winner(self) -> Option<Color> {
        match self {
            RecordResult::BlackWins => Some(Color::Black),
            RecordResult::WhiteWins => Some(Color::White),
            RecordResult::Draw | RecordResult::Unknown => None,
        }
    }

    pub fn win_for(color: Color) -> RecordResult {
        match color {
            Color::Black => RecordResult::BlackWins,
            Color::White => RecordResult::WhiteWins,
        }
    }

    /// What the board says: a six or a full board decide; an ongoing game is `Unknown`.
    pub fn from_board(result: GameResult) -> RecordResult {
        match result {
            GameResult::Win(c) => RecordResult::win_for(c),
            GameResult::Draw => RecordResult::Draw,
            GameResult::Ongoing => RecordResult::Unknown,
        }
    }
}

/// One game: board size, stones in play order (colours follow from the order), result and
/// optional header fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub size: usize,
    pub stones: Vec<Point>,
    pub result: RecordResult,
    pub black: Option<String>,
    pub white: Option<String>,
    pub date: Option<String>,
    pub event: Option<String>,
    pub place: Option<String>,
}

/// Why replaying stone number `index` (from 0) failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct StoneError {
    pub index: usize,
    pub problem: String,
}

impl GameRecord {
    /// An empty record of `size` with no header fields.
    pub fn new(size: usize) -> GameRecord {
        GameRecord {
            size,
            stones: Vec::new(),
            result: RecordResult::Unknown,
            black: None,
            white: None,
            date: None,
            event: None,
            place: None,
        }
    }

    /// The game on `board`, with the result the board shows.
    pub fn from_board(board: &Board) -> GameRecord {
        GameRecord {
            stones: board.history().to_vec(),
            result: RecordResult::from_board(board.result()),
            ..GameRecord::new(board.size())
        }
    }

    /// The stones with their colours, in play order.
    pub fn colored_stones(&self) -> impl Iterator<Item = (Color, Point)> + '_ {
        self.stones
            .iter()
            .enumerate()
            .map(|(n, &p)| (Board::color_of_stone(n), p))
    }

    /// The stones grouped by turn: Black's single opening stone, then pairs (the last turn may
    /// be a single stone when the game ended on it).
    pub fn turns(&self) -> impl Iterator<Item = &[Point]> + '_ {
        let first = self.stones.len().min(1);
        let (opening, rest) = self.stones.split_at(first);
        std::iter::once(opening)
            .filter(|t| !t.is_empty())
            .chain(rest.chunks(2))
    }

    /// Replays the stones on a fresh board. The error names the stone number (from 1) and the
    /// problem, e.g. `stone 17 (K10) is on an occupied point`.
    pub fn replay(&self) -> Result<Board, RecordError> {
        self.replay_stones()
            .map_err(|e| RecordError::new(e.problem))
    }

    /// Replays the stones and checks that the stated result agrees with a six or a full board.
    pub fn validate(&self) -> Result<Board, RecordError> {
        let board = self.replay()?;
        self.check_result(&board).map_err(RecordError::new)?;
        Ok(board)
    }

    /// Replays like [`GameRecord::replay`], first dropping a moot second stone after a turn's
    /// first stone made six (see the module docs). Returns whether a stone was dropped.
    pub(crate) fn replay_dropping_moot_stone(&mut self) -> Result<(Board, bool), StoneError> {
        match self.replay_stones() {
            Err(e)
                if e.index + 1 == self.stones.len()
                    && e.index >= 2
                    && Board::stage_of_stone(e.index) == crate::rules::Stage::Second =>
            {
                let mut shorter = self.stones.clone();
                shorter.pop();
                let trimmed = GameRecord {
                    stones: shorter,
                    ..GameRecord::new(self.size)
                };
                match trimmed.replay_stones() {
                    Ok(board) if board.is_over() => {
                        self.stones.pop();
                        Ok((board, true))
                    }
                    _ => Err(e),
                }
            }
            other => other.map(|b| (b, false)),
        }
    }

    pub(crate) fn replay_stones(&self) -> Result<Board, StoneError> {
        let mut board = Board::new(self.size).ok_or_else(|| StoneError {
            index: 0,
            problem: format!(
                "board size {} is not supported ({MIN_SIZE}..={MAX_SIZE})",
                self.size
            ),
        })?;
        for (index, &p) in self.stones.iter().enumerate() {
            if let Err(e) = board.play(p) {
                let what = match e {
                    PlayError::OffBoard => format!("is off the {0}x{0} board", self.size),
                    PlayError::Occupied => "is on an occupied point".to_string(),
                    PlayError::GameOver => match board.result() {
                        GameResult::Win(c) => format!("comes after {c} made six"),
                        _ => "comes after the board is full".to_string(),
                    },
                    PlayError::WrongColor => "is not the side to move's stone".to_string(),
                };
                return Err(StoneError {
                    index,
                    problem: format!(
                        "stone {} ({}) {what}",
                        index + 1,
                        describe_point(p, self.size)
                    ),
                });
            }
        }
        Ok(board)
    }

    /// Whether the stated result fits `board` (this record replayed).
    pub(crate) fn check_result(&self, board: &Board) -> Result<(), String> {
        let shown = RecordResult::from_board(board.result());
        if shown != RecordResult::Unknown
            && self.result != RecordResult::Unknown
            && shown != self.result
        {
            return Err(format!(
                "the record says {} but the board shows {}",
                result_words(self.result),
                result_words(shown)
            ));
        }
        Ok(())
    }
}

fn result_words(result: RecordResult) -> &'static str {
    match result {
        RecordResult::BlackWins => "black wins",
        RecordResult::WhiteWins => "white wins",
        RecordResult::Draw => "a draw",
        RecordResult::Unknown => "no result",
    }
}

/// A point as a GTP vertex when it is on the board, else its raw column/row (never panics).
pub(crate) fn describe_point(p: Point, size: usize) -> String {
    if (p.col as usize) < size.min(MAX_SIZE) && (p.row as usize) < size.min(MAX_SIZE) {
        notation::format_gtp(p)
    } else {
        format!("column {}, row {}", p.col as u32 + 1, p.row as u32 + 1)
    }
}

/// The record formats Liuzi reads and writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordFormat {
    Sgf,
    Ccgc,
    Games,
}

impl RecordFormat {
    /// From the file extension: `.sgf`, `.games`, `.txt`/`.ccgc` (CCGC).
    pub fn from_extension(path: &Path) -> Option<RecordFormat> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "sgf" => Some(RecordFormat::Sgf),
            "games" => Some(RecordFormat::Games),
            "txt" | "ccgc" => Some(RecordFormat::Ccgc),
            _ => None,
        }
    }

    /// From the text itself: `(` starts SGF, `{` starts CCGC, `R<TAB>` starts a `.games` line.
    pub fn sniff(text: &str) -> Option<RecordFormat> {
        let start = text.trim_start_matches('\u{feff}').trim_start();
        match start.chars().next()? {
            '(' => Some(RecordFormat::Sgf),
            '{' => Some(RecordFormat::Ccgc),
            'B' | 'W' | 'D' | '?' if start[1..].starts_with('\t') => Some(RecordFormat::Games),
            _ => None,
        }
    }
}

/// Reads every game in a file, whatever its format (decided by content, then extension).
/// The text may be UTF-8 or GB18030 (CCGC records are usually GB2312/GBK, which GB18030 covers).
pub fn read_file(path: &Path) -> Result<Vec<GameRecord>, RecordError> {
    let bytes = std::fs::read(path)
        .map_err(|e| RecordError::new(format!("cannot read: {e}")).in_file(path))?;
    read_bytes(&bytes, RecordFormat::from_extension(path)).map_err(|e| e.in_file(path))
}

/// Reads every game in `bytes`; `hint` is used when the content does not say its format.
pub fn read_bytes(
    bytes: &[u8],
    hint: Option<RecordFormat>,
) -> Result<Vec<GameRecord>, RecordError> {
    let text = ccgc::decode(bytes)?;
    match RecordFormat::sniff(&text).or(hint) {
        Some(RecordFormat::Sgf) => sgf::read_str(&text),
        Some(RecordFormat::Ccgc) => ccgc::read_str(&text),
        Some(RecordFormat::Games) => games::read_str(&text),
        None => Err(RecordError::new(
            "unknown record format (expected SGF, a CCGC record or .games lines)",
        )),
    }
}

/// Writes `records` to `path` in `format` (CCGC as UTF-8; use [`ccgc::encode`] for GB18030).
pub fn write_file(
    path: &Path,
    records: &[GameRecord],
    format: RecordFormat,
) -> Result<(), RecordError> {
    let text: String = match format {
        RecordFormat::Sgf => records
            .iter()
            .map(|r| sgf::format(r, sgf::SgfOptions::default()) + "\n")
            .collect(),
        RecordFormat::Ccgc => records.iter().map(|r| ccgc::format(r) + "\n").collect(),
        RecordFormat::Games => records
            .iter()
            .map(|r| games::format_line(r) + "\n")
            .collect(),
    };
    std::fs::write(path, text)
        .map_err(|e| RecordError::new(format!("cannot write: {e}")).in_file(path))
}

#[cfg(test)]
mod tests;
