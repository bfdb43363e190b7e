//! A self-contained [`SearchPosition`]: uniform playout weights over the empty cells within
//! distance 2 of a stone, and exact six-threat bookkeeping over every 6-cell window.
//!
//! Built for tests only: the searches' tests run on it, since its knowledge is small enough to
//! reason about. (The engine's fallback without trained gammas is the policy board with the
//! proximity gammas, `search::common::proximity_gammas`.) All of its state is incremental and
//! checked against a from-scratch recomputation in its tests.

use crate::rules::{Board, Color, Point, Stage, DIRECTIONS, WIN_LENGTH};
use crate::search::common::{PositionFactory, SearchPosition, SearchRng};
use rand::Rng;
use std::sync::Arc;

/// Cells closer than this (Chebyshev) to a stone are candidates.
const NEAR: i32 = 2;
const NEIGHBOURHOOD: usize = ((2 * NEAR + 1) * (2 * NEAR + 1)) as usize;
/// A cell lies in at most 6 windows per direction.
const MAX_WINDOWS_PER_CELL: usize = 4 * WIN_LENGTH;
const ABSENT: u16 = u16::MAX;

/// Board-size dependent tables, shared by all clones.
///
/// `SimplePosition` has no undo: the search restores positions with `clone_from`.
#[derive(Debug)]
struct Geometry {
    size: usize,
    /// The cells of every 6-cell window (all 4 directions).
    windows: Vec<[u16; WIN_LENGTH]>,
    /// `cell_windows[cell * MAX_WINDOWS_PER_CELL ..][.. cell_window_count[cell]]`
    cell_windows: Vec<u16>,
    cell_window_count: Vec<u8>,
    /// `neighbours[cell * NEIGHBOURHOOD ..][.. neighbour_count[cell]]`: cells within `NEAR`,
    /// the cell itself excluded.
    neighbours: Vec<u16>,
    neighbour_count: Vec<u8>,
}

impl Geometry {
    fn new(size: usize) -> Geometry {
        let area = size * size;
        let mut windows = Vec::new();
        let mut cell_windows = vec![0u16; area * MAX_WINDOWS_PER_CELL];
        let mut cell_window_count = vec![0u8; area];
        for start in 0..area {
            let p = Point::from_index(start, size);
            for &(dc, dr) in &DIRECTIONS {
                if p.offset(dc, dr, WIN_LENGTH as i32 - 1, size).is_none() {
                    continue;
                }
                let id = windows.len() as u16;
                let mut cells = [0u16; WIN_LENGTH];
                for (k, cell) in cells.iter_mut().enumerate() {
                    let q = p.offset(dc, dr, k as i32, size).expect("checked end");
                    *cell = q.index(size) as u16;
                    let i = q.index(size);
                    cell_windows[i * MAX_WINDOWS_PER_CELL + cell_window_count[i] as usize] = id;
                    cell_window_count[i] += 1;
                }
                windows.push(cells);
            }
        }
        let mut neighbours = vec![0u16; area * NEIGHBOURHOOD];
        let mut neighbour_count = vec![0u8; area];
        for i in 0..area {
            let p = Point::from_index(i, size);
            for dr in -NEAR..=NEAR {
                for dc in -NEAR..=NEAR {
                    if (dc, dr) == (0, 0) {
                        continue;
                    }
                    if let Some(q) = p.offset(dc, dr, 1, size) {
                        neighbours[i * NEIGHBOURHOOD + neighbour_count[i] as usize] =
                            q.index(size) as u16;
                        neighbour_count[i] += 1;
                    }
                }
            }
        }
        Geometry {
            size,
            windows,
            cell_windows,
            cell_window_count,
            neighbours,
            neighbour_count,
        }
    }

    fn windows_of(&self, cell: usize) -> &[u16] {
        let start = cell * MAX_WINDOWS_PER_CELL;
        &self.cell_windows[start..start + self.cell_window_count[cell] as usize]
    }

    fn neighbours_of(&self, cell: usize) -> &[u16] {
        let start = cell * NEIGHBOURHOOD;
        &self.neighbours[start..start + self.neighbour_count[cell] as usize]
    }
}

/// A set of small integers with O(1) insert, remove and uniform pick.
#[derive(Clone, Debug)]
struct IndexSet {
    /// The members in `members[..len]`, in no particular order.
    members: Box<[u16]>,
    len: usize,
    /// Position of each value in `members`, or `ABSENT`.
    slot: Box<[u16]>,
}

impl IndexSet {
    fn new(universe: usize) -> IndexSet {
        IndexSet {
            members: vec![0; universe].into_boxed_slice(),
            len: 0,
            slot: vec![ABSENT; universe].into_boxed_slice(),
        }
    }

    fn members(&self) -> &[u16] {
        &self.members[..self.len]
    }

    fn contains(&self, x: usize) -> bool {
        self.slot[x] != ABSENT
    }

    #[inline]
    fn insert(&mut self, x: usize) {
        if self.slot[x] == ABSENT {
            self.slot[x] = self.len as u16;
            self.members[self.len] = x as u16;
            self.len += 1;
        }
    }

    #[inline]
    fn remove(&mut self, x: usize) {
        let s = self.slot[x];
        if s == ABSENT {
            return;
        }
        self.len -= 1;
        let last = self.members[self.len];
        self.members[s as usize] = last;
        self.slot[last as usize] = s;
        self.slot[x] = ABSENT;
    }

    fn clone_from_set(&mut self, other: &IndexSet) {
        if self.members.len() == other.members.len() {
            self.members.copy_from_slice(&other.members);
            self.slot.copy_from_slice(&other.slot);
            self.len = other.len;
        } else {
            *self = other.clone();
        }
    }
}

const EMPTY: u8 = 0;

fn colour_code(c: Color) -> u8 {
    c.index() as u8 + 1
}

#[derive(Debug)]
pub struct SimplePosition {
    board: Board,
    geo: Arc<Geometry>,
    /// 0 empty, 1 black, 2 white (a flat copy of the board for the hot loops).
    cells: Vec<u8>,
    /// Stones of each colour in each window.
    counts: Vec<[u8; 2]>,
    /// Windows where a colour has at least 4 stones and the other none: a six-threat.
    threats: [IndexSet; 2],
    /// Empty cells with a stone within `NEAR`.
    candidates: IndexSet,
}

impl Clone for SimplePosition {
    fn clone(&self) -> Self {
        SimplePosition {
            board: self.board.clone(),
            geo: self.geo.clone(),
            cells: self.cells.clone(),
            counts: self.counts.clone(),
            threats: self.threats.clone(),
            candidates: self.candidates.clone(),
        }
    }

    /// Reuses every buffer: this runs once per playout.
    fn clone_from(&mut self, source: &Self) {
        self.board.clone_from(&source.board);
        if !Arc::ptr_eq(&self.geo, &source.geo) {
            self.geo = source.geo.clone();
        }
        self.cells.clone_from(&source.cells);
        self.counts.clone_from(&source.counts);
        self.threats[0].clone_from_set(&source.threats[0]);
        self.threats[1].clone_from_set(&source.threats[1]);
        self.candidates.clone_from_set(&source.candidates);
    }
}

impl SimplePosition {
    pub fn new(board: &Board) -> SimplePosition {
        let size = board.size();
        let area = size * size;
        let geo = Arc::new(Geometry::new(size));
        let windows = geo.windows.len();
        let mut pos = SimplePosition {
            board: Board::new(size).expect("size of a valid board"),
            geo,
            cells: vec![EMPTY; area],
            counts: vec![[0, 0]; windows],
            threats: [IndexSet::new(windows), IndexSet::new(windows)],
            candidates: IndexSet::new(area),
        };
        for &p in board.history() {
            pos.play(p);
        }
        pos
    }

    /// Stones the side to move still places this turn.
    fn stones_left_this_turn(&self) -> u8 {
        match self.board.stage() {
            Stage::Second => 1,
            Stage::First if self.board.stone_count() == 0 => 1,
            Stage::First => 2,
        }
    }

    fn push_empty_cells(&self, window: usize, out: &mut Vec<Point>) {
        for &cell in &self.geo.windows[window] {
            let cell = cell as usize;
            if self.cells[cell] == EMPTY {
                let p = Point::from_index(cell, self.geo.size);
                if !out.contains(&p) {
                    out.push(p);
                }
            }
        }
    }

    fn centre(&self) -> Point {
        let c = (self.geo.size / 2) as u8;
        Point::new(c, c)
    }
}

impl SearchPosition for SimplePosition {
    fn board(&self) -> &Board {
        &self.board
    }

    fn play(&mut self, p: Point) {
        let colour = self.board.to_move();
        self.board
            .play(p)
            .expect("the search only plays empty points of ongoing games");
        let c = colour.index();
        let o = 1 - c;
        let cell = p.index(self.geo.size);
        self.cells[cell] = colour_code(colour);
        self.candidates.remove(cell);
        let geo = &*self.geo;
        for &w in geo.windows_of(cell) {
            let w = w as usize;
            let n = &mut self.counts[w];
            let before = n[c];
            n[c] += 1;
            // Only this colour's count changed: it may have made a threat of its own, or
            // spoiled one of the opponent's.
            if before == 3 && n[o] == 0 {
                self.threats[c].insert(w);
            }
            if before == 0 && n[o] >= 4 {
                self.threats[o].remove(w);
            }
        }
        // Stones are never taken back (the search restores positions by copying), so a cell
        // near a stone stays a candidate until it is played.
        let (cells, candidates) = (&self.cells[..], &mut self.candidates);
        for &q in geo.neighbours_of(cell) {
            let q = q as usize;
            if cells[q] == EMPTY {
                candidates.insert(q);
            }
        }
    }

    fn candidates(&self, out: &mut Vec<(Point, f32)>) {
        out.clear();
        if self.board.stone_count() == 0 {
            out.push((self.centre(), 1.0));
            return;
        }
        // Prior weight: the stones within `NEAR` (busy places first).
        for &cell in self.candidates.members() {
            let cell = cell as usize;
            let stones = self
                .geo
                .neighbours_of(cell)
                .iter()
                .filter(|&&q| self.cells[q as usize] != EMPTY)
                .count();
            out.push((Point::from_index(cell, self.geo.size), stones as f32));
        }
        if out.is_empty() {
            // Every cell near a stone is filled: any empty cell will do.
            out.extend(self.board.legal_points().map(|p| (p, 1.0)));
        }
    }

    fn winning_points(&self, out: &mut Vec<Point>) {
        out.clear();
        let c = self.board.to_move().index();
        let needed = (WIN_LENGTH as u8).saturating_sub(self.stones_left_this_turn());
        for &w in self.threats[c].members() {
            if self.counts[w as usize][c] >= needed {
                self.push_empty_cells(w as usize, out);
            }
        }
    }

    fn blocking_points(&self, out: &mut Vec<Point>) {
        out.clear();
        let opponent = self.board.to_move().opponent().index();
        for &w in self.threats[opponent].members() {
            self.push_empty_cells(w as usize, out);
        }
    }

    fn block_value(&self, p: Point) -> u32 {
        let opponent = self.board.to_move().opponent().index();
        let cell = p.index(self.geo.size);
        self.geo
            .windows_of(cell)
            .iter()
            .filter(|&&w| self.threats[opponent].contains(w as usize))
            .count() as u32
    }

    fn sample_playout_stone(&mut self, rng: &mut SearchRng) -> Option<Point> {
        let members = self.candidates.members();
        if !members.is_empty() {
            let cell = members[rng.gen_range(0..members.len())] as usize;
            return Some(Point::from_index(cell, self.geo.size));
        }
        if self.board.stone_count() == 0 {
            return Some(self.centre());
        }
        let empty = self.board.legal_points().count();
        if empty == 0 {
            return None;
        }
        self.board.legal_points().nth(rng.gen_range(0..empty))
    }
}

/// Factory of [`SimplePosition`]s.
#[derive(Clone, Copy, Debug, Default)]
pub struct SimpleFactory;

impl PositionFactory for SimpleFactory {
    type Position = SimplePosition;

    fn position(&self, board: &Board) -> SimplePosition {
        SimplePosition::new(board)
    }

    fn name(&self) -> &'static str {
        "simple"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use rand::{Rng, SeedableRng};

    fn p(c: u8, r: u8) -> Point {
        Point::new(c, r)
    }

    /// Winning points by brute force: stones that are part of a six made this turn (alone, or
    /// with a second stone when the turn has two).
    fn brute_winning_points(board: &Board) -> Vec<Point> {
        let me = board.to_move();
        let two = board.stage() == Stage::First && board.stone_count() > 0;
        let empties: Vec<Point> = board.legal_points().collect();
        let mut wins = Vec::new();
        for &a in &empties {
            let mut b = board.clone();
            b.play(a).unwrap();
            let with_second = two
                && empties.iter().any(|&s| {
                    let mut b2 = b.clone();
                    s != a && !b2.is_over() && b2.play(s).is_ok() && b2.makes_six(a, me)
                });
            if b.makes_six(a, me) || with_second {
                wins.push(a);
            }
        }
        wins.sort();
        wins
    }

    /// Blocking points by brute force: empty cells of windows with >= 4 opponent stones and
    /// none of ours.
    fn brute_blocking_points(board: &Board) -> Vec<Point> {
        let size = board.size();
        let opp = board.to_move().opponent();
        let mut out = Vec::new();
        for start in board.points() {
            for &(dc, dr) in &DIRECTIONS {
                let cells: Option<Vec<Point>> =
                    (0..6).map(|k| start.offset(dc, dr, k, size)).collect();
                let Some(cells) = cells else { continue };
                let theirs = cells.iter().filter(|&&q| board.get(q) == Some(opp)).count();
                let ours = cells
                    .iter()
                    .filter(|&&q| board.get(q) == Some(opp.opponent()))
                    .count();
                if theirs >= 4 && ours == 0 {
                    for &q in &cells {
                        if board.get(q).is_none() && !out.contains(&q) {
                            out.push(q);
                        }
                    }
                }
            }
        }
        out.sort();
        out
    }

    fn check_against_scratch(pos: &SimplePosition) {
        let board = pos.board();
        let fresh = SimplePosition::new(board);
        assert_eq!(pos.cells, fresh.cells);
        assert_eq!(pos.counts, fresh.counts);
        for c in 0..2 {
            let mut a = pos.threats[c].members().to_vec();
            let mut b = fresh.threats[c].members().to_vec();
            a.sort();
            b.sort();
            assert_eq!(a, b);
        }
        let mut cands: Vec<usize> = pos
            .candidates
            .members()
            .iter()
            .map(|&c| c as usize)
            .collect();
        cands.sort();
        let expected: Vec<usize> = (0..board.area())
            .filter(|&i| {
                let q = Point::from_index(i, board.size());
                board.get(q).is_none()
                    && board
                        .history()
                        .iter()
                        .any(|&s| s.distance(q) <= NEAR as u32)
            })
            .collect();
        assert_eq!(cands, expected);
        if !board.is_over() {
            let mut w = Vec::new();
            pos.winning_points(&mut w);
            w.sort();
            assert_eq!(
                w,
                brute_winning_points(board),
                "winning points of {:?}",
                board.history()
            );
            pos.blocking_points(&mut w);
            w.sort();
            assert_eq!(w, brute_blocking_points(board));
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(40))]
        #[test]
        fn incremental_state_matches_scratch(seed in any::<u64>(), size in 8usize..=11) {
            let mut rng = SearchRng::seed_from_u64(seed);
            let board = Board::new(size).unwrap();
            let mut pos = SimplePosition::new(&board);
            let mut copy = pos.clone();
            while !pos.board().is_over() {
                let q = pos.sample_playout_stone(&mut rng).unwrap();
                pos.play(q);
                if rng.gen_bool(0.1) {
                    check_against_scratch(&pos);
                }
                if rng.gen_bool(0.05) {
                    copy.clone_from(&pos);
                    check_against_scratch(&copy);
                }
            }
            check_against_scratch(&pos);
        }
    }

    #[test]
    fn finds_two_stone_and_one_stone_wins() {
        let mut b = Board::standard();
        let stones = [
            p(9, 9),
            p(0, 0),
            p(0, 2),
            p(10, 9),
            p(11, 9),
            p(0, 4),
            p(0, 6),
            p(12, 9),
            p(13, 9),
            p(0, 8),
            p(0, 10),
        ];
        for q in stones {
            b.play(q).unwrap();
        }
        // Black to move with five in a row (9..=13) and two stones: any stone of a completing
        // pair wins.
        let pos = SimplePosition::new(&b);
        let mut w = Vec::new();
        pos.winning_points(&mut w);
        w.sort();
        assert_eq!(w, vec![p(7, 9), p(8, 9), p(14, 9), p(15, 9)]);
        assert_eq!(w, brute_winning_points(&b));
        // After a wasted first stone only the two completing cells win.
        b.play(p(3, 3)).unwrap();
        let pos = SimplePosition::new(&b);
        pos.winning_points(&mut w);
        w.sort();
        assert_eq!(w, vec![p(8, 9), p(14, 9)]);
        // White (to move next turn) sees those windows as threats to block.
        b.play(p(3, 5)).unwrap();
        let pos = SimplePosition::new(&b);
        pos.blocking_points(&mut w);
        w.sort();
        assert_eq!(w, vec![p(7, 9), p(8, 9), p(14, 9), p(15, 9)]);
        assert_eq!(pos.block_value(p(8, 9)), 2);
        assert_eq!(pos.block_value(p(7, 9)), 1);
    }
}
