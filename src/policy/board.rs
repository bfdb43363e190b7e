//! [`PolicyBoard`]: a board with the Bradley-Terry weight of every legal stone kept current, for
//! move priors and roulette-wheel playouts (docs/patterns.md, gammas; docs/search.md, playouts and
//! the leaf value).
//!
//! Weights are integers so that sums stay exact under any number of plays and undos: a cell's
//! weight is its team strength (the product of its gammas) relative to a cell on an open empty
//! area, times 2^24, rounded, clamped to `1..=2^52`. Per colour to move, the static part (line
//! shapes, distances) lives in a per-cell table with per-row sums, updated only for the cells the
//! stones change, at the first query after them (the search's descent plays about ten stones
//! before it asks). The dynamic part (stage, the opponent's last stones, wins and blocks)
//! touches a few dozen cells around the last stones; it is applied lazily too, as an overlay of
//! per-cell weights and per-row corrections, rebuilt on the first query after a stone. Sampling
//! walks the rows, then the cells of one row: at most `2 * size` steps. A playout stone (no win or block on the board) skips the overlay: it is
//! drawn by the static weights and kept with probability dynamic factor / its upper bound.

use super::features::{
    cross_value, second_stage_value, FeatureBoard, TurnContext, FAR_DISTANCE, STAGE_FAR,
    TACTIC_BLOCK, TACTIC_NONE, TACTIC_WIN,
};
use super::gammas::Gammas;
use super::spec::Group;
use crate::patterns::shape::{Combiner, OPP_CLASSES};
use crate::patterns::CellSet;
use crate::rules::{Board, PlayError, Point};
use std::cell::{Ref, RefCell};
use std::sync::Arc;

/// Weight of a team of strength 1.
const UNIT: f64 = (1u64 << 24) as f64;
const MAX_WEIGHT: u64 = 1 << 52;

/// Weight of a positive strength: rounded half up (no libm call), clamped to `1..=MAX_WEIGHT`.
#[inline]
fn quantise(strength: f64) -> u64 {
    // Clamped first (`max` turns NaN into 1), then truncated: two instructions without
    // branches, and one for the conversion.
    let w = (strength * UNIT + 0.5).max(1.0).min(MAX_WEIGHT as f64);
    debug_assert!((1.0..=MAX_WEIGHT as f64).contains(&w));
    // SAFETY: `w` is finite and within 1..=2^52, so it fits an i64 and truncation is exact
    // (the checked `as` would add a NaN and range test on every cell of every stone).
    unsafe { w.to_int_unchecked::<i64>() as u64 }
}

/// The static groups' gammas laid out for the hot path (1 where the spec lacks a group), shared
/// by all clones.
struct StaticGammas {
    /// The own4 and opp4 gammas by the four directions' packed classes
    /// ([`FeatureBoard::packed_classes`]): the multiset id folded in, one lookup instead of two.
    own4: Vec<f64>,
    opp4: Vec<f64>,
    nearest: [f64; 4],
    /// The highest class of four packed ones ([`FeatureBoard::packed_classes`]).
    max_class: Vec<u8>,
    /// The cross group's gammas by `own * OPP_CLASSES + opp` highest classes.
    cross: Vec<f64>,
    /// Per cell: the edge group's gamma.
    edge: Vec<f64>,
    /// By [`dynamic_code`]: the dynamic groups' gammas relative to the values of cells away
    /// from the action (see [`RelativeGammas`]).
    dynamic: [f64; 256],
    /// Per cell: its row.
    row_of: Vec<u8>,
    /// The largest of `dynamic` with no tactical value: at a first stone (the stage cancels),
    /// then at a second stone. Bounds for the playout sampler's rejection step.
    max_factor: [f64; 2],
}

/// Stage "value" of every first stone in a [`dynamic_code`]: a first stone's stage value is the
/// same for every cell and cancels.
const FIRST_STONE_STAGE: u8 = 8;
const LAST_OPP_BITS: u8 = 0b1100;
const TACTIC_BITS: u8 = 0b11;

/// A cell's dynamic values packed in a byte: stage (0..=7, or [`FIRST_STONE_STAGE`]) in the high
/// nibble, then lastopp (0..=3) and tactic (0..=2) two bits each.
#[inline]
const fn dynamic_code(stage: u8, last_opp: u8, tactic: u8) -> u8 {
    stage << 4 | last_opp << 2 | tactic
}

impl StaticGammas {
    fn new(g: &Gammas, fb: &FeatureBoard) -> StaticGammas {
        // Each group relative to its value on an open empty area, so such a cell weighs 2^24
        // whatever constant a file's gammas were scaled by (the same Bradley-Terry model): the
        // integer weights keep their full range instead of clamping to 1 or 2^52.
        let reference = StaticReference::of(g);
        // Packed classes no board produces (a class past the combiner's) have no id: 0 there.
        let by_classes = |group: Group, combiner: &Combiner, unit: f64| {
            (0..=u16::MAX)
                .map(|packed| match combiner.id(packed) {
                    u16::MAX => 0.0,
                    id => g.gamma(group, id) / unit,
                })
                .collect()
        };
        let edge = fb
            .geometry()
            .edge_distance
            .iter()
            .map(|&d| g.gamma(Group::Edge, d.min(4) as u16) / reference.edge)
            .collect();
        let rel = RelativeGammas::new(g);
        let mut dynamic = [1.0; 256];
        for stage in 0..=FIRST_STONE_STAGE {
            let stage_factor = if stage == FIRST_STONE_STAGE {
                1.0
            } else {
                rel.stage[stage as usize]
            };
            for last in 0..4u8 {
                for tactic in 0..3u8 {
                    dynamic[dynamic_code(stage, last, tactic) as usize] =
                        stage_factor * rel.last_opp[last as usize] * rel.tactic[tactic as usize];
                }
            }
        }
        let size = fb.geometry().size;
        let row_of = (0..size * size).map(|cell| (cell / size) as u8).collect();
        let untactical_max = |stages: std::ops::RangeInclusive<u8>| {
            stages
                .flat_map(|stage| {
                    (0..4u8).map(move |last| dynamic_code(stage, last, TACTIC_NONE as u8))
                })
                .map(|code| dynamic[code as usize])
                .fold(0.0, f64::max)
        };
        let max_factor = [
            untactical_max(FIRST_STONE_STAGE..=FIRST_STONE_STAGE),
            untactical_max(0..=STAGE_FAR as u8),
        ];
        StaticGammas {
            own4: by_classes(Group::Own4, Combiner::own(), reference.own4),
            opp4: by_classes(Group::Opp4, Combiner::opp(), reference.opp4),
            nearest: std::array::from_fn(|v| g.gamma(Group::Nearest, v as u16) / reference.nearest),
            max_class: (0..=u16::MAX)
                .map(|packed| {
                    (0..4)
                        .map(|d| (packed >> (4 * d) & 15) as u8)
                        .max()
                        .unwrap_or(0)
                })
                .collect(),
            cross: (0..Group::Cross.size())
                .map(|v| g.gamma(Group::Cross, v as u16) / reference.cross)
                .collect(),
            edge,
            dynamic,
            row_of,
            max_factor,
        }
    }

    /// The product of the static groups' gammas of the empty `cell`, with Black then White to
    /// move, always in this order (bit-exact weights).
    #[inline(always)]
    fn strengths(&self, fb: &FeatureBoard, cell: usize) -> [f64; 2] {
        let [own_b, opp_b, own_w, opp_w] = fb.packed_classes(cell);
        let near = self.nearest[fb.nearest(cell) as usize];
        let edge = self.edge[cell];
        let cross = |own: u16, opp: u16| {
            let own = self.max_class[own as usize] as usize;
            let opp = self.max_class[opp as usize] as usize;
            // Classes past the tables' come only from packed values no board produces.
            self.cross
                .get(own * OPP_CLASSES + opp)
                .copied()
                .unwrap_or(0.0)
        };
        [
            self.own4[own_b as usize]
                * self.opp4[opp_b as usize]
                * near
                * edge
                * cross(own_b, opp_b),
            self.own4[own_w as usize]
                * self.opp4[opp_w as usize]
                * near
                * edge
                * cross(own_w, opp_w),
        ]
    }
}

struct Overlay {
    /// Whether `weight`, `row_delta` and `total_delta` describe the current position.
    fresh: bool,
    epoch: u32,
    stamp: Vec<u32>,
    /// Effective weight of cells stamped with the current epoch.
    weight: Vec<u64>,
    /// [`dynamic_code`] of stamped cells.
    codes: Vec<u8>,
    /// The cells stamped this epoch in `touched[..touched_len]` (each once, so the board's area
    /// is room enough).
    touched: Vec<u16>,
    touched_len: usize,
    row_delta: Vec<i64>,
    total_delta: i64,
    /// The position's winning and blocking points once asked for: a playout stone that wins or
    /// blocks needs only these, not the weights.
    wins: Option<CellSet>,
    /// With the opponent's threat count.
    blocks: Option<(CellSet, u32)>,
}

impl Clone for Overlay {
    fn clone(&self) -> Self {
        let mut copy = Overlay {
            fresh: false,
            epoch: 0,
            stamp: Vec::new(),
            weight: Vec::new(),
            codes: Vec::new(),
            touched: Vec::new(),
            touched_len: 0,
            row_delta: Vec::new(),
            total_delta: 0,
            wins: None,
            blocks: None,
        };
        copy.clone_from(self);
        copy
    }

    /// Reuses the buffers: the search restores its position after every playout.
    fn clone_from(&mut self, source: &Self) {
        let Overlay {
            fresh,
            epoch,
            stamp,
            weight,
            codes,
            touched,
            touched_len,
            row_delta,
            total_delta,
            wins,
            blocks,
        } = self;
        *fresh = source.fresh;
        *epoch = source.epoch;
        stamp.clone_from(&source.stamp);
        weight.clone_from(&source.weight);
        codes.clone_from(&source.codes);
        touched.clone_from(&source.touched);
        *touched_len = source.touched_len;
        row_delta.clone_from(&source.row_delta);
        *total_delta = source.total_delta;
        *wins = source.wins;
        *blocks = source.blocks;
    }
}

/// The static groups' gammas of a cell on an open empty area (every line open, no stone within
/// 3, 4+ from the edge): the unit of the integer weights.
struct StaticReference {
    own4: f64,
    opp4: f64,
    nearest: f64,
    edge: f64,
    cross: f64,
}

/// Own class of an empty line with every window open (six open windows of one stone).
const OPEN_LINE_CLASS: u8 = 3;
/// Opponent class of a line with no opponent stone.
const NO_OPP_CLASS: u8 = 0;

impl StaticReference {
    fn of(g: &Gammas) -> StaticReference {
        StaticReference {
            own4: g.gamma(Group::Own4, Combiner::own().id_of([OPEN_LINE_CLASS; 4])),
            opp4: g.gamma(Group::Opp4, Combiner::opp().id_of([NO_OPP_CLASS; 4])),
            nearest: g.gamma(Group::Nearest, FAR_DISTANCE),
            edge: g.gamma(Group::Edge, 4),
            cross: g.gamma(
                Group::Cross,
                cross_value([(OPEN_LINE_CLASS, NO_OPP_CLASS); 4]),
            ),
        }
    }

    fn product(&self) -> f64 {
        self.own4 * self.opp4 * self.nearest * self.edge * self.cross
    }
}

/// Dynamic gammas relative to the value cells away from the action take, so those cells keep
/// their static weight.
#[derive(Clone, Copy)]
struct RelativeGammas {
    /// At a second stone, relative to `STAGE_FAR` (a first stone's stage value is the same for
    /// every cell and cancels).
    stage: [f64; 8],
    last_opp: [f64; 4],
    tactic: [f64; 3],
}

impl RelativeGammas {
    fn new(g: &Gammas) -> RelativeGammas {
        RelativeGammas {
            stage: std::array::from_fn(|v| {
                g.gamma(Group::Stage, v as u16) / g.gamma(Group::Stage, STAGE_FAR)
            }),
            last_opp: std::array::from_fn(|v| {
                g.gamma(Group::LastOpp, v as u16) / g.gamma(Group::LastOpp, FAR_DISTANCE)
            }),
            tactic: std::array::from_fn(|v| {
                g.gamma(Group::Tactic, v as u16) / g.gamma(Group::Tactic, TACTIC_NONE)
            }),
        }
    }
}

/// The static weights, kept current lazily: a stone only marks the cells it changed, and the
/// first query after it refreshes every marked cell at once. The search's descent plays about
/// ten stones before it asks for a weight, and a cell two of them change is refreshed once; a
/// playout's last stone is never refreshed.
#[derive(Clone)]
struct StaticWeights {
    /// `base[cell][colour]`: static weight with `colour` to move; 0 on occupied cells. Both
    /// colours side by side: the refresh writes both, from one cell's features.
    base: Vec<[u64; 2]>,
    /// `rows[row][colour]`: the sum of `base` over the row.
    rows: Vec<[u64; 2]>,
    totals: [u64; 2],
    /// Cells whose features changed since the last refresh.
    stale: CellSet,
}

impl StaticWeights {
    /// Recomputes the stale cells' weights for both colours from `fb`, keeping row sums and
    /// totals. A cell's weight depends on its own features only, so one refresh after several
    /// stones gives the weights a refresh after each would.
    fn refresh(&mut self, fb: &FeatureBoard, t: &StaticGammas) {
        // Plain slices and locals, so the loop keeps them in registers.
        let (base, rows) = (&mut self.base[..], &mut self.rows[..]);
        let [mut total_b, mut total_w] = self.totals;
        let row_of = &t.row_of[..];
        for cell in self.stale.iter() {
            let weights = if fb.patterns().is_occupied(cell) {
                [0, 0]
            } else {
                let [b, w] = t.strengths(fb, cell);
                [quantise(b), quantise(w)]
            };
            let [old_b, old_w] = std::mem::replace(&mut base[cell], weights);
            let row = &mut rows[row_of[cell] as usize];
            row[0] = row[0] - old_b + weights[0];
            row[1] = row[1] - old_w + weights[1];
            total_b = total_b - old_b + weights[0];
            total_w = total_w - old_w + weights[1];
        }
        self.totals = [total_b, total_w];
        self.stale = CellSet::new();
    }

    fn clone_from(&mut self, source: &Self) {
        self.base.clone_from(&source.base);
        self.rows.clone_from(&source.rows);
        self.totals = source.totals;
        self.stale = source.stale;
    }
}

/// A board plus incremental Bradley-Terry weights for the side to move. `Clone + Send`: every
/// search thread owns one.
pub struct PolicyBoard {
    fb: FeatureBoard,
    gammas: Arc<Gammas>,
    statics: Arc<StaticGammas>,
    /// Read through [`PolicyBoard::settled`] only, which refreshes the stale cells first.
    weights: RefCell<StaticWeights>,
    overlay: RefCell<Overlay>,
}

impl Clone for PolicyBoard {
    fn clone(&self) -> Self {
        PolicyBoard {
            fb: self.fb.clone(),
            gammas: Arc::clone(&self.gammas),
            statics: Arc::clone(&self.statics),
            weights: self.weights.clone(),
            overlay: self.overlay.clone(),
        }
    }

    /// Reuses every buffer: the search restores its position after every playout.
    fn clone_from(&mut self, source: &Self) {
        let PolicyBoard {
            fb,
            gammas,
            statics,
            weights,
            overlay,
        } = self;
        fb.clone_from(&source.fb);
        if !Arc::ptr_eq(gammas, &source.gammas) {
            *gammas = Arc::clone(&source.gammas);
        }
        if !Arc::ptr_eq(statics, &source.statics) {
            *statics = Arc::clone(&source.statics);
        }
        weights.get_mut().clone_from(&source.weights.borrow());
        overlay.get_mut().clone_from(&source.overlay.borrow());
    }
}

/// Rejections before [`PolicyBoard::sample`] falls back to the overlay (whose draw is exact, so
/// the fallback leaves the distribution as it is).
const MAX_REJECTIONS: u32 = 64;

/// The [`dynamic_code`] of the empty `p` with no tactical value, in the position `ctx`
/// describes.
#[inline]
fn untactical_code(ctx: &TurnContext, p: Point) -> u8 {
    let stage = if ctx.first.is_some() {
        ctx.stage_value(p) as u8
    } else {
        FIRST_STONE_STAGE
    };
    dynamic_code(stage, ctx.last_opp_value(p) as u8, TACTIC_NONE as u8)
}

impl PolicyBoard {
    pub fn new(board: &Board, gammas: Arc<Gammas>) -> PolicyBoard {
        let fb = FeatureBoard::new(board);
        let size = board.size();
        let area = size * size;
        let pb = PolicyBoard {
            statics: Arc::new(StaticGammas::new(&gammas, &fb)),
            fb,
            gammas,
            weights: RefCell::new(StaticWeights {
                base: vec![[0; 2]; area],
                rows: vec![[0; 2]; size],
                totals: [0, 0],
                stale: (0..area).collect(),
            }),
            overlay: RefCell::new(Overlay {
                fresh: false,
                epoch: 0,
                stamp: vec![u32::MAX; area],
                weight: vec![0; area],
                codes: vec![0; area],
                touched: vec![0; area],
                touched_len: 0,
                row_delta: vec![0; size],
                total_delta: 0,
                wins: None,
                blocks: None,
            }),
        };
        pb.settle();
        pb
    }

    pub fn board(&self) -> &Board {
        self.fb.board()
    }

    pub fn features(&self) -> &FeatureBoard {
        &self.fb
    }

    pub fn gammas(&self) -> &Arc<Gammas> {
        &self.gammas
    }

    /// Brings the static weights up to date now, as the first query after a stone would: for
    /// benchmarks that time keeping the board current apart from asking it anything.
    pub fn settle(&self) {
        drop(self.settled());
    }

    /// The static weights, their stale cells refreshed first.
    fn settled(&self) -> Ref<'_, StaticWeights> {
        if !self.weights.borrow().stale.is_empty() {
            self.weights.borrow_mut().refresh(&self.fb, &self.statics);
        }
        self.weights.borrow()
    }

    fn after_change(&mut self) {
        self.weights
            .get_mut()
            .stale
            .union_with(self.fb.changed_cells());
        let ov = self.overlay.get_mut();
        ov.fresh = false;
        ov.wins = None;
        ov.blocks = None;
    }

    /// Places the next stone; on error nothing changes.
    pub fn play(&mut self, p: Point) -> Result<(), PlayError> {
        self.fb.play(p)?;
        self.after_change();
        Ok(())
    }

    /// Takes back the last stone.
    pub fn undo(&mut self) -> Option<Point> {
        let p = self.fb.undo()?;
        self.after_change();
        Some(p)
    }

    fn wins(&self) -> CellSet {
        let mut ov = self.overlay.borrow_mut();
        *ov.wins
            .get_or_insert_with(|| self.fb.patterns().winning_points())
    }

    fn blocks_and_threats(&self) -> (CellSet, u32) {
        let mut ov = self.overlay.borrow_mut();
        *ov.blocks
            .get_or_insert_with(|| self.fb.patterns().blocking_points_and_threats())
    }

    fn blocks(&self) -> CellSet {
        self.blocks_and_threats().0
    }

    /// Brings the overlay's weights up to date with the position.
    fn ensure_overlay(&self) {
        if self.overlay.borrow().fresh {
            return;
        }
        let ctx = TurnContext::with_tactics(self.fb.patterns(), self.wins(), self.blocks());
        let weights = self.settled();
        let mut guard = self.overlay.borrow_mut();
        let ov = &mut *guard;
        ov.epoch = ov.epoch.wrapping_add(1);
        if ov.epoch == u32::MAX {
            ov.stamp.iter_mut().for_each(|s| *s = u32::MAX);
            ov.epoch = 0;
        }
        ov.touched_len = 0;
        ov.row_delta.iter_mut().for_each(|d| *d = 0);
        ov.total_delta = 0;
        let board = self.fb.board();
        if !board.is_over() {
            let size = board.size();
            let geometry = self.fb.geometry();
            let colour = ctx.to_move.index();
            let base = &weights.base[..];
            let statics = &*self.statics;
            let background = dynamic_code(
                if ctx.first.is_some() {
                    STAGE_FAR as u8
                } else {
                    FIRST_STONE_STAGE
                },
                FAR_DISTANCE as u8,
                TACTIC_NONE as u8,
            );
            let Overlay {
                epoch,
                stamp,
                weight,
                codes,
                touched,
                touched_len,
                row_delta,
                total_delta,
                ..
            } = ov;
            let epoch = *epoch;
            let mut len = 0;
            // Plain slices, so the loops keep the buffers' addresses in registers.
            let (stamp, codes, weight) = (&mut stamp[..], &mut codes[..], &mut weight[..]);
            let (touched, row_delta) = (&mut touched[..], &mut row_delta[..]);
            // The dynamic code of an empty `cell`, set to the background on first touch this
            // epoch. Occupied cells are left alone: their weight is 0 either way.
            macro_rules! touch {
                ($cell:expr) => {{
                    let cell: usize = $cell;
                    if base[cell][colour] == 0 {
                        None
                    } else {
                        if stamp[cell] != epoch {
                            stamp[cell] = epoch;
                            codes[cell] = background;
                            touched[len] = cell as u16;
                            len += 1;
                        }
                        Some(&mut codes[cell])
                    }
                }};
            }
            // Same values as `TurnContext`, computed from the neighbour lists.
            for s in ctx.last_opp.iter().flatten() {
                for n in geometry.ring_neighbours(s.index(size)) {
                    if let Some(code) = touch!(n.cell as usize) {
                        let last = (n.distance - 1) << 2;
                        if last < *code & LAST_OPP_BITS {
                            *code = *code & !LAST_OPP_BITS | last;
                        }
                    }
                }
            }
            if let Some(f) = ctx.first {
                let f = f.index(size);
                for n in geometry.ring_neighbours(f) {
                    if let Some(code) = touch!(n.cell as usize) {
                        let stage = second_stage_value(n.distance as u32, n.on_line) as u8;
                        *code = *code & 0x0F | stage << 4;
                    }
                }
                for n in geometry
                    .line_neighbours(f)
                    .iter()
                    .filter(|n| n.distance > 3)
                {
                    if let Some(code) = touch!(n.cell as usize) {
                        let stage = second_stage_value(n.distance as u32, true) as u8;
                        *code = *code & 0x0F | stage << 4;
                    }
                }
            }
            for cell in ctx.blocks.iter() {
                if let Some(code) = touch!(cell) {
                    *code = *code & !TACTIC_BITS | TACTIC_BLOCK as u8;
                }
            }
            for cell in ctx.wins.iter() {
                if let Some(code) = touch!(cell) {
                    *code = *code & !TACTIC_BITS | TACTIC_WIN as u8;
                }
            }
            let dynamic = &self.statics.dynamic;
            let row_of = &self.statics.row_of[..];
            *touched_len = len;
            for &cell in &touched[..len] {
                let cell = cell as usize;
                let b = base[cell][colour];
                let factor = dynamic[codes[cell] as usize];
                let w = if factor == 1.0 {
                    b
                } else {
                    quantise(statics.strengths(&self.fb, cell)[colour] * factor)
                };
                weight[cell] = w;
                let delta = w as i64 - b as i64;
                row_delta[row_of[cell] as usize] += delta;
                *total_delta += delta;
            }
        }
        ov.fresh = true;
    }

    fn effective(weights: &StaticWeights, ov: &Overlay, cell: usize, colour: usize) -> u64 {
        if ov.stamp[cell] == ov.epoch {
            ov.weight[cell]
        } else {
            weights.base[cell][colour]
        }
    }

    /// Weight of the stone `p` for the side to move: 0 if occupied, off the board or the game is
    /// over. Proportional to `Π γ` of its features.
    pub fn weight(&self, p: Point) -> f64 {
        let board = self.fb.board();
        if !board.is_empty_at(p) || board.is_over() {
            return 0.0;
        }
        self.ensure_overlay();
        let ov = self.overlay.borrow();
        let weights = self.settled();
        Self::effective(
            &weights,
            &ov,
            p.index(board.size()),
            board.to_move().index(),
        ) as f64
    }

    /// Calls `f` with every stone of positive [`PolicyBoard::weight`], in index order: the same
    /// as asking each legal point, with one overlay check for the whole board.
    pub fn for_each_weight(&self, mut f: impl FnMut(Point, f64)) {
        let board = self.fb.board();
        if board.is_over() {
            return;
        }
        self.ensure_overlay();
        let ov = self.overlay.borrow();
        let weights = self.settled();
        let (size, colour) = (board.size(), board.to_move().index());
        for cell in 0..size * size {
            // Occupied cells weigh 0, so the weight alone tells the legal points.
            let w = Self::effective(&weights, &ov, cell, colour);
            if w > 0 {
                f(Point::from_index(cell, size), w as f64);
            }
        }
    }

    /// Sum of [`PolicyBoard::weight`] over the board (exact as an integer).
    pub fn total_weight(&self) -> f64 {
        self.total() as f64
    }

    fn total(&self) -> u64 {
        let board = self.fb.board();
        if board.is_over() {
            return 0;
        }
        self.ensure_overlay();
        let ov = self.overlay.borrow();
        (self.settled().totals[board.to_move().index()] as i64 + ov.total_delta) as u64
    }

    /// Bradley-Terry probability that the side to move places its next stone on `p`.
    pub fn probability(&self, p: Point) -> f64 {
        let total = self.total();
        if total == 0 {
            0.0
        } else {
            self.weight(p) / total as f64
        }
    }

    /// Draws a stone with probability proportional to its weight; `None` when no stone is legal.
    ///
    /// Playouts draw a stone on most plies, so this avoids rebuilding the dynamic overlay when it
    /// can: without winning or blocking points, a stone's weight is its static weight times a
    /// factor of at most [`StaticGammas::max_factor`], so a static draw accepted with
    /// probability factor / bound is a draw by weight (rejection sampling; the same weights up
    /// to their last rounding unit). Positions with tactical points, and a long run of
    /// rejections, draw from the overlay instead, which keeps the distribution exact.
    pub fn sample<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> Option<Point> {
        let board = self.fb.board();
        if board.is_over() {
            return None;
        }
        if self.overlay.borrow().fresh || !self.wins().is_empty() || !self.blocks().is_empty() {
            return self.sample_from_overlay(rng);
        }
        let colour = board.to_move().index();
        let weights = self.settled();
        let total = weights.totals[colour];
        if total == 0 {
            return None;
        }
        let ctx = TurnContext::with_tactics(self.fb.patterns(), CellSet::new(), CellSet::new());
        if ctx.last_opp == [None, None] && ctx.first.is_none() {
            // No dynamic feature differs from the background: the static weights are exact.
            return Some(self.sample_static(&weights, rng, colour, total));
        }
        let bound = self.statics.max_factor[usize::from(ctx.first.is_some())];
        for _ in 0..MAX_REJECTIONS {
            let p = self.sample_static(&weights, rng, colour, total);
            let factor = self.statics.dynamic[untactical_code(&ctx, p) as usize];
            if rng.gen::<f64>() * bound < factor {
                return Some(p);
            }
            debug_assert!(factor <= bound, "{factor} > {bound} at {p:?}");
        }
        self.sample_from_overlay(rng)
    }

    /// A draw by static weight alone (`total` is the colour's static total, not zero).
    fn sample_static<R: rand::Rng + ?Sized>(
        &self,
        weights: &StaticWeights,
        rng: &mut R,
        colour: usize,
        total: u64,
    ) -> Point {
        let size = self.fb.board().size();
        let mut r = rng.gen_range(0..total);
        for (row, sums) in weights.rows.iter().enumerate() {
            let sum = sums[colour];
            if r >= sum {
                r -= sum;
                continue;
            }
            for (cell, w) in weights.base.iter().enumerate().skip(row * size).take(size) {
                let w = w[colour];
                if r < w {
                    return Point::from_index(cell, size);
                }
                r -= w;
            }
        }
        unreachable!("row sums add up to the total")
    }

    /// A draw by the overlay's exact weights.
    fn sample_from_overlay<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> Option<Point> {
        let total = self.total();
        if total == 0 {
            return None;
        }
        let board = self.fb.board();
        let size = board.size();
        let colour = board.to_move().index();
        let ov = self.overlay.borrow();
        let weights = self.settled();
        let mut r = rng.gen_range(0..total);
        for row in 0..size {
            let sum = (weights.rows[row][colour] as i64 + ov.row_delta[row]) as u64;
            if r >= sum {
                r -= sum;
                continue;
            }
            for cell in row * size..(row + 1) * size {
                let w = Self::effective(&weights, &ov, cell, colour);
                if r < w {
                    return Some(Point::from_index(cell, size));
                }
                r -= w;
            }
        }
        unreachable!("row sums add up to the total")
    }

    /// Points that are part of a six the side to move completes this turn.
    pub fn winning_points(&self) -> CellSet {
        self.wins()
    }

    /// Points the side to move must take to stop the opponent's six next turn.
    pub fn blocking_points(&self) -> CellSet {
        self.blocks()
    }

    /// The opponent's threat count: the fewest stones that stop its six next turn (found with
    /// the blocking points, and kept with them until the next stone).
    pub fn opponent_threats(&self) -> u32 {
        self.blocks_and_threats().1
    }

    /// The strength that weighs 2^24: the team of a cell on an open empty area, away from the
    /// turn's stones and tactics, in the current position ([`PolicyBoard::strength`] units).
    pub fn unit_strength(&self) -> f64 {
        let g = &self.gammas;
        let ctx = self.fb.context();
        StaticReference::of(g).product()
            * g.gamma(Group::Stage, ctx.stage_background())
            * g.gamma(Group::LastOpp, FAR_DISTANCE)
            * g.gamma(Group::Tactic, TACTIC_NONE)
    }

    /// Tree-prior strengths (docs/patterns.md, gammas): with a tree section, of the stones the
    /// search gives a node as children — the winning points when there are any, else the blocking
    /// points when there are any (docs/search.md, expansion: a forced node has no other children),
    /// else every legal point; without one, the playout weight of every legal point. `out` is
    /// cleared first.
    pub fn tree_strengths(&self, out: &mut Vec<(Point, f64)>) {
        out.clear();
        let Some(tree) = self.gammas.tree() else {
            self.for_each_weight(|p, w| out.push((p, w)));
            return;
        };
        let (wins, blocks) = (self.wins(), self.blocks());
        let ctx = TurnContext::with_tactics(self.fb.patterns(), wins, blocks);
        let size = self.board().size();
        let forced = if !ctx.wins.is_empty() {
            Some(&ctx.wins)
        } else if !ctx.blocks.is_empty() {
            Some(&ctx.blocks)
        } else {
            None
        };
        match forced {
            Some(points) if !self.board().is_over() => {
                for p in points.points(size) {
                    out.push((p, tree.strength(&self.fb, &ctx, p.index(size))));
                }
            }
            _ => tree.strengths(&self.fb, &ctx, out),
        }
    }

    /// Exact team strength (product of gammas, unquantised) of an empty `p`, as the trainer
    /// computes it: for checking that engine and trainer agree. [`PolicyBoard::weight`] is this
    /// times 2^24 divided by [`PolicyBoard::unit_strength`].
    pub fn strength(&self, p: Point) -> f64 {
        let ctx = self.fb.context();
        let team = self.fb.team(p.index(self.board().size()), &ctx);
        Group::ALL
            .iter()
            .map(|&g| self.gammas.gamma(g, team[g.index()]))
            .product()
    }
}
