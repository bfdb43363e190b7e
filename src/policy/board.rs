//! [`PolicyBoard`]: a board with the Bradley-Terry weight of every legal stone kept current, for
//! move priors and roulette-wheel playouts (design.md A4).
//!
//! Weights are integers so that sums stay exact under any number of plays and undos: a cell's
//! weight is its team strength (the product of its gammas) times 2^24, rounded, clamped to
//! `1..=2^52`. Per colour to move, the static part (line shapes, distances) lives in a per-cell
//! table with per-row sums, updated only for the cells a stone changes. The dynamic part (stage,
//! the opponent's last stones, wins and blocks) touches a few dozen cells around the last stones;
//! it is applied lazily as an overlay of per-cell weights and per-row corrections, rebuilt on the
//! first query after a stone. Sampling walks the rows, then the cells of one row: at most
//! `2 * size` steps.

use super::features::{FeatureBoard, TurnContext, FAR_DISTANCE, TACTIC_NONE};
use super::gammas::Gammas;
use super::spec::Group;
use crate::patterns::{CellSet, Geometry};
use crate::rules::{Board, Color, PlayError, Point};
use std::cell::RefCell;
use std::sync::Arc;

/// Weight of a team of strength 1.
const UNIT: f64 = (1u64 << 24) as f64;
const MAX_WEIGHT: u64 = 1 << 52;

#[inline]
fn quantise(strength: f64) -> u64 {
    let w = (strength * UNIT).round();
    if w >= MAX_WEIGHT as f64 {
        MAX_WEIGHT
    } else if w >= 1.0 {
        w as u64
    } else {
        1
    }
}

#[derive(Clone)]
struct Overlay {
    fresh: bool,
    epoch: u32,
    stamp: Vec<u32>,
    /// Effective weight of cells stamped with the current epoch.
    weight: Vec<u64>,
    row_delta: Vec<i64>,
    total_delta: i64,
    wins: CellSet,
    blocks: CellSet,
}

/// A board plus incremental Bradley-Terry weights for the side to move. `Clone + Send`: every
/// search thread owns one.
#[derive(Clone)]
pub struct PolicyBoard {
    fb: FeatureBoard,
    gammas: Arc<Gammas>,
    /// `base[colour][cell]`: static weight with `colour` to move; 0 on occupied cells.
    base: [Vec<u64>; 2],
    rows: [Vec<u64>; 2],
    totals: [u64; 2],
    overlay: RefCell<Overlay>,
}

impl PolicyBoard {
    pub fn new(board: &Board, gammas: Arc<Gammas>) -> PolicyBoard {
        let fb = FeatureBoard::new(board);
        let size = board.size();
        let area = size * size;
        let mut pb = PolicyBoard {
            fb,
            gammas,
            base: [vec![0; area], vec![0; area]],
            rows: [vec![0; size], vec![0; size]],
            totals: [0, 0],
            overlay: RefCell::new(Overlay {
                fresh: false,
                epoch: 0,
                stamp: vec![u32::MAX; area],
                weight: vec![0; area],
                row_delta: vec![0; size],
                total_delta: 0,
                wins: CellSet::new(),
                blocks: CellSet::new(),
            }),
        };
        for cell in 0..area {
            pb.refresh(cell);
        }
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

    /// Product of the static groups' gammas.
    #[inline]
    fn static_strength(&self, cell: usize, colour: Color) -> f64 {
        let [own, opp, near, edge] = self.fb.static_values(cell, colour);
        let g = &self.gammas;
        g.gamma(Group::Own4, own)
            * g.gamma(Group::Opp4, opp)
            * g.gamma(Group::Nearest, near)
            * g.gamma(Group::Edge, edge)
    }

    fn static_weight(&self, cell: usize, colour: Color) -> u64 {
        quantise(self.static_strength(cell, colour))
    }

    fn refresh(&mut self, cell: usize) {
        let size = self.fb.board().size();
        let occupied = !self.fb.board().is_empty_at(Point::from_index(cell, size));
        let row = cell / size;
        for colour in [Color::Black, Color::White] {
            let c = colour.index();
            let new = if occupied {
                0
            } else {
                self.static_weight(cell, colour)
            };
            let old = std::mem::replace(&mut self.base[c][cell], new);
            self.rows[c][row] = self.rows[c][row] - old + new;
            self.totals[c] = self.totals[c] - old + new;
        }
    }

    fn after_change(&mut self) {
        for i in 0..self.fb.changed().len() {
            let cell = self.fb.changed()[i] as usize;
            self.refresh(cell);
        }
        self.overlay.get_mut().fresh = false;
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

    /// The dynamic multiplier of an empty cell relative to the background, 1 away from the action.
    fn dynamic_factor(&self, cell: usize, p: Point, ctx: &TurnContext) -> f64 {
        let g = &self.gammas;
        let stage = g.gamma(Group::Stage, ctx.stage_value(p))
            / g.gamma(Group::Stage, ctx.stage_background());
        let last =
            g.gamma(Group::LastOpp, ctx.last_opp_value(p)) / g.gamma(Group::LastOpp, FAR_DISTANCE);
        let tactic =
            g.gamma(Group::Tactic, ctx.tactic_value(cell)) / g.gamma(Group::Tactic, TACTIC_NONE);
        stage * last * tactic
    }

    fn ensure_overlay(&self) {
        if self.overlay.borrow().fresh {
            return;
        }
        let ctx = self.fb.context();
        let mut ov = self.overlay.borrow_mut();
        let ov = &mut *ov;
        ov.epoch = ov.epoch.wrapping_add(1);
        if ov.epoch == u32::MAX {
            ov.stamp.iter_mut().for_each(|s| *s = u32::MAX);
            ov.epoch = 0;
        }
        ov.row_delta.iter_mut().for_each(|d| *d = 0);
        ov.total_delta = 0;
        let board = self.fb.board();
        if !board.is_over() {
            let size = board.size();
            let colour = ctx.to_move.index();
            let geometry: &'static Geometry = self.fb.geometry();
            for cell in ctx.dynamic_cells(geometry) {
                if ov.stamp[cell] == ov.epoch {
                    continue;
                }
                let base = self.base[colour][cell];
                if base == 0 {
                    continue;
                }
                ov.stamp[cell] = ov.epoch;
                let factor = self.dynamic_factor(cell, Point::from_index(cell, size), &ctx);
                let weight = if factor == 1.0 {
                    base
                } else {
                    quantise(self.static_strength(cell, ctx.to_move) * factor)
                };
                ov.weight[cell] = weight;
                let delta = weight as i64 - base as i64;
                ov.row_delta[cell / size] += delta;
                ov.total_delta += delta;
            }
        }
        ov.wins = ctx.wins;
        ov.blocks = ctx.blocks;
        ov.fresh = true;
    }

    fn effective(&self, ov: &Overlay, cell: usize, colour: usize) -> u64 {
        if ov.stamp[cell] == ov.epoch {
            ov.weight[cell]
        } else {
            self.base[colour][cell]
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
        self.effective(&ov, p.index(board.size()), board.to_move().index()) as f64
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
        (self.totals[board.to_move().index()] as i64 + ov.total_delta) as u64
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
    pub fn sample<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> Option<Point> {
        let total = self.total();
        if total == 0 {
            return None;
        }
        let board = self.fb.board();
        let size = board.size();
        let colour = board.to_move().index();
        let ov = self.overlay.borrow();
        let mut r = rng.gen_range(0..total);
        for row in 0..size {
            let sum = (self.rows[colour][row] as i64 + ov.row_delta[row]) as u64;
            if r >= sum {
                r -= sum;
                continue;
            }
            for cell in row * size..(row + 1) * size {
                let w = self.effective(&ov, cell, colour);
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
        self.ensure_overlay();
        self.overlay.borrow().wins
    }

    /// Points the side to move must take to stop the opponent's six next turn.
    pub fn blocking_points(&self) -> CellSet {
        self.ensure_overlay();
        self.overlay.borrow().blocks
    }

    /// Exact team strength (product of gammas, unquantised) of an empty `p`, as the trainer
    /// computes it: for checking that engine and trainer agree. [`PolicyBoard::weight`] is this
    /// times 2^24, divided by the strength the dynamic groups give cells away from the action.
    pub fn strength(&self, p: Point) -> f64 {
        let ctx = self.fb.context();
        let team = self.fb.team(p.index(self.board().size()), &ctx);
        Group::ALL
            .iter()
            .map(|&g| self.gammas.gamma(g, team[g.index()]))
            .product()
    }
}
