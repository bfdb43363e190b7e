//! [`FeatureBoard`]: the Bradley-Terry features of every empty cell, kept current on play and undo.
//!
//! Values of each group (see [`Group`]), for a candidate stone of the side to move:
//! * `own4`, `opp4`: multiset ids of the four directions' line classes ([`crate::patterns::shape`]).
//! * `nearest`: 0, 1, 2 for a stone at Chebyshev distance 1, 2, 3; 3 for farther or none.
//! * `edge`: distance to the nearest edge, 4 for 4 or more.
//! * `stage`: 0 for the first stone of a turn (and Black's opening stone). For a second stone, its
//!   relation to the turn's first stone `f` at Chebyshev distance `d`, "on line" meaning on one of
//!   the four lines through `f`: 1 `d = 1`; 2 `d = 2` on line; 3 `d = 2` off line; 4 `d = 3` on
//!   line; 5 `d = 3` off line; 6 `d` = 4 or 5 on line; 7 anything farther.
//! * `lastopp`: 0, 1, 2 for Chebyshev distance 1, 2, 3 to the nearest stone of the opponent's last
//!   turn; 3 for farther, or no such stone.
//! * `tactic`: 2 if the stone is part of a six completed this turn, 1 if it must be taken to stop
//!   the opponent's six next turn ([`crate::patterns`]' blocking points), 0 otherwise.
//! * `cross`: `own * 14 + opp`, the highest own class and the highest opponent class of the four
//!   directions ([`cross_value`]).
//!
//! `own4`, `opp4`, `nearest`, `edge` and `cross` are *static*: they depend only on stones near the cell and the colour to move,
//! and are cached per cell for both colours. The last three are *dynamic*: they differ from their
//! "far" value only near the turn's first stone, near the opponent's last stones or on the few
//! tactical cells, and are computed per position by [`TurnContext`].

use super::nearness::Nearness;
pub use super::nearness::FAR_DISTANCE;
use super::spec::Group;
use crate::patterns::geometry::RING_RADIUS;
use crate::patterns::shape::{self, Combiner};
use crate::patterns::{CellSet, Geometry, PatternBoard};
use crate::rules::{Board, Color, PlayError, Point, Stage};

/// `stage` value of every first stone.
pub const STAGE_FIRST: u16 = 0;
/// `stage` value of a second stone far from the first.
pub const STAGE_FAR: u16 = 7;
pub const TACTIC_NONE: u16 = 0;
pub const TACTIC_BLOCK: u16 = 1;
pub const TACTIC_WIN: u16 = 2;

/// One value per group, indexed by [`Group::index`].
pub type Team = [u16; 8];

/// A board with each cell's static features cached for both colours.
pub struct FeatureBoard {
    pb: PatternBoard,
    /// `dir_shapes[cell * 4 + dir]`: Black's own | opp class, then White's, 4 bits each
    /// ([`shape::both_colours_table`]).
    dir_shapes: Vec<u16>,
    /// Which cells have stones within distance 1, 2, 3 (`nearest`).
    nearness: Nearness,
    /// Cells whose static features changed in the last play or undo.
    changed: CellSet,
    own: &'static Combiner,
    opp: &'static Combiner,
    /// [`shape::both_colours_table`].
    shapes: &'static [u16],
}

impl Clone for FeatureBoard {
    fn clone(&self) -> Self {
        FeatureBoard {
            pb: self.pb.clone(),
            dir_shapes: self.dir_shapes.clone(),
            nearness: self.nearness,
            changed: self.changed,
            own: self.own,
            opp: self.opp,
            shapes: self.shapes,
        }
    }

    /// Reuses every buffer: the search restores its position after every playout.
    fn clone_from(&mut self, source: &Self) {
        let FeatureBoard {
            pb,
            dir_shapes,
            nearness,
            changed,
            own,
            opp,
            shapes,
        } = self;
        pb.clone_from(&source.pb);
        dir_shapes.clone_from(&source.dir_shapes);
        *nearness = source.nearness;
        *changed = source.changed;
        *own = source.own;
        *opp = source.opp;
        *shapes = source.shapes;
    }
}

impl FeatureBoard {
    pub fn new(board: &Board) -> FeatureBoard {
        let pb = PatternBoard::new(board.clone());
        let g = pb.geometry();
        let area = g.area();
        let mut fb = FeatureBoard {
            dir_shapes: vec![0; area * 4],
            nearness: Nearness::new(board.size()),
            changed: CellSet::new(),
            own: Combiner::own(),
            opp: Combiner::opp(),
            shapes: shape::both_colours_table(),
            pb,
        };
        for cell in 0..area {
            for dir in 0..4 {
                fb.dir_shapes[cell * 4 + dir] = fb.shapes[fb.pb.key(cell, dir) as usize];
            }
        }
        for &p in board.history() {
            fb.update_nearness(p.index(board.size()), true);
            fb.changed = CellSet::new();
        }
        fb
    }

    pub fn board(&self) -> &Board {
        self.pb.board()
    }

    pub fn patterns(&self) -> &PatternBoard {
        &self.pb
    }

    pub fn geometry(&self) -> &'static Geometry {
        self.pb.geometry()
    }

    /// Marks the empty cells whose `nearest` the stone arriving on (or leaving) `cell` changes.
    fn update_nearness(&mut self, cell: usize, placed: bool) {
        let (col, row) = self.pb.geometry().coords[cell];
        let FeatureBoard {
            pb,
            nearness,
            changed,
            ..
        } = self;
        let mark = |q: usize| changed.insert_if(q, !pb.is_occupied(q));
        if placed {
            nearness.place(col as usize, row as usize, mark);
        } else {
            nearness.remove(col as usize, row as usize, mark);
        }
    }

    /// The four directions' classes of `cell`, packed 4 bits a direction (direction 0 lowest)
    /// as [`Combiner::id`] takes them: Black's own, Black's opp, White's own, White's opp.
    #[inline]
    pub fn packed_classes(&self, cell: usize) -> [u16; 4] {
        let s = self.line_shapes(cell);
        let mut x = s[0] as u64 | (s[1] as u64) << 16 | (s[2] as u64) << 32 | (s[3] as u64) << 48;
        // A 4 x 4 transpose of nibbles (direction lanes of class nibbles into class lanes of
        // direction nibbles) by two delta swaps: the off-diagonal nibbles of each 2 x 2 block,
        // then the off-diagonal 2 x 2 blocks.
        let t = (x >> 12 ^ x) & 0x0000_F0F0_0000_F0F0;
        x ^= t ^ t << 12;
        let t = (x >> 24 ^ x) & 0x0000_0000_FF00_FF00;
        x ^= t ^ t << 24;
        [
            x as u16,
            (x >> 16) as u16,
            (x >> 32) as u16,
            (x >> 48) as u16,
        ]
    }

    /// The (own4, opp4) ids of `cell` with Black, then White, to move.
    pub fn line_ids(&self, cell: usize) -> [(u16, u16); 2] {
        let [own_b, opp_b, own_w, opp_w] = self.packed_classes(cell);
        [
            (self.own.id(own_b), self.opp.id(opp_b)),
            (self.own.id(own_w), self.opp.id(opp_w)),
        ]
    }

    /// `nearest` of `cell` (see the module docs).
    #[inline]
    pub fn nearest(&self, cell: usize) -> u16 {
        self.nearness.value_at(cell)
    }

    /// Brings the caches up to date after a stone arrived on (or left) `cell`.
    ///
    /// Every cell's shapes follow its keys, occupied or not, so they are right whenever a stone
    /// leaves; only empty cells are reported as changed. The loop has no data-dependent branch:
    /// whether a line's classes changed is a coin flip the branch predictor would often lose.
    fn after_stone(&mut self, cell: usize, placed: bool) {
        self.changed = CellSet::new();
        self.changed.insert(cell);
        let FeatureBoard {
            pb,
            dir_shapes,
            changed,
            shapes,
            ..
        } = self;
        for n in pb.geometry().line_neighbours(cell) {
            let (q, d) = (n.cell as usize, n.dir as usize);
            let new = shapes[pb.key(q, d) as usize];
            let old = std::mem::replace(&mut dir_shapes[q * 4 + d], new);
            // A stone far along a line often leaves the classes as they were: then the cell's
            // static features, and its weights, stay too.
            changed.insert_if(q, (new != old) & !pb.is_occupied(q));
        }
        self.update_nearness(cell, placed);
    }

    /// Places the next stone; on error nothing changes.
    pub fn play(&mut self, p: Point) -> Result<(), PlayError> {
        self.pb.play(p)?;
        self.after_stone(p.index(self.board().size()), true);
        Ok(())
    }

    /// Takes back the last stone.
    pub fn undo(&mut self) -> Option<Point> {
        let p = self.pb.undo()?;
        self.after_stone(p.index(self.board().size()), false);
        Some(p)
    }

    /// Empty cells whose static features changed in the last play or undo, and the stone's cell.
    pub fn changed_cells(&self) -> &CellSet {
        &self.changed
    }

    /// The static group values (own4, opp4, nearest, edge, cross) of `cell` for `to_move`.
    #[inline]
    pub fn static_values(&self, cell: usize, to_move: Color) -> [u16; 5] {
        let (own, opp) = self.line_ids(cell)[to_move.index()];
        let edge = self.pb.geometry().edge_distance[cell].min(4) as u16;
        let cross = cross_value(self.direction_classes(cell, to_move));
        [own, opp, self.nearest(cell), edge, cross]
    }

    /// The line table's both-colours entries ([`shape::both_colours_table`]) of `cell`'s keys
    /// in the four directions, kept current for every cell, occupied or not.
    #[inline]
    pub fn line_shapes(&self, cell: usize) -> &[u16; 4] {
        self.dir_shapes[cell * 4..cell * 4 + 4]
            .try_into()
            .expect("four directions")
    }

    /// Per-direction classes of `cell` for `to_move` (directions as in `rules::DIRECTIONS`):
    /// (own, opponent) in each, the inputs of the `cross` group.
    pub fn direction_classes(&self, cell: usize, to_move: Color) -> [(u8, u8); 4] {
        std::array::from_fn(|d| {
            let v = self.dir_shapes[cell * 4 + d] >> (8 * to_move.index());
            ((v & 15) as u8, (v >> 4 & 15) as u8)
        })
    }

    /// The turn context of the current position (stage, last stones, tactical cells).
    pub fn context(&self) -> TurnContext {
        TurnContext::new(&self.pb)
    }

    /// Every group's value for an empty `cell` in the current position.
    pub fn team(&self, cell: usize, ctx: &TurnContext) -> Team {
        let [own, opp, near, edge, cross] = self.static_values(cell, ctx.to_move);
        let p = Point::from_index(cell, self.board().size());
        [
            own,
            opp,
            near,
            edge,
            ctx.stage_value(p),
            ctx.last_opp_value(p),
            ctx.tactic_value(cell),
            cross,
        ]
    }

    /// Static values recomputed from scratch for every cell, for tests.
    pub fn static_values_from_scratch(board: &Board, to_move: Color) -> Vec<[u16; 5]> {
        let size = board.size();
        let pb = PatternBoard::new(board.clone());
        board
            .points()
            .map(|p| {
                let cell = p.index(size);
                let classes: [(u8, u8); 4] = std::array::from_fn(|d| pb.shape(cell, d, to_move));
                let own = Combiner::own().id_of(classes.map(|c| c.0));
                let opp = Combiner::opp().id_of(classes.map(|c| c.1));
                let nearest = board
                    .history()
                    .iter()
                    .map(|s| s.distance(p))
                    .filter(|&d| d >= 1 && d <= RING_RADIUS as u32)
                    .min()
                    .map_or(FAR_DISTANCE, |d| d as u16 - 1);
                let edge = (p.col as usize)
                    .min(p.row as usize)
                    .min(size - 1 - p.col as usize)
                    .min(size - 1 - p.row as usize)
                    .min(4) as u16;
                [own, opp, nearest, edge, cross_value(classes)]
            })
            .collect()
    }
}

/// `cross` value of the four directions' (own, opponent) classes.
#[inline]
pub fn cross_value(classes: [(u8, u8); 4]) -> u16 {
    let own = classes.iter().map(|c| c.0).max().unwrap_or(0) as u16;
    let opp = classes.iter().map(|c| c.1).max().unwrap_or(0) as u16;
    own * shape::OPP_CLASSES as u16 + opp
}

/// `stage` value of a second stone at Chebyshev distance `d` from the turn's first stone.
#[inline]
pub fn second_stage_value(d: u32, on_line: bool) -> u16 {
    match (d, on_line) {
        (1, _) => 1,
        (2, true) => 2,
        (2, false) => 3,
        (3, true) => 4,
        (3, false) => 5,
        (4 | 5, true) => 6,
        _ => STAGE_FAR,
    }
}

/// What the dynamic features of one position need.
#[derive(Clone, Debug)]
pub struct TurnContext {
    pub to_move: Color,
    /// The turn's first stone, when the next stone is a second one.
    pub first: Option<Point>,
    /// The opponent's stones of its last turn (one for Black's opening stone).
    pub last_opp: [Option<Point>; 2],
    pub wins: CellSet,
    pub blocks: CellSet,
}

impl TurnContext {
    pub fn new(pb: &PatternBoard) -> TurnContext {
        TurnContext::with_tactics(pb, pb.winning_points(), pb.blocking_points())
    }

    /// The context with the position's winning and blocking points already at hand.
    pub fn with_tactics(pb: &PatternBoard, wins: CellSet, blocks: CellSet) -> TurnContext {
        let board = pb.board();
        let to_move = board.to_move();
        let history = board.history();
        let first = board.pending_first_stone();
        let mine_pending = usize::from(first.is_some());
        let before = &history[..history.len() - mine_pending];
        let mut last_opp = [None, None];
        let opp_stones = before
            .iter()
            .enumerate()
            .rev()
            .take_while(|(n, _)| Board::color_of_stone(*n) != to_move)
            .take(2);
        for (slot, (_, &p)) in last_opp.iter_mut().zip(opp_stones) {
            *slot = Some(p);
        }
        TurnContext {
            to_move,
            first,
            last_opp,
            wins,
            blocks,
        }
    }

    pub fn stage(&self) -> Stage {
        if self.first.is_some() {
            Stage::Second
        } else {
            Stage::First
        }
    }

    pub fn stage_value(&self, p: Point) -> u16 {
        let Some(f) = self.first else {
            return STAGE_FIRST;
        };
        let dc = p.col as i32 - f.col as i32;
        let dr = p.row as i32 - f.row as i32;
        second_stage_value(f.distance(p), dc == 0 || dr == 0 || dc.abs() == dr.abs())
    }

    /// The `stage` value that cells away from the first stone take in this position.
    pub fn stage_background(&self) -> u16 {
        if self.first.is_some() {
            STAGE_FAR
        } else {
            STAGE_FIRST
        }
    }

    pub fn last_opp_value(&self, p: Point) -> u16 {
        self.last_opp
            .iter()
            .flatten()
            .map(|s| s.distance(p))
            .filter(|&d| d >= 1 && d <= RING_RADIUS as u32)
            .min()
            .map_or(FAR_DISTANCE, |d| d as u16 - 1)
    }

    pub fn tactic_value(&self, cell: usize) -> u16 {
        if self.wins.contains(cell) {
            TACTIC_WIN
        } else if self.blocks.contains(cell) {
            TACTIC_BLOCK
        } else {
            TACTIC_NONE
        }
    }
}

/// Index of a group's value in a [`Team`].
pub fn value(team: &Team, group: Group) -> u16 {
    team[group.index()]
}
