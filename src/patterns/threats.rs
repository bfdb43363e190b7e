//! Threats, immediate wins and forced blocks (docs/tactics.md, VCDT), kept exact and incremental.
//!
//! Every run of 6 cells in one direction is a *window*. A window holding at least 4 stones of a
//! colour and none of the other is that colour's *threat window*: its (at most 2) empty cells
//! complete a six with the two stones of the colour's next turn. A colour's *threat count* is the
//! fewest stones the other side must place to put a stone in every one of its threat windows
//! (Wu & Huang: t threats = t stones to stop a six next turn; t >= 3 wins against 2 stones).
//! Windows on different lines share at most one cell, so the greedy per-line count is only an
//! upper bound; here the count is an exact minimum hitting set, found by a small bounded search
//! (every window offers at most 2 cells).

use super::cellset::CellSet;
use super::geometry::Geometry;
use crate::rules::{Board, Color, Point, Stage, WIN_LENGTH};
use smallvec::SmallVec;
use std::borrow::Cow;

/// Threat counts are exact up to this; larger ones are reported as `MAX_EXACT_THREATS + 1`.
pub const MAX_EXACT_THREATS: u32 = 6;
const WINDOW_WORDS: usize = (2 * 25 * 20 + 2 * 20 * 20usize).div_ceil(64);
/// Smallest and largest own-stone count for which live windows are tracked (see
/// [`ThreatWindows::live_windows`]); 4 and more is a threat window.
pub const MIN_LIVE: u8 = 2;
const LIVE_LEVELS: usize = (4 - MIN_LIVE + 1) as usize;

/// Threat windows' empty cells; more than 16 threat windows is rare.
type ThreatPairs = SmallVec<[(u16, u16); 16]>;

/// The [`ThreatWindows::pair_histogram`] bin of a window holding `[black, white]` stones.
#[inline]
pub fn pair_bin([black, white]: [u8; 2]) -> usize {
    usize::from(black & 7) | usize::from(white & 7) << 3
}

/// How far a `colour` stone moves a window's [`pair_bin`].
#[inline]
fn pair_bin_step(colour: Color) -> usize {
    1 << (3 * colour.index())
}

/// Which cells of a board are empty. The threat queries read the empty cells of windows through
/// it, so they run on any board that tracks the same stones as the windows: a [`Board`], or a
/// solver's own board where a side may pass.
pub trait CellView {
    fn is_empty_cell(&self, cell: usize) -> bool;
}

impl CellView for Board {
    fn is_empty_cell(&self, cell: usize) -> bool {
        self.get(Point::from_index(cell, self.size())).is_none()
    }
}

/// Per-window stone counts and each colour's live windows, updated on every stone.
pub struct ThreatWindows {
    geometry: &'static Geometry,
    /// `counts[w][colour]`.
    counts: Vec<[u8; 2]>,
    /// How many windows hold each pair of counts, at [`pair_bin`]: the evaluator's roads
    /// without a pass over every window. Kept only where `keeps_histogram`.
    pair_histogram: [u32; 64],
    /// Whether `pair_histogram` is kept current. The solver never reads it, and its two
    /// read-modify-writes a window, often on the same bin, chain through memory.
    keeps_histogram: bool,
    /// `live[colour][k - MIN_LIVE]` bit `w` set: window `w` holds at least `k` stones of that
    /// colour and none of the other. Level 4 are the threat windows.
    live: [[[u64; WINDOW_WORDS]; LIVE_LEVELS]; 2],
    /// Set bits of each `live` level.
    live_counts: [[u32; LIVE_LEVELS]; 2],
    /// The lowest level kept in `live` (the others stay empty; queries for them count afresh).
    lowest_kept: u8,
}

impl Clone for ThreatWindows {
    fn clone(&self) -> Self {
        ThreatWindows {
            geometry: self.geometry,
            counts: self.counts.clone(),
            pair_histogram: self.pair_histogram,
            keeps_histogram: self.keeps_histogram,
            live: self.live,
            live_counts: self.live_counts,
            lowest_kept: self.lowest_kept,
        }
    }

    /// Reuses the counts' buffer: searches restore positions by copying.
    fn clone_from(&mut self, source: &Self) {
        let ThreatWindows {
            geometry,
            counts,
            pair_histogram,
            keeps_histogram,
            live,
            live_counts,
            lowest_kept,
        } = self;
        *geometry = source.geometry;
        counts.clone_from(&source.counts);
        *pair_histogram = source.pair_histogram;
        *keeps_histogram = source.keeps_histogram;
        *live = source.live;
        *live_counts = source.live_counts;
        *lowest_kept = source.lowest_kept;
    }
}

impl ThreatWindows {
    /// Windows of an empty board, with every live level kept and no pair histogram (for the
    /// threat-space solver).
    pub fn new(size: usize) -> ThreatWindows {
        Self::keeping(size, MIN_LIVE, false)
    }

    /// Windows of an empty board, keeping only the threat windows (level 4) current: what wins,
    /// blocks and threat counts need. Lower levels change on most stones, in a pattern the
    /// branch predictor cannot follow, so boards that rarely ask for them count them on demand.
    /// The pair histogram is kept (the evaluator reads it).
    pub fn threats_only(size: usize) -> ThreatWindows {
        Self::keeping(size, 4, true)
    }

    fn keeping(size: usize, lowest_kept: u8, keeps_histogram: bool) -> ThreatWindows {
        let geometry = Geometry::for_size(size);
        let mut pair_histogram = [0; 64];
        pair_histogram[pair_bin([0, 0])] = geometry.windows.len() as u32;
        ThreatWindows {
            geometry,
            counts: vec![[0, 0]; geometry.windows.len()],
            pair_histogram,
            keeps_histogram,
            live: [[[0; WINDOW_WORDS]; LIVE_LEVELS]; 2],
            live_counts: [[0; LIVE_LEVELS]; 2],
            lowest_kept,
        }
    }

    /// Built from scratch for the stones on `board`.
    pub fn from_board(board: &Board) -> ThreatWindows {
        let mut windows = ThreatWindows::new(board.size());
        for (n, &p) in board.history().iter().enumerate() {
            windows.place(p.index(board.size()), Board::color_of_stone(n));
        }
        windows
    }

    /// Sets or clears window `w` at `colour`'s live levels for own-stone counts `levels`.
    #[inline]
    fn mark(&mut self, colour: usize, w: usize, levels: std::ops::RangeInclusive<u8>, on: bool) {
        let (word, bit) = (w / 64, 1u64 << (w % 64));
        for k in levels {
            let level = usize::from(k - MIN_LIVE);
            if on {
                self.live[colour][level][word] |= bit;
                self.live_counts[colour][level] += 1;
            } else {
                self.live[colour][level][word] &= !bit;
                self.live_counts[colour][level] -= 1;
            }
        }
    }

    /// A `colour` stone arrives on `cell`. A window changes liveness only when the colour's own
    /// count reaches a new level while the other colour is absent, or when the colour's first
    /// stone kills the other colour's live window. Returns whether some window through `cell`
    /// is now all `colour`: the stone makes six or more in a row.
    pub fn place(&mut self, cell: usize, colour: Color) -> bool {
        let (me, them) = (colour.index(), colour.opponent().index());
        let mut six = false;
        let step = pair_bin_step(colour);
        for &w in self.geometry.windows_of(cell) {
            let w = w as usize;
            if self.keeps_histogram {
                let bin = pair_bin(self.counts[w]);
                self.pair_histogram[bin] -= 1;
                self.pair_histogram[bin + step] += 1;
            }
            self.counts[w][me] += 1;
            let (mine, theirs) = (self.counts[w][me], self.counts[w][them]);
            six |= mine == WIN_LENGTH as u8;
            let lowest = self.lowest_kept;
            if (theirs == 0) & (lowest..=4).contains(&mine) {
                self.mark(me, w, mine..=mine, true);
            } else if (mine == 1) & (theirs >= lowest) {
                self.mark(them, w, lowest..=theirs.min(4), false);
            }
        }
        six
    }

    /// The `colour` stone on `cell` is taken back (the reverse of [`ThreatWindows::place`]).
    pub fn remove(&mut self, cell: usize, colour: Color) {
        let (me, them) = (colour.index(), colour.opponent().index());
        let step = pair_bin_step(colour);
        for &w in self.geometry.windows_of(cell) {
            let w = w as usize;
            if self.keeps_histogram {
                let bin = pair_bin(self.counts[w]);
                self.pair_histogram[bin] -= 1;
                self.pair_histogram[bin - step] += 1;
            }
            let before = self.counts[w][me];
            self.counts[w][me] -= 1;
            let theirs = self.counts[w][them];
            let lowest = self.lowest_kept;
            if (theirs == 0) & (lowest..=4).contains(&before) {
                self.mark(me, w, before..=before, false);
            } else if (before == 1) & (theirs >= lowest) {
                self.mark(them, w, lowest..=theirs.min(4), true);
            }
        }
    }

    /// How many windows hold at least `min_count` stones of `colour` and none of the other
    /// (`min_count` clamped to `MIN_LIVE..=4`), kept current on every stone.
    pub fn live_window_count(&self, colour: Color, min_count: u8) -> u32 {
        let k = min_count.clamp(MIN_LIVE, 4);
        if k >= self.lowest_kept {
            self.live_counts[colour.index()][usize::from(k - MIN_LIVE)]
        } else {
            self.counted_afresh(colour, k)
                .iter()
                .map(|w| w.count_ones())
                .sum()
        }
    }

    /// Stone counts of every window, for tests comparing against a recomputation.
    pub fn counts(&self) -> &[[u8; 2]] {
        &self.counts
    }

    /// How many windows hold each (black, white) pair of stone counts, indexed by [`pair_bin`]
    /// (a window holds at most 6 stones, so the bins are 3 bits a colour). Only windows made by
    /// [`ThreatWindows::threats_only`] keep it.
    pub fn pair_histogram(&self) -> &[u32; 64] {
        assert!(
            self.keeps_histogram,
            "the solver's windows keep no pair histogram"
        );
        &self.pair_histogram
    }

    /// Stones of `colour` in window `w`.
    pub fn count(&self, w: usize, colour: Color) -> u8 {
        self.counts[w][colour.index()]
    }

    /// Ids of `colour`'s threat windows.
    pub fn threat_windows(&self, colour: Color) -> impl Iterator<Item = usize> + '_ {
        self.live_windows(colour, 4)
    }

    /// Ids of the windows holding at least `min_count` stones of `colour` and none of the other
    /// (`min_count` is clamped to `MIN_LIVE..=4`; a window of 4 or more is a threat window). The
    /// empty cells of those with 2 or 3 are where `colour`'s next turn can make threats.
    pub fn live_windows(&self, colour: Color, min_count: u8) -> impl Iterator<Item = usize> + '_ {
        let k = min_count.clamp(MIN_LIVE, 4);
        let bits = if k >= self.lowest_kept {
            Cow::Borrowed(&self.live[colour.index()][usize::from(k - MIN_LIVE)])
        } else {
            Cow::Owned(self.counted_afresh(colour, k))
        };
        (0..WINDOW_WORDS)
            .map(move |i| (i, bits[i]))
            .flat_map(|(i, word)| {
                let mut rest = word;
                std::iter::from_fn(move || {
                    (rest != 0).then(|| {
                        let bit = rest.trailing_zeros() as usize;
                        rest &= rest - 1;
                        i * 64 + bit
                    })
                })
            })
    }

    /// The windows holding at least `k` stones of `colour` and none of the other, from the counts
    /// (for a level not kept current).
    fn counted_afresh(&self, colour: Color, k: u8) -> [u64; WINDOW_WORDS] {
        let (me, them) = (colour.index(), colour.opponent().index());
        let mut bits = [0; WINDOW_WORDS];
        for (w, count) in self.counts.iter().enumerate() {
            if count[me] >= k && count[them] == 0 {
                bits[w / 64] |= 1 << (w % 64);
            }
        }
        bits
    }

    /// The first two empty cells of window `w` as a pair (the same cell twice if only one is
    /// empty; a threat window has at most two); `None` when the window is full.
    pub fn window_empties<C: CellView + ?Sized>(&self, board: &C, w: usize) -> Option<(u16, u16)> {
        let mut found = self.geometry.windows[w]
            .iter()
            .copied()
            .filter(|&c| board.is_empty_cell(c as usize));
        let a = found.next()?;
        Some((a, found.next().unwrap_or(a)))
    }

    /// The empty cells of `attacker`'s threat windows as sorted, distinct pairs (on the stack:
    /// playouts ask on every stone).
    fn threat_pairs<C: CellView + ?Sized>(&self, board: &C, attacker: Color) -> ThreatPairs {
        if self.live_window_count(attacker, 4) == 0 {
            return ThreatPairs::new();
        }
        let mut pairs: ThreatPairs = self
            .threat_windows(attacker)
            .filter_map(|w| self.window_empties(board, w))
            .collect();
        pairs.sort_unstable();
        pairs.dedup();
        pairs
    }

    /// `attacker`'s threat count on `board` (whose stones these windows track): the fewest stones
    /// that hit every threat window; `MAX_EXACT_THREATS + 1` when larger than that.
    pub fn threat_count<C: CellView + ?Sized>(&self, board: &C, attacker: Color) -> u32 {
        min_hitting(&self.threat_pairs(board, attacker), &[])
    }

    /// Empty cells that belong to some smallest set of stones hitting every threat window of
    /// `attacker` (a stone there lowers its threat count by one), whoever is to move. Empty when
    /// `attacker` has no threat; past [`MAX_EXACT_THREATS`], every empty cell of a threat window.
    pub fn blocking_cells<C: CellView + ?Sized>(&self, board: &C, attacker: Color) -> CellSet {
        self.blocking_cells_and_threats(board, attacker).0
    }

    /// [`ThreatWindows::blocking_cells`] and `attacker`'s threat count
    /// ([`ThreatWindows::threat_count`]), which finding the cells computes anyway.
    pub fn blocking_cells_and_threats<C: CellView + ?Sized>(
        &self,
        board: &C,
        attacker: Color,
    ) -> (CellSet, u32) {
        let mut set = CellSet::new();
        let pairs = self.threat_pairs(board, attacker);
        // The usual cases in closed form (the pairs are sorted and distinct).
        match pairs[..] {
            [] => return (set, 0),
            // One threat: either empty cell stops it.
            [(a, b)] => {
                set.insert(a as usize);
                set.insert(b as usize);
                return (set, 1);
            }
            // Two windows: a cell of both stops both (1 threat, and only such cells are
            // blocking points); otherwise 2 threats, and every cell lowers the count by one.
            [(a, b), (c, d)] => {
                let mut shared = false;
                for x in [a, b] {
                    if x == c || x == d {
                        set.insert(x as usize);
                        shared = true;
                    }
                }
                if !shared {
                    for x in [a, b, c, d] {
                        set.insert(x as usize);
                    }
                }
                return (set, if shared { 1 } else { 2 });
            }
            _ => {}
        }
        let threats = min_hitting(&pairs, &[]);
        if threats == 0 {
            return (set, 0);
        }
        for &(a, b) in &pairs {
            for c in [a, b] {
                if set.contains(c as usize) {
                    continue;
                }
                if threats > MAX_EXACT_THREATS || min_hitting(&pairs, &[c]) + 1 == threats {
                    set.insert(c as usize);
                }
            }
        }
        (set, threats)
    }

    /// Empty cells of `colour`'s live windows holding at least `min_count` of its stones (see
    /// [`ThreatWindows::live_windows`]). With `min_count` 2, every cell where `colour`'s two stones
    /// of a turn can make a threat; with 3, every cell where one stone can.
    pub fn potential_cells<C: CellView + ?Sized>(
        &self,
        board: &C,
        colour: Color,
        min_count: u8,
    ) -> CellSet {
        let mut set = CellSet::new();
        for w in self.live_windows(colour, min_count) {
            for &c in &self.geometry.windows[w] {
                if board.is_empty_cell(c as usize) {
                    set.insert(c as usize);
                }
            }
        }
        set
    }

    /// Empty points that are part of a six the side to move can complete with the stones left in
    /// its turn: with one stone, the gap of a window holding 5; with two, the gaps of a window
    /// holding 4 or 5 (and no opponent stone).
    pub fn winning_points(&self, board: &Board) -> CellSet {
        let mut set = CellSet::new();
        if board.is_over() {
            return set;
        }
        let me = board.to_move();
        if self.live_window_count(me, 4) == 0 {
            return set;
        }
        let need = WIN_LENGTH as u8 - stones_left(board);
        for w in self.threat_windows(me) {
            if self.counts[w][me.index()] >= need {
                if let Some((a, b)) = self.window_empties(board, w) {
                    set.insert(a as usize);
                    set.insert(b as usize);
                }
            }
        }
        set
    }

    /// Empty points the side to move must take to stop the opponent's six next turn: those that
    /// belong to some smallest set of stones hitting every opponent threat window (placing one
    /// lowers the opponent's threat count by one). Empty when the opponent has no threat. When the
    /// count is past [`MAX_EXACT_THREATS`], every empty cell of a threat window.
    pub fn blocking_points(&self, board: &Board) -> CellSet {
        self.blocking_points_and_threats(board).0
    }

    /// [`ThreatWindows::blocking_points`] and the opponent's threat count (0 when the game is
    /// over).
    pub fn blocking_points_and_threats(&self, board: &Board) -> (CellSet, u32) {
        if board.is_over() {
            return (CellSet::new(), 0);
        }
        self.blocking_cells_and_threats(board, board.to_move().opponent())
    }
}

/// Stones the side to move still places this turn: 1 for Black's opening stone and second stones.
pub fn stones_left(board: &Board) -> u8 {
    if board.stone_count() == 0 || board.stage() == Stage::Second {
        1
    } else {
        2
    }
}

/// Fewest extra cells that, with `chosen`, hit every pair; `MAX_EXACT_THREATS + 1` if more.
fn min_hitting(pairs: &[(u16, u16)], chosen: &[u16]) -> u32 {
    let mut picked = CellSet::new();
    for &c in chosen {
        picked.insert(usize::from(c));
    }
    (0..=MAX_EXACT_THREATS)
        .find(|&k| can_hit(pairs, &mut picked, k))
        .unwrap_or(MAX_EXACT_THREATS + 1)
}

/// Whether `budget` more cells, added to `picked`, hit every pair (`picked` is left as it was).
/// A bitset, not a list: membership tests without loops keep the branch predictor on track.
fn can_hit(pairs: &[(u16, u16)], picked: &mut CellSet, budget: u32) -> bool {
    let missed = pairs
        .iter()
        .find(|&&(a, b)| !(picked.contains(usize::from(a)) | picked.contains(usize::from(b))));
    let Some(&(a, b)) = missed else {
        return true;
    };
    if budget == 0 {
        return false;
    }
    let options = [a, b];
    for &c in &options[..if a == b { 1 } else { 2 }] {
        picked.insert(usize::from(c));
        let hit = can_hit(pairs, picked, budget - 1);
        picked.remove(usize::from(c));
        if hit {
            return true;
        }
    }
    false
}

/// `attacker`'s threat count on `board`, computed from scratch.
pub fn threat_count(board: &Board, attacker: Color) -> u32 {
    ThreatWindows::from_board(board).threat_count(board, attacker)
}

/// Points where the side to move completes a six this turn, computed from scratch.
pub fn winning_points(board: &Board) -> CellSet {
    ThreatWindows::from_board(board).winning_points(board)
}

/// Points the side to move must take to stop the opponent's six next turn, from scratch.
pub fn blocking_points(board: &Board) -> CellSet {
    ThreatWindows::from_board(board).blocking_points(board)
}
