//! The protocol-free engine facade (Stockfish's `Engine`, KataGo's `AsyncBot`).
//!
//! Front-ends (GTP, Connect6 protocol) own an [`Engine`]: it keeps the game and the clock and
//! asks its [`MoveGenerator`] — the search — for stones. Front-ends never see search internals.

mod alphabeta_generator;
mod analysis;
mod book;
mod build;
mod mcts_generator;

pub use crate::search::common::{Clock, TimeLeft, TimePolicy, TimeSettings};
pub use alphabeta_generator::AlphaBetaGenerator;
pub use analysis::{Analysis, ChildAnalysis};
pub use book::BookPlayer;
pub use build::{build_generator, load_book, load_evaluator, NO_BOOK, NO_EVALUATOR, NO_WEIGHTS};
pub use mcts_generator::MctsGenerator;

use crate::rules::{Board, Color, PlayError, Point};
use std::fmt;
use std::sync::Arc;

/// Why the search chose a stone without searching (a six, a forced block, a proven win).
pub use crate::search::Decision;
/// How long one stone may think, worked out by the engine from the clock and config: the
/// searches' own limits type (time, and the front-end's observer that may stop it).
pub use crate::search::Limits as StoneBudget;
/// A front-end's hold on a running search (stop requests, live display), and how often a
/// search shows its progress unless the observer asks otherwise.
pub use crate::search::{ThinkObserver, PROGRESS_INTERVAL};

/// Why there are no search statistics of the current position (GoGui's analyze notes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoAnalysis {
    /// A new game or a loaded record: nothing searched here yet.
    NotSearched,
    /// A stone was placed by the controller (`play`) since the last search.
    StonePlayed(Point),
    /// A stone was taken back since the last search.
    Undone,
    /// The engine's last stone needed no search.
    Unsearched(Point, NoSearch),
}

/// How the engine chose a stone without a search of its position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoSearch {
    /// Black's opening stone: the centre.
    Opening,
    /// The opening book.
    Book,
    /// The threat rules or the solver (a six, the only block, a proven threat sequence).
    Decided(Decision),
}

/// The seam where the search plugs in.
pub trait MoveGenerator: Send {
    /// Picks a stone for the side to move. `board` is never over and always has an empty point.
    fn generate(&mut self, board: &Board, budget: StoneBudget) -> Point;

    /// Thinks about `board` (the opponent to move) until `budget.observer` asks to stop, so
    /// that the next `generate` reuses the work. Generators that cannot reuse return at once.
    fn ponder(&mut self, _board: &Board, _budget: StoneBudget) {}

    /// The game was reset or stones were taken back: drop anything that assumed the old history.
    fn new_game(&mut self, _board: &Board) {}

    /// A game ended (a new one starts, or the engine quits): log what is worth a line about it
    /// (the MCTS: its time use).
    fn end_game(&mut self) {}

    /// What the last `generate` saw at its root (for GoGui analyze commands); `None` when the
    /// generator keeps no such statistics.
    fn analysis(&self) -> Option<Analysis> {
        None
    }

    /// The best line of the last `generate` (starting with its stone); empty when the
    /// generator keeps none.
    fn principal_variation(&self) -> Vec<Point> {
        Vec::new()
    }

    /// The move policy P(m) of the side to move on `board`, for a heat map; `None` when the
    /// generator has no policy.
    fn policy(&self, _board: &Board) -> Option<Vec<(Point, f32)>> {
        None
    }
}

/// Stand-in until the search is plugged in: the empty point nearest the last stone, ties broken
/// towards the centre. Deterministic and legal.
#[derive(Default)]
pub struct NearestPointGenerator;

impl MoveGenerator for NearestPointGenerator {
    fn generate(&mut self, board: &Board, _budget: StoneBudget) -> Point {
        let centre = Point::new((board.size() / 2) as u8, (board.size() / 2) as u8);
        let anchor = board.last_stone().unwrap_or(centre);
        board
            .legal_points()
            .min_by_key(|&p| {
                (
                    p.distance(anchor),
                    p.distance(centre),
                    p.index(board.size()),
                )
            })
            .expect("generate is only called with an empty point left")
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineError {
    Play(PlayError),
    UnsupportedSize(usize),
    GameOver,
    WrongColor(Color),
    NothingToUndo,
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Play(e) => write!(f, "{e}"),
            EngineError::UnsupportedSize(n) => write!(
                f,
                "unacceptable size {n} (supported {}..={})",
                crate::rules::MIN_SIZE,
                crate::rules::MAX_SIZE
            ),
            EngineError::GameOver => f.write_str("game is over"),
            EngineError::WrongColor(c) => write!(f, "it is {c}'s turn"),
            EngineError::NothingToUndo => f.write_str("no stone to undo"),
        }
    }
}

impl std::error::Error for EngineError {}

impl From<PlayError> for EngineError {
    fn from(e: PlayError) -> Self {
        EngineError::Play(e)
    }
}

pub struct Engine {
    board: Board,
    clock: Clock,
    generator: Box<dyn MoveGenerator>,
    /// The last search's statistics while they still describe this game: dropped by every
    /// change of the position other than the searched stone itself.
    analysis: Option<Analysis>,
    observer: Option<Arc<dyn ThinkObserver>>,
    /// The opening book, consulted before the search (`engine.book`).
    book: Option<BookPlayer>,
    /// Why `analysis` is `None`, when it is.
    no_analysis: NoAnalysis,
}

impl Drop for Engine {
    /// The game in progress ends with the engine (`quit`, end of input).
    fn drop(&mut self) {
        self.generator.end_game();
    }
}

impl Engine {
    pub fn new(
        board_size: usize,
        generator: Box<dyn MoveGenerator>,
    ) -> Result<Engine, EngineError> {
        let board = Board::new(board_size).ok_or(EngineError::UnsupportedSize(board_size))?;
        Ok(Engine {
            board,
            clock: Clock::default(),
            generator,
            analysis: None,
            observer: None,
            book: None,
            no_analysis: NoAnalysis::NotSearched,
        })
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    pub fn clock_mut(&mut self) -> &mut Clock {
        &mut self.clock
    }

    /// The observer every following search reports to (see [`ThinkObserver`]).
    pub fn set_observer(&mut self, observer: Option<Arc<dyn ThinkObserver>>) {
        self.observer = observer;
    }

    /// Replaces the search (new settings at run time); the game and the clock stay, the old
    /// search's tree and statistics go.
    pub fn set_generator(&mut self, generator: Box<dyn MoveGenerator>) {
        self.generator.end_game();
        self.generator = generator;
        self.generator.new_game(&self.board);
        self.analysis = None;
    }

    /// Whether a front-end watches the searches (see [`Engine::set_observer`]).
    pub fn has_observer(&self) -> bool {
        self.observer.is_some()
    }

    /// The opening book every following `genmove` plays from while the position is in it.
    pub fn set_book(&mut self, book: Option<BookPlayer>) {
        self.book = book;
    }

    /// A new game on an empty board of `size`. On error nothing changes.
    pub fn new_game(&mut self, size: usize) -> Result<(), EngineError> {
        let board = Board::new(size).ok_or(EngineError::UnsupportedSize(size))?;
        self.generator.end_game();
        self.board = board;
        self.analysis = None;
        self.no_analysis = NoAnalysis::NotSearched;
        self.clock.turn_first = None;
        self.generator.new_game(&self.board);
        self.reset_book();
        Ok(())
    }

    /// Places a stone of `color`, which must be the side to move. On error nothing changes.
    pub fn play(&mut self, color: Color, p: Point) -> Result<(), EngineError> {
        self.board.play_as(color, p)?;
        self.analysis = None;
        self.no_analysis = NoAnalysis::StonePlayed(p);
        self.clock.turn_first = None;
        Ok(())
    }

    pub fn undo(&mut self) -> Result<Point, EngineError> {
        let p = self.board.undo().ok_or(EngineError::NothingToUndo)?;
        self.analysis = None;
        self.no_analysis = NoAnalysis::Undone;
        self.clock.turn_first = None;
        self.generator.new_game(&self.board);
        self.reset_book();
        Ok(p)
    }

    /// The statistics of the last search while the position is the one it searched (plus
    /// the stone it chose); `None` after `play`, `undo` or a new game, or when the stone
    /// needed no search.
    pub fn analysis(&self) -> Option<&Analysis> {
        self.analysis.as_ref()
    }

    /// Why [`Engine::analysis`] is `None` (meaningless while it is `Some`).
    pub fn no_analysis(&self) -> NoAnalysis {
        self.no_analysis
    }

    /// The stone the search decided without searching the current position (a six, the only
    /// block, a proven win), as the last search or analysis of this position found it.
    pub fn decided_here(&self) -> Option<(Point, Decision)> {
        self.generator
            .analysis()
            .filter(|a| a.stone_count == self.board.stone_count())
            .and_then(|a| a.decided)
    }

    /// The best line of the search that [`Engine::analysis`] describes (empty without one).
    pub fn principal_variation(&self) -> Vec<Point> {
        if self.analysis.is_some() {
            self.generator.principal_variation()
        } else {
            Vec::new()
        }
    }

    /// P(m) for the side to move in the current position (see [`MoveGenerator::policy`]).
    pub fn policy(&self) -> Option<Vec<(Point, f32)>> {
        self.generator.policy(&self.board)
    }

    /// Replaces the whole game by `board` (e.g. a loaded record).
    pub fn set_board(&mut self, board: Board) {
        self.board = board;
        self.analysis = None;
        self.no_analysis = NoAnalysis::NotSearched;
        self.clock.turn_first = None;
        self.generator.new_game(&self.board);
        self.reset_book();
    }

    fn reset_book(&mut self) {
        if let Some(book) = &mut self.book {
            book.reset();
        }
    }

    /// Thinks on the opponent's time until the observer says stop (see
    /// [`MoveGenerator::ponder`]); afterwards the analysis shows what it found.
    pub fn ponder(&mut self) {
        if self.board.is_over() || self.board.legal_points().next().is_none() {
            return;
        }
        let budget = StoneBudget {
            observer: self.observer.clone(),
            ..StoneBudget::default()
        };
        self.generator.ponder(&self.board, budget);
        self.analysis = self.searched_analysis(self.board.stone_count());
    }

    /// The generator's statistics when they are of a real search at `stone_count` stones.
    fn searched_analysis(&self, stone_count: usize) -> Option<Analysis> {
        self.generator
            .analysis()
            .filter(|a| a.stone_count == stone_count && !a.children.is_empty())
    }

    /// Asks the search for a stone of `color`, plays it and returns it.
    pub fn genmove(&mut self, color: Color) -> Result<Point, EngineError> {
        if self.board.is_over() {
            return Err(EngineError::GameOver);
        }
        if color != self.board.to_move() {
            return Err(EngineError::WrongColor(self.board.to_move()));
        }
        let mut budget = self.clock.stone_budget(&self.board);
        budget.observer = self.observer.clone();
        let start = web_time::Instant::now();
        let searched_at = self.board.stone_count();
        // Black's opening stone goes to the centre, as every Connect6 program plays it: on an
        // empty board the patterns see only edge distances and would break ties by index.
        let book_stone = self.book.as_mut().and_then(|b| b.stone(&self.board));
        let (p, unsearched) = if self.board.stone_count() == 0 {
            let centre = (self.board.size() / 2) as u8;
            (Point::new(centre, centre), Some(NoSearch::Opening))
        } else if let Some(p) = book_stone {
            tracing::info!(stone = %crate::notation::format_gtp(p), "from the opening book");
            (p, Some(NoSearch::Book))
        } else {
            let p = self.generator.generate(&self.board, budget);
            let decided = self.decided_here().filter(|&(d, _)| d == p);
            (p, decided.map(|(_, why)| NoSearch::Decided(why)))
        };
        self.board.play(p)?;
        // A stone the search did not choose has no statistics: the generator's last ones are
        // of another position (perhaps of the same stone count, before an undo).
        self.analysis = match unsearched {
            None => self.searched_analysis(searched_at),
            Some(_) => None,
        };
        self.no_analysis = match unsearched {
            Some(why) => NoAnalysis::Unsearched(p, why),
            None => NoAnalysis::NotSearched,
        };
        let elapsed = start.elapsed();
        self.clock.record_stone(color, elapsed);
        self.clock.record_turn_stone(&self.board, elapsed);
        Ok(p)
    }
}

#[cfg(test)]
mod opening_tests {
    use super::*;

    #[test]
    fn black_opens_in_the_centre_on_any_size() {
        for size in [7, 19, 25] {
            let mut engine = Engine::new(size, Box::new(NearestPointGenerator)).unwrap();
            let p = engine.genmove(Color::Black).unwrap();
            assert_eq!(p, Point::new((size / 2) as u8, (size / 2) as u8));
            assert_eq!(engine.board().stone_count(), 1);
        }
    }
}
