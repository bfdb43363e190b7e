//! The Connect6 board: stone-level play and undo, turn stages, win detection, Zobrist hash.

use super::coord::{Color, Point, MAX_SIZE, MIN_SIZE};
use super::zobrist;
use std::fmt;

/// Six or more in a row wins (overlines included).
pub const WIN_LENGTH: usize = 6;
/// The four line directions as (column step, row step): horizontal, vertical, diagonal, anti-diagonal.
pub const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// Which stone of its turn the next stone is. Black's opening turn has only a first stone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    First,
    Second,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    Ongoing,
    Win(Color),
    /// The board filled up with no six.
    Draw,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayError {
    OffBoard,
    Occupied,
    GameOver,
    /// The stone's colour is not the side to move.
    WrongColor,
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PlayError::OffBoard => "point is off the board",
            PlayError::Occupied => "point is occupied",
            PlayError::GameOver => "game is over",
            PlayError::WrongColor => "not that colour's turn",
        })
    }
}

impl std::error::Error for PlayError {}

/// A Connect6 position with its full stone history.
///
/// The side to move and the stage follow from the number of stones placed:
/// stone 0 is Black's single opening stone, then stones 1-2 White, 3-4 Black, and so on.
#[derive(Debug)]
pub struct Board {
    size: usize,
    cells: Vec<Option<Color>>,
    history: Vec<Point>,
    /// XOR of the stone keys; the stage key is folded in by [`Board::hash`].
    stones_hash: u64,
    result: GameResult,
}

impl Clone for Board {
    fn clone(&self) -> Self {
        Board {
            size: self.size,
            cells: self.cells.clone(),
            history: self.history.clone(),
            stones_hash: self.stones_hash,
            result: self.result,
        }
    }

    /// Reuses the buffers: searches restore positions by copying.
    fn clone_from(&mut self, source: &Self) {
        let Board {
            size,
            cells,
            history,
            stones_hash,
            result,
        } = self;
        *size = source.size;
        cells.clone_from(&source.cells);
        history.clone_from(&source.history);
        *stones_hash = source.stones_hash;
        *result = source.result;
    }
}

impl Board {
    /// A new empty board, or `None` when `size` is outside `MIN_SIZE..=MAX_SIZE`.
    pub fn new(size: usize) -> Option<Board> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return None;
        }
        Some(Board {
            size,
            cells: vec![None; size * size],
            history: Vec::with_capacity(size * size),
            stones_hash: 0,
            result: GameResult::Ongoing,
        })
    }

    /// The standard 19x19 board.
    pub fn standard() -> Board {
        Board::new(19).expect("19 is a valid size")
    }

    pub fn size(&self) -> usize {
        self.size
    }

    pub fn area(&self) -> usize {
        self.size * self.size
    }

    pub fn contains(&self, p: Point) -> bool {
        (p.col as usize) < self.size && (p.row as usize) < self.size
    }

    /// The stone on `p`; `None` for an empty or off-board point.
    pub fn get(&self, p: Point) -> Option<Color> {
        if self.contains(p) {
            self.cells[p.index(self.size)]
        } else {
            None
        }
    }

    pub fn is_empty_at(&self, p: Point) -> bool {
        self.contains(p) && self.cells[p.index(self.size)].is_none()
    }

    /// Number of stones on the board.
    pub fn stone_count(&self) -> usize {
        self.history.len()
    }

    /// The stones in the order they were placed.
    pub fn history(&self) -> &[Point] {
        &self.history
    }

    pub fn last_stone(&self) -> Option<Point> {
        self.history.last().copied()
    }

    /// Colour of the `n`-th stone placed (from 0).
    pub fn color_of_stone(n: usize) -> Color {
        if n.div_ceil(2) % 2 == 1 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// Stage of the `n`-th stone placed (from 0).
    pub fn stage_of_stone(n: usize) -> Stage {
        if n.is_multiple_of(2) && n > 0 {
            Stage::Second
        } else {
            Stage::First
        }
    }

    /// The colour of the next stone (meaningful also after the game ended).
    pub fn to_move(&self) -> Color {
        Board::color_of_stone(self.history.len())
    }

    pub fn stage(&self) -> Stage {
        Board::stage_of_stone(self.history.len())
    }

    /// The pending first stone of the current turn, when the next stone is a second one.
    pub fn pending_first_stone(&self) -> Option<Point> {
        match self.stage() {
            Stage::Second => self.last_stone(),
            Stage::First => None,
        }
    }

    /// Zobrist hash of stones and stage; updated incrementally on every play and undo.
    pub fn hash(&self) -> u64 {
        match self.stage() {
            Stage::First => self.stones_hash,
            Stage::Second => self.stones_hash ^ zobrist::keys().second_stage,
        }
    }

    pub fn result(&self) -> GameResult {
        self.result
    }

    pub fn is_over(&self) -> bool {
        self.result != GameResult::Ongoing
    }

    /// Checks whether the side to move may place a stone on `p`.
    pub fn check(&self, p: Point) -> Result<(), PlayError> {
        if !self.contains(p) {
            Err(PlayError::OffBoard)
        } else if self.is_over() {
            Err(PlayError::GameOver)
        } else if self.cells[p.index(self.size)].is_some() {
            Err(PlayError::Occupied)
        } else {
            Ok(())
        }
    }

    /// Places the next stone (of the side to move) on `p`. On error nothing changes.
    pub fn play(&mut self, p: Point) -> Result<(), PlayError> {
        self.check(p)?;
        let six = self.makes_six(p, self.to_move());
        self.place_checked(p, six);
        Ok(())
    }

    /// [`Board::play`] for a caller that already knows whether the stone makes six or more in
    /// a row (an incremental board counting the stones of every 6-cell window): skips the line
    /// scan. `makes_six` must equal [`Board::makes_six`] for the stone (checked in debug
    /// builds). On error nothing changes.
    pub fn play_knowing_six(&mut self, p: Point, makes_six: bool) -> Result<(), PlayError> {
        self.check(p)?;
        debug_assert_eq!(makes_six, self.makes_six(p, self.to_move()), "six at {p:?}");
        self.place_checked(p, makes_six);
        Ok(())
    }

    fn place_checked(&mut self, p: Point, makes_six: bool) {
        let color = self.to_move();
        let idx = p.index(self.size);
        self.cells[idx] = Some(color);
        self.history.push(p);
        self.stones_hash ^= zobrist::keys().stone[color.index()][p.index(MAX_SIZE)];
        if makes_six {
            self.result = GameResult::Win(color);
        } else if self.history.len() == self.area() {
            self.result = GameResult::Draw;
        }
    }

    /// Like [`Board::play`], but first checks that `color` is the side to move.
    pub fn play_as(&mut self, color: Color, p: Point) -> Result<(), PlayError> {
        self.check(p)?;
        if color != self.to_move() {
            return Err(PlayError::WrongColor);
        }
        self.play(p)
    }

    /// Takes back the last stone; returns it, or `None` on an empty board.
    pub fn undo(&mut self) -> Option<Point> {
        let p = self.history.pop()?;
        let color = Board::color_of_stone(self.history.len());
        self.cells[p.index(self.size)] = None;
        self.stones_hash ^= zobrist::keys().stone[color.index()][p.index(MAX_SIZE)];
        // Only the last stone can have ended the game: no stone follows a six or a full board.
        self.result = GameResult::Ongoing;
        Some(p)
    }

    /// Empties the board, keeping its size.
    pub fn clear(&mut self) {
        self.cells.iter_mut().for_each(|c| *c = None);
        self.history.clear();
        self.stones_hash = 0;
        self.result = GameResult::Ongoing;
    }

    /// Length of the run of `color` stones through `p` in direction `(dc, dr)`, counting `p` itself
    /// as `color` whatever it holds.
    pub fn run_length(&self, p: Point, dc: i32, dr: i32, color: Color) -> usize {
        let mut n = 1;
        for sign in [1, -1] {
            let mut step = 1;
            while let Some(q) = p.offset(dc * sign, dr * sign, step, self.size) {
                if self.cells[q.index(self.size)] != Some(color) {
                    break;
                }
                n += 1;
                step += 1;
            }
        }
        n
    }

    /// Whether a `color` stone on `p` is part of six or more in a row. Looks only at the 4 lines through `p`.
    pub fn makes_six(&self, p: Point, color: Color) -> bool {
        DIRECTIONS
            .iter()
            .any(|&(dc, dr)| self.run_length(p, dc, dr, color) >= WIN_LENGTH)
    }

    /// Every empty point, in index order; empty when the game is over.
    pub fn legal_points(&self) -> impl Iterator<Item = Point> + '_ {
        let over = self.is_over();
        let size = self.size;
        self.cells
            .iter()
            .enumerate()
            .filter(move |(_, c)| !over && c.is_none())
            .map(move |(i, _)| Point::from_index(i, size))
    }

    /// Every point of the board in index order.
    pub fn points(&self) -> impl Iterator<Item = Point> {
        let size = self.size;
        (0..size * size).map(move |i| Point::from_index(i, size))
    }
}

impl PartialEq for Board {
    /// Same size and the same stones in the same order.
    fn eq(&self, other: &Board) -> bool {
        self.size == other.size && self.history == other.history
    }
}

impl Eq for Board {}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(c: u8, r: u8) -> Point {
        Point::new(c, r)
    }

    #[test]
    fn turn_order_is_b_ww_bb() {
        let colours: Vec<Color> = (0..7).map(Board::color_of_stone).collect();
        use Color::*;
        assert_eq!(
            colours,
            vec![Black, White, White, Black, Black, White, White]
        );
        let stages: Vec<Stage> = (0..5).map(Board::stage_of_stone).collect();
        use Stage::*;
        assert_eq!(stages, vec![First, First, Second, First, Second]);
    }

    #[test]
    fn six_wins_five_does_not_and_overline_wins() {
        let mut b = Board::standard();
        // Black builds a row on row 9 while White plays far away.
        b.play(p(0, 9)).unwrap();
        let white = [p(0, 0), p(2, 0), p(4, 0), p(6, 0)];
        let mut w = white.iter();
        b.play(*w.next().unwrap()).unwrap();
        b.play(*w.next().unwrap()).unwrap();
        b.play(p(1, 9)).unwrap();
        b.play(p(2, 9)).unwrap();
        b.play(*w.next().unwrap()).unwrap();
        b.play(*w.next().unwrap()).unwrap();
        b.play(p(3, 9)).unwrap();
        b.play(p(5, 9)).unwrap();
        assert_eq!(b.result(), GameResult::Ongoing);
        b.play(p(10, 10)).unwrap();
        b.play(p(12, 12)).unwrap();
        // Filling the gap at 4 gives six: 0..=5.
        b.play(p(4, 9)).unwrap();
        assert_eq!(b.result(), GameResult::Win(Color::Black));
        assert_eq!(b.play(p(18, 18)), Err(PlayError::GameOver));
        b.undo();
        assert_eq!(b.result(), GameResult::Ongoing);
    }

    #[test]
    fn occupied_point_is_refused_and_state_unchanged() {
        let mut b = Board::standard();
        b.play(p(9, 9)).unwrap();
        let h = b.hash();
        assert_eq!(b.play(p(9, 9)), Err(PlayError::Occupied));
        assert_eq!(b.hash(), h);
        assert_eq!(b.stone_count(), 1);
        assert_eq!(b.play_as(Color::Black, p(3, 3)), Err(PlayError::WrongColor));
        assert_eq!(b.play(p(19, 3)), Err(PlayError::OffBoard));
        assert_eq!(b.stone_count(), 1);
    }

    #[test]
    fn hash_distinguishes_stage_and_returns_after_undo() {
        let mut b = Board::standard();
        let h0 = b.hash();
        b.play(p(9, 9)).unwrap();
        let h1 = b.hash();
        b.play(p(10, 10)).unwrap();
        assert_ne!(b.hash(), h1);
        b.undo();
        assert_eq!(b.hash(), h1);
        b.undo();
        assert_eq!(b.hash(), h0);
    }

    #[test]
    fn full_board_is_a_draw() {
        // On 6x6, fill column-pairs so no colour gets six in a row anywhere.
        let mut b = Board::new(6).unwrap();
        let mut order = Vec::new();
        for i in 0..36 {
            order.push(Point::from_index(i, 6));
        }
        // Try a random-ish permutation until a draw appears; a deterministic shuffle keeps the test stable.
        let mut state = 12345u64;
        for attempt in 0..1000 {
            b.clear();
            let mut pts = order.clone();
            for i in (1..pts.len()).rev() {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                pts.swap(i, (state >> 33) as usize % (i + 1));
            }
            for q in pts {
                if b.play(q).is_err() {
                    break;
                }
            }
            if b.result() == GameResult::Draw {
                assert_eq!(b.stone_count(), 36);
                assert_eq!(b.legal_points().count(), 0);
                return;
            }
            assert!(attempt < 999, "no draw found");
        }
    }
}
