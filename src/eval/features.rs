//! The evaluator's per-position features, seen from the side to move ("own") against the other
//! side ("opp"). Every value comes from the pattern layer's incremental state: the exact threat
//! counts, the 6-cell windows and the line-pattern table.
//!
//! Per side (16 values each, own first, then opp):
//! * `threats`: the side's exact threat count (stones the other side needs to stop its six next
//!   turn; docs/tactics.md, VCDT), capped at 3.
//! * `roads1`..`roads5`: ln(1 + number of 6-cell windows holding k of the side's stones and none
//!   of the other's) — the classic Connect6 "road" count.
//! * `dead2`, `live2`, `dead3`, `live3`, `four1`, `four2`: ln(1 + shapes). For every stone and
//!   direction, the line table's own class of the stone's line key (`patterns::shape`: `m`, the
//!   most of the side's stones in one open window through the stone, and how many open windows
//!   reach `m`) classifies the stone's part in a shape. A two or three is *dead* when a single
//!   window reaches `m`, *live* when several do; a four or five (`m` = 4, 5) is `four1` when the
//!   line holds one threat through the stone, `four2` when two or more. Each stone of a shape
//!   sees it, so the counts are divided by `m` (a shape counts about once).
//!
//! * `points_three`, `points_cross`, `points_threat`, `points_double`: ln(1 + empty cells) where
//!   one stone of the side's would make, by the line table's own class of the cell's four keys, a
//!   three (`m` = 3) on one line, threes or better on two lines (a fork), at least one threat,
//!   or two threats or more (a stone that alone forces both of the opponent's stones). The stone
//!   counts tell what a side has; these tell what its next stones can make, which is what a
//!   quiet position's initiative is.
//!
//! Then `second_stone` (1 when the next stone is the second of its turn, else 0), `stones`
//! (stones on the board) and `black_to_move` (0/1).
//!
//! The features read every line's classes as the line table's both-colours entry of its key
//! ([`LineShapes`]): a [`PatternBoard`] looks the entry up, a [`FeatureBoard`] keeps it cached
//! per cell (what the search's positions carry), with the same features either way.
//!
//! Changing how any value is computed means bumping [`FEATURE_VERSION`]: evaluator files carry
//! the [`spec_id`] and are refused by a build that computes something else.

use crate::patterns::shape::{self, OWN_SIX};
use crate::patterns::{pair_bin, PatternBoard};
use crate::policy::FeatureBoard;
use crate::rules::{Board, Color, Stage};
use std::sync::OnceLock;

pub const FEATURE_VERSION: u32 = 2;
/// Values per side.
pub const SIDE_FEATURES: usize = 16;
pub const FEATURE_COUNT: usize = 2 * SIDE_FEATURES + 3;

/// A position's feature vector, ordered as [`feature_names`].
pub type Features = [f64; FEATURE_COUNT];

const SIDE_NAMES: [&str; SIDE_FEATURES] = [
    "threats",
    "roads1",
    "roads2",
    "roads3",
    "roads4",
    "roads5",
    "dead2",
    "live2",
    "dead3",
    "live3",
    "four1",
    "four2",
    "points_three",
    "points_cross",
    "points_threat",
    "points_double",
];
const THREATS: usize = 0;
const ROADS: usize = 1;
const DEAD2: usize = 6;
const FOUR1: usize = 10;
const POINTS: usize = 12;

/// Index of `second_stone`; `stones` and `black_to_move` follow.
pub const SECOND_STONE: usize = 2 * SIDE_FEATURES;
pub const STONES: usize = SECOND_STONE + 1;
pub const BLACK_TO_MOVE: usize = SECOND_STONE + 2;

/// The names, e.g. `own_threats`, ..., `opp_four2`, `second_stone`, `stones`, `black_to_move`.
pub fn feature_names() -> Vec<String> {
    let mut names: Vec<String> = ["own", "opp"]
        .iter()
        .flat_map(|side| SIDE_NAMES.iter().map(move |n| format!("{side}_{n}")))
        .collect();
    names.extend(["second_stone", "stones", "black_to_move"].map(String::from));
    names
}

/// Identifies the feature definitions: `liuzi-eval1:v2:own_threats,...`.
pub fn spec_id() -> String {
    format!(
        "liuzi-eval1:v{FEATURE_VERSION}:{}",
        feature_names().join(",")
    )
}

/// Slot of a stone's line class in the per-side shape counts, with the stones the shape holds.
fn shape_slot(class: u8) -> Option<(usize, f64)> {
    match class {
        // m = 2, openness 0 / 1-2 (one window reaches 2 / several do).
        4 => Some((DEAD2, 2.0)),
        5 | 6 => Some((DEAD2 + 1, 2.0)),
        7 => Some((DEAD2 + 2, 3.0)),
        8 | 9 => Some((DEAD2 + 3, 3.0)),
        // m = 4 or 5 with 1 / 2+ threats through the stone.
        10 => Some((FOUR1, 4.0)),
        11 => Some((FOUR1 + 1, 4.0)),
        12 => Some((FOUR1, 5.0)),
        13 => Some((FOUR1 + 1, 5.0)),
        _ => None,
    }
}

/// A position's pattern state with the line table's both-colours entry
/// ([`shape::both_colours_table`]) of each cell's line in each direction.
pub trait LineShapes {
    fn patterns(&self) -> &PatternBoard;
    fn line_shape(&self, cell: usize, dir: usize) -> u16;

    /// The four directions' entries of `cell`, direction 0 in the low 16 bits.
    #[inline]
    fn packed_line_shapes(&self, cell: usize) -> u64 {
        (0..4).fold(0, |packed, dir| {
            packed | u64::from(self.line_shape(cell, dir)) << (16 * dir)
        })
    }
}

impl LineShapes for PatternBoard {
    #[inline]
    fn patterns(&self) -> &PatternBoard {
        self
    }

    #[inline]
    fn line_shape(&self, cell: usize, dir: usize) -> u16 {
        shape::both_colours_table()[self.key(cell, dir) as usize]
    }
}

impl LineShapes for FeatureBoard {
    #[inline]
    fn patterns(&self) -> &PatternBoard {
        FeatureBoard::patterns(self)
    }

    /// From the cache the feature board keeps current: no lookup in the 2 MB line table.
    #[inline]
    fn line_shape(&self, cell: usize, dir: usize) -> u16 {
        self.line_shapes(cell)[dir]
    }

    #[inline]
    fn packed_line_shapes(&self, cell: usize) -> u64 {
        let s = self.line_shapes(cell);
        u64::from(s[0]) | u64::from(s[1]) << 16 | u64::from(s[2]) << 32 | u64::from(s[3]) << 48
    }
}

/// The features of `shapes`' position for its side to move.
pub fn extract<S: LineShapes + ?Sized>(shapes: &S) -> Features {
    extract_visiting(shapes, |_, _| {})
}

/// [`extract`], handing `visit` every cell's packed line shapes
/// ([`LineShapes::packed_line_shapes`]) and whether the cell is empty, in cell order, from the
/// pass over the cells the point counts make: a per-cell term (the evaluator's pattern term)
/// then costs no pass and no read of its own.
pub fn extract_visiting<S, V>(shapes: &S, mut visit: V) -> Features
where
    S: LineShapes + ?Sized,
    V: FnMut(u64, bool),
{
    let pb = shapes.patterns();
    let board = pb.board();
    let own = board.to_move();
    let mut f = [0.0; FEATURE_COUNT];
    let base = |c: Color| if c == own { 0 } else { SIDE_FEATURES };

    for colour in [Color::Black, Color::White] {
        f[base(colour) + THREATS] = pb.threat_count(colour).min(3) as f64;
    }

    let roads = road_counts(pb.windows().pair_histogram());
    for colour in [Color::Black, Color::White] {
        for k in 1..=5 {
            f[base(colour) + ROADS + k - 1] = ln_1p_count(roads[colour.index()][k]);
        }
    }

    let size = board.size();
    let mut stone_shapes = [[0.0f64; SIDE_FEATURES]; 2];
    for (n, &p) in board.history().iter().enumerate() {
        let colour = Board::color_of_stone(n);
        let cell = p.index(size);
        for dir in 0..4 {
            // The colour's own class: its byte of the both-colours entry, low nibble.
            let class = (shapes.line_shape(cell, dir) >> (8 * colour.index())) as u8 & 15;
            debug_assert!(class != OWN_SIX || board.is_over());
            if let Some((slot, stones)) = shape_slot(class) {
                stone_shapes[colour.index()][slot] += 1.0 / stones;
            }
        }
    }
    for colour in [Color::Black, Color::White] {
        for slot in DEAD2..POINTS {
            f[base(colour) + slot] = f64::ln_1p(stone_shapes[colour.index()][slot]);
        }
    }

    let points = empty_cell_points(shapes, &mut visit);
    for colour in [Color::Black, Color::White] {
        for (i, &n) in points[colour.index()].iter().enumerate() {
            f[base(colour) + POINTS + i] = ln_1p_count(n);
        }
    }

    f[SECOND_STONE] = f64::from(board.stage() == Stage::Second);
    f[STONES] = board.stone_count() as f64;
    f[BLACK_TO_MOVE] = f64::from(own == Color::Black);
    f
}

/// ln(1 + `n`) of a count, from a table for the small counts a position mostly has (the same
/// values: the table holds `f64::ln_1p` of each).
#[inline]
fn ln_1p_count(n: u32) -> f64 {
    const TABLED: usize = 256;
    static TABLE: OnceLock<[f64; TABLED]> = OnceLock::new();
    let table = TABLE.get_or_init(|| std::array::from_fn(|k| f64::ln_1p(k as f64)));
    match table.get(n as usize) {
        Some(&v) => v,
        None => f64::ln_1p(f64::from(n)),
    }
}

/// Per colour (Black, White): windows holding exactly `k` (`k` = 6 or more counted as 5) of its
/// stones and none of the other's, from the windows' histogram of (black, white) counts
/// ([`ThreatWindows::pair_histogram`](crate::patterns::ThreatWindows::pair_histogram), kept
/// current on every stone).
fn road_counts(histogram: &[u32; 64]) -> [[u32; 6]; 2] {
    let mut roads = [[0u32; 6]; 2];
    for n in 1..=6u8 {
        roads[0][usize::from(n.min(5))] += histogram[pair_bin([n, 0])];
        roads[1][usize::from(n.min(5))] += histogram[pair_bin([0, n])];
    }
    roads
}

/// Bit fields of a [`point_fields`] value, per colour `c` at `8 * c`: lines where the colour's
/// stone makes a three or better (3 bits), threats it makes (4 bits). The four directions' values
/// of a cell add up without carrying between fields (at most 4 lines, 8 threats).
const THREE_BITS: u32 = 0;
const THREAT_BITS: u32 = 3;

/// Both colours' [`empty_cell_points`] fields of a cell, summed over its four lines, from the
/// four lines' both-colours entries packed in a word ([`LineShapes::packed_line_shapes`]).
///
/// Each entry's own classes (Black's low nibble, White's the third) become one byte each, and
/// all eight bytes are classified at once: a class `k` makes a three or better when 7 <= k < 14
/// (`OWN_SIX`), and threats when 10 <= k < 14 (`m` = 4 or 5), one for even `k`, two or more
/// for odd (`patterns::shape`). A byte's field is at most 1 + (2 << 3) and four of them sum to
/// at most 68, so no sum carries into the next byte.
#[inline]
fn point_fields(packed: u64) -> u16 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // Each byte's class with its high bit set, so that subtracting a constant under 128 never
    // borrows from the next byte; the high bit then tells whether the class reached it.
    let classes = packed & 0x0F0F_0F0F_0F0F_0F0F | HIGH;
    let at_least = |k: u64| ((classes - k * ONES) & HIGH) >> 7;
    let (seven, ten, six) = (at_least(7), at_least(10), at_least(u64::from(OWN_SIX)));
    let three = seven & !six;
    let threat_class = ten & !six;
    let threats = threat_class + (threat_class & classes & ONES);
    let fields = three << THREE_BITS | threats << THREAT_BITS;
    // The four directions' u16 lanes summed: Black's fields in the low byte, White's above.
    let fields = fields + (fields >> 32);
    (fields + (fields >> 16)) as u16
}

/// Per colour (Black, White): empty cells where one of its stones makes a three, threes on two
/// lines, a threat, two threats (see the module comment). Most cells of a board are far from
/// any stone and sum to 0.
///
/// Branch-free: a colour's 7-bit field of a cell indexes [`point_lanes`], its four counts as
/// 0/1 in 16-bit lanes, summed over the empty cells in one word a colour (a lane counts at most
/// the largest board's cells, 625, so no lane carries into the next).
///
/// `visit` is handed each cell's packed shapes and whether it is empty ([`extract_visiting`]).
fn empty_cell_points<S, V>(shapes: &S, visit: &mut V) -> [[u32; 4]; 2]
where
    S: LineShapes + ?Sized,
    V: FnMut(u64, bool),
{
    let pb = shapes.patterns();
    let lanes = point_lanes();
    let mut sums = [0u64; 2];
    for cell in 0..pb.geometry().area() {
        let packed = shapes.packed_line_shapes(cell);
        let is_empty = !pb.is_occupied(cell);
        visit(packed, is_empty);
        let fields = u32::from(point_fields(packed));
        let empty = u64::from(is_empty);
        sums[0] += lanes[(fields & 0x7F) as usize] * empty;
        sums[1] += lanes[(fields >> 8 & 0x7F) as usize] * empty;
    }
    sums.map(|sum| std::array::from_fn(|k| (sum >> (16 * k)) as u32 & 0xFFFF))
}

/// For each 7-bit field of one colour (threes at [`THREE_BITS`], threats at [`THREAT_BITS`]):
/// whether the cell counts as a three, a cross, a threat, a double threat, in 16-bit lanes.
fn point_lanes() -> &'static [u64; 128] {
    const _: () = assert!(crate::rules::MAX_SIZE * crate::rules::MAX_SIZE < 1 << 16);
    static TABLE: OnceLock<[u64; 128]> = OnceLock::new();
    TABLE.get_or_init(|| {
        std::array::from_fn(|fields| {
            let threes = (fields >> THREE_BITS) & 7;
            let threats = (fields >> THREAT_BITS) & 15;
            [
                threes >= 1 && threats == 0,
                threes >= 2,
                threats >= 1,
                threats >= 2,
            ]
            .iter()
            .enumerate()
            .fold(0, |lanes, (k, &counts)| {
                lanes | u64::from(counts) << (16 * k)
            })
        })
    })
}

/// The features of `board` computed from scratch (builds its pattern state).
pub fn extract_board(board: &Board) -> Features {
    extract(&PatternBoard::new(board.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::rules::Point;

    fn p(c: u8, r: u8) -> Point {
        Point::new(c, r)
    }

    fn board_of(_size: usize, stones: &[Point]) -> Option<Board> {
        let mut b = Board::standard();
        for &q in stones {
            b.play(q).ok()?;
        }
        Some(b)
    }

    #[test]
    fn names_match_the_count_and_the_id_names_them() {
        assert_eq!(feature_names().len(), FEATURE_COUNT);
        assert!(spec_id().starts_with("liuzi-eval1:v2:own_threats,own_roads1,"));
        assert!(spec_id().ends_with(",second_stone,stones,black_to_move"));
    }

    #[test]
    fn empty_board_and_one_stone() {
        let f = extract_board(&Board::standard());
        assert_eq!(f[BLACK_TO_MOVE], 1.0);
        assert_eq!(f[STONES], 0.0);
        assert!(f[..SECOND_STONE].iter().all(|&x| x == 0.0));
        // After the centre stone White is to move; Black ("opp") has roads of one stone:
        // 24 windows of six through the centre.
        let f = extract_board(&board_of(19, &[p(9, 9)]).unwrap());
        assert_eq!(f[BLACK_TO_MOVE], 0.0);
        assert_eq!(f[SIDE_FEATURES + ROADS], f64::ln_1p(24.0));
        assert_eq!(f[ROADS], 0.0);
        assert_eq!(f[SECOND_STONE], 0.0);
    }

    /// Black: an open three on row 9 (9..=11). White: two stones in column 0 (rows 0 and 2),
    /// two singles in the corners. Black to move.
    fn open_three() -> Board {
        let stones = [
            p(9, 9),
            p(0, 0),
            p(0, 2),
            p(10, 9),
            p(11, 9),
            p(0, 18),
            p(18, 0),
        ];
        board_of(19, &stones).unwrap()
    }

    #[test]
    fn shapes_threats_and_stage_of_a_known_position() {
        // Black: a live four on row 9 (9..=12), then a stray stone.
        let mut b = open_three();
        b.play(p(12, 9)).unwrap();
        assert_eq!(extract_board(&b)[SECOND_STONE], 1.0);
        b.play(p(3, 15)).unwrap();
        // White to play the first of its two stones.
        assert_eq!(b.to_move(), Color::White);
        let f = extract_board(&b);
        assert_eq!(f[SECOND_STONE], 0.0);
        let opp = SIDE_FEATURES;
        assert_eq!(f[opp + THREATS], 2.0);
        assert_eq!(f[THREATS], 0.0);
        // All four stones see a four with two threats on the row: one shape.
        assert!((f[opp + FOUR1 + 1] - f64::ln_1p(1.0)).abs() < 1e-12);
        assert_eq!(f[opp + FOUR1], 0.0);
        // Roads of four: the windows 7..12, 8..13, 9..14 hold all four stones.
        assert_eq!(f[opp + ROADS + 3], f64::ln_1p(3.0));
    }

    #[test]
    fn points_count_the_cells_where_one_stone_makes_a_shape() {
        let b = open_three();
        assert_eq!(b.to_move(), Color::Black);
        let f = extract_board(&b);
        let ln = |n: f64| f64::ln_1p(n);
        // A threat from 6, 7, 8, 12, 13, 14 on the row; two (a live four) from 8 and 12.
        assert_eq!(f[POINTS + 2], ln(6.0));
        assert_eq!(f[POINTS + 3], ln(2.0));
        // A three without a threat: 5 (window 5..=10) and 15 (window 10..=15). No forks.
        assert_eq!(f[POINTS], ln(2.0));
        assert_eq!(f[POINTS + 1], 0.0);
        // White's column 0 (rows 0 and 2): a three from rows 1, 3, 4, 5, nothing more.
        let opp = SIDE_FEATURES;
        assert_eq!(f[opp + POINTS], ln(4.0));
        assert_eq!(f[opp + POINTS + 1..opp + SIDE_FEATURES], [0.0; 3]);
    }

    #[test]
    fn incremental_and_scratch_features_agree() {
        let mut pb = PatternBoard::new(Board::standard());
        let stones = [
            p(9, 9),
            p(10, 10),
            p(8, 8),
            p(9, 10),
            p(9, 8),
            p(11, 11),
            p(7, 7),
        ];
        for q in stones {
            pb.play(q).unwrap();
            assert_eq!(extract(&pb), extract_board(pb.board()));
        }
        pb.undo();
        assert_eq!(extract(&pb), extract_board(pb.board()));
    }

    /// Threats one stone of a class makes on its line: classes 10..=13 are `m` = 4 or 5 with one
    /// threat (even) or two or more (odd).
    fn class_threats(class: u8) -> u32 {
        match class {
            10 | 12 => 1,
            11 | 13 => 2,
            _ => 0,
        }
    }

    /// The road and point counts as first written: a branch per window, two lookups and a
    /// class decode per key. The histogram and packed versions above must count the same.
    fn counts_by_definition(pb: &PatternBoard) -> ([[u32; 6]; 2], [[u32; 4]; 2]) {
        let mut roads = [[0u32; 6]; 2];
        for &[b, w] in pb.windows().counts() {
            if w == 0 && b > 0 {
                roads[0][(b as usize).min(5)] += 1;
            } else if b == 0 && w > 0 {
                roads[1][(w as usize).min(5)] += 1;
            }
        }
        let mut points = [[0u32; 4]; 2];
        for cell in (0..pb.geometry().area()).filter(|&c| !pb.is_occupied(c)) {
            let (mut threes, mut threats) = ([0u32; 2], [0u32; 2]);
            for dir in 0..4 {
                for c in 0..2 {
                    let (own, _) = shape::shape_for(pb.key(cell, dir), c);
                    threes[c] += u32::from((7..OWN_SIX).contains(&own));
                    threats[c] += class_threats(own);
                }
            }
            for c in 0..2 {
                points[c][0] += u32::from(threes[c] >= 1 && threats[c] == 0);
                points[c][1] += u32::from(threes[c] >= 2);
                points[c][2] += u32::from(threats[c] >= 1);
                points[c][3] += u32::from(threats[c] >= 2);
            }
        }
        (roads, points)
    }

    /// One line's fields by the definition: Black's in the low byte, White's above.
    fn line_fields_by_definition(both: u16) -> u32 {
        (0..2)
            .map(|c| {
                let own = (both >> (8 * c)) as u8 & 15;
                let three = u32::from((7..OWN_SIX).contains(&own));
                (three << THREE_BITS | class_threats(own) << THREAT_BITS) << (8 * c)
            })
            .sum()
    }

    #[test]
    fn packed_point_fields_sum_the_four_lines_by_the_definition() {
        // Every class pair alone on each line, then random words (all sixteen classes, opp
        // nibbles included, which must not count).
        for both in 0..=u16::MAX {
            for dir in 0..4 {
                let packed = u64::from(both) << (16 * dir);
                assert_eq!(
                    u32::from(point_fields(packed)),
                    line_fields_by_definition(both)
                );
            }
        }
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..100_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let expected: u32 = (0..4)
                .map(|d| line_fields_by_definition((x >> (16 * d)) as u16))
                .sum();
            assert_eq!(u32::from(point_fields(x)), expected, "{x:#018x}");
        }
    }

    #[test]
    fn tabled_logarithms_are_the_computed_ones() {
        for n in (0..2_000).chain([u32::MAX]) {
            assert_eq!(
                ln_1p_count(n).to_bits(),
                f64::ln_1p(f64::from(n)).to_bits(),
                "{n}"
            );
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config::with_cases(64))]
        /// Random games of up to 60 stones packed in a 9x9 corner of the board (crowded lines,
        /// fours and sixes included): the window histogram and the point fields count as the
        /// definition does after every stone, from a pattern board and from a feature board's
        /// cached shapes (and the two agree while the stones are taken back).
        #[test]
        fn packed_roads_and_points_count_as_the_definition(
            cells in proptest::collection::vec((0u8..9, 0u8..9), 1..60)
        ) {
            let mut pb = PatternBoard::new(Board::standard());
            // The search's boards: the same features from the cached line shapes.
            let mut fb = FeatureBoard::new(&Board::standard());
            for (c, r) in cells {
                if pb.board().is_over() || pb.play(p(c, r)).is_err() {
                    continue;
                }
                fb.play(p(c, r)).unwrap();
                let (roads, points) = counts_by_definition(&pb);
                proptest::prop_assert_eq!(road_counts(pb.windows().pair_histogram()), roads);
                proptest::prop_assert_eq!(empty_cell_points(&pb, &mut |_, _| {}), points);
                proptest::prop_assert_eq!(empty_cell_points(&fb, &mut |_, _| {}), points);
                proptest::prop_assert_eq!(extract(&fb), extract(&pb));
            }
            while fb.undo().is_some() {
                pb.undo();
                proptest::prop_assert_eq!(extract(&fb), extract(&pb));
                proptest::prop_assert_eq!(extract(&fb), extract_board(pb.board()));
            }
        }
    }
}
