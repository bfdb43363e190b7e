//! Threat counts, winning and blocking points on hand-made positions, and the incremental pattern
//! state against from-scratch recomputation and brute force over random play with undos.

use liuzi::notation::parse_games;
use liuzi::patterns::{self, CellSet, PatternBoard, ThreatWindows};
use liuzi::rules::{Board, Color, Point, WIN_LENGTH};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

fn replay(size: usize, moves: &str) -> Board {
    let mut b = Board::new(size).unwrap();
    for stone in moves.split([' ', '-']).filter(|s| !s.is_empty()) {
        b.play(parse_games(stone, size).unwrap()).unwrap();
    }
    b
}

fn names(set: CellSet, size: usize) -> Vec<String> {
    let mut v: Vec<String> = set
        .points(size)
        .map(liuzi::notation::format_games)
        .collect();
    v.sort();
    v
}

#[test]
fn open_five_needs_two_blocks() {
    // Black: j10 k10 l10 m10 n10 (five on row 10), White scattered far away; White to move.
    let b = replay(19, "j10 a1-a3 k10-l10 a5-a7 m10-n10");
    assert_eq!(b.to_move(), Color::White);
    assert_eq!(patterns::threat_count(&b, Color::Black), 2);
    assert_eq!(patterns::threat_count(&b, Color::White), 0);
    assert_eq!(names(patterns::blocking_points(&b), 19), ["i10", "o10"]);
    assert!(patterns::winning_points(&b).is_empty());
}

#[test]
fn four_with_one_side_closed_is_one_threat_with_two_ways_to_block() {
    // Black k10 l10 m10 n10, White on j10: the windows k..p and l..q remain.
    let b = replay(19, "k10 j10-a1 l10-m10 a3-a5 n10-a19 a17-a15");
    assert_eq!(b.to_move(), Color::Black);
    // Black to move (first stone of a turn) wins on o10+p10.
    // Only the window k..p holds four (l..q holds three): o10 and p10 complete it.
    assert_eq!(names(patterns::winning_points(&b), 19), ["o10", "p10"]);
    let mut w = b.clone();
    w.play(Point::new(18, 18)).unwrap(); // Black's first stone elsewhere
    w.play(Point::new(18, 16)).unwrap(); // and its second
    assert_eq!(patterns::threat_count(&w, Color::Black), 1);
    assert_eq!(names(patterns::blocking_points(&w), 19), ["o10", "p10"]);
}

#[test]
fn second_stone_wins_only_with_five() {
    // Black has k10 l10 m10 n10 and plays o10 as first stone: the second stone wins on j10 or p10.
    let mut b = replay(19, "k10 a1-a3 l10-m10 a5-a7 n10-a19 a17-a15");
    b.play(parse_games("o10", 19).unwrap()).unwrap();
    assert_eq!(names(patterns::winning_points(&b), 19), ["j10", "p10"]);
}

#[test]
fn lines_sharing_a_blocking_cell_count_exactly() {
    // Black c10..f10 (b10 White) leaves the window c..h; Black g12..g15 leaves three windows on
    // column g. Counted per line that is 1 + 2 = 3 threats, but g10 serves both lines: 2.
    let b = replay(
        19,
        "c10 b10-s1 d10-e10 s3-s5 f10-g12 s7-s9 g13-g14 s11-s13 g15-a19 s17-s19 a17-a15",
    );
    assert_eq!(b.to_move(), Color::White);
    assert_eq!(patterns::threat_count(&b, Color::Black), 2);
    assert_eq!(names(patterns::blocking_points(&b), 19), ["g10", "g16"]);
}

/// Minimum hitting set of `attacker`'s threat windows by brute force over subsets of cells.
fn brute_threats(size: usize, get: &dyn Fn(Point) -> Option<Color>, attacker: Color) -> u32 {
    let mut windows: Vec<Vec<usize>> = Vec::new();
    for i in 0..size * size {
        let p = Point::from_index(i, size);
        for &(dc, dr) in liuzi::rules::DIRECTIONS.iter() {
            let cells: Option<Vec<Point>> = (0..WIN_LENGTH as i32)
                .map(|k| p.offset(dc, dr, k, size))
                .collect();
            let Some(cells) = cells else { continue };
            let mine = cells.iter().filter(|&&q| get(q) == Some(attacker)).count();
            let theirs = cells
                .iter()
                .filter(|&&q| get(q) == Some(attacker.opponent()))
                .count();
            if mine >= 4 && theirs == 0 {
                windows.push(
                    cells
                        .iter()
                        .filter(|&&q| get(q).is_none())
                        .map(|q| q.index(size))
                        .collect(),
                );
            }
        }
    }
    let mut cand: Vec<usize> = windows.iter().flatten().copied().collect();
    cand.sort();
    cand.dedup();
    (0..=4u32)
        .find(|&k| hits_with(&cand, &mut vec![0; k as usize], 0, 0, &windows))
        .unwrap_or(99)
}

fn hits_with(
    cand: &[usize],
    pick: &mut Vec<usize>,
    from: usize,
    n: usize,
    windows: &[Vec<usize>],
) -> bool {
    if n == pick.len() {
        return windows.iter().all(|w| w.iter().any(|c| pick.contains(c)));
    }
    (from..cand.len()).any(|i| {
        pick[n] = cand[i];
        hits_with(cand, pick, i + 1, n + 1, windows)
    })
}

/// Winning points by trying every stone (and, with two stones left, every pair): the stones that
/// are part of a six the side to move can complete this turn.
fn brute_wins(board: &Board) -> CellSet {
    let mut set = CellSet::new();
    let left = patterns::stones_left(board);
    let size = board.size();
    let me = board.to_move();
    for p in board.legal_points() {
        let wins = board.makes_six(p, me) || {
            left == 2 && {
                let mut b = board.clone();
                b.play(p).unwrap();
                let others: Vec<Point> = b.legal_points().collect();
                others.into_iter().any(|q| {
                    b.play(q).unwrap();
                    let six_through_p = b.makes_six(p, me);
                    b.undo();
                    six_through_p
                })
            }
        };
        if wins {
            set.insert(p.index(size));
        }
    }
    set
}

#[test]
fn incremental_state_matches_scratch_and_brute_force() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let size = 9;
    let mut positions_with_threats = 0;
    for _game in 0..40 {
        let mut pb = PatternBoard::new(Board::new(size).unwrap());
        for _step in 0..120 {
            let over = pb.board().is_over();
            if pb.board().stone_count() > 0 && (over || rng.gen_bool(0.25)) {
                pb.undo().unwrap();
            } else {
                let legal: Vec<Point> = pb.board().legal_points().collect();
                if legal.is_empty() {
                    break;
                }
                pb.play(legal[rng.gen_range(0..legal.len())]).unwrap();
            }
            let b = pb.board();
            assert_eq!(pb.keys(), &PatternBoard::keys_from_scratch(b)[..]);
            let scratch = patterns::ThreatWindows::from_board(b);
            assert_eq!(pb.windows().counts(), scratch.counts());
            let mut histogram = [0u32; 64];
            for &pair in scratch.counts() {
                histogram[patterns::pair_bin(pair)] += 1;
            }
            assert_eq!(pb.windows().pair_histogram(), &histogram);
            if b.is_over() {
                continue;
            }
            assert_eq!(pb.winning_points(), brute_wins(b), "{:?}", b.history());
            let them = b.to_move().opponent();
            let t = pb.threat_count(them);
            let get = |q: Point| b.get(q);
            assert_eq!(t.min(5), brute_threats(size, &get, them).min(5));
            assert_eq!(pb.blocking_points_and_threats(), (pb.blocking_points(), t));
            if t == 0 || t > 4 {
                continue;
            }
            positions_with_threats += 1;
            let expected: CellSet = b
                .legal_points()
                .filter(|&q| {
                    let with_q = |r: Point| {
                        if r == q {
                            Some(them.opponent())
                        } else {
                            b.get(r)
                        }
                    };
                    brute_threats(size, &with_q, them) + 1 == t
                })
                .map(|q| q.index(size))
                .collect();
            assert_eq!(pb.blocking_points(), expected, "{:?}", b.history());
        }
    }
    assert!(
        positions_with_threats > 200,
        "too few positions with threats: {positions_with_threats}"
    );
}

/// Empty cells of the windows holding at least `min` stones of `colour` and none of the other,
/// by scanning every window of the board.
fn brute_potential(board: &Board, colour: Color, min: usize) -> CellSet {
    let size = board.size();
    let mut set = CellSet::new();
    for i in 0..size * size {
        let p = Point::from_index(i, size);
        for &(dc, dr) in liuzi::rules::DIRECTIONS.iter() {
            let cells: Option<Vec<Point>> = (0..WIN_LENGTH as i32)
                .map(|k| p.offset(dc, dr, k, size))
                .collect();
            let Some(cells) = cells else { continue };
            let mine = cells
                .iter()
                .filter(|&&q| board.get(q) == Some(colour))
                .count();
            let theirs = cells
                .iter()
                .filter(|&&q| board.get(q) == Some(colour.opponent()))
                .count();
            if mine >= min && theirs == 0 {
                for q in cells.iter().filter(|&&q| board.get(q).is_none()) {
                    set.insert(q.index(size));
                }
            }
        }
    }
    set
}

#[test]
fn live_windows_potential_and_blocking_cells_match_brute_force() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    let size = 9;
    let mut with_threats = 0;
    for _game in 0..30 {
        let mut pb = PatternBoard::new(Board::new(size).unwrap());
        for _step in 0..80 {
            if pb.board().stone_count() > 0 && (pb.board().is_over() || rng.gen_bool(0.2)) {
                pb.undo().unwrap();
            } else {
                let legal: Vec<Point> = pb.board().legal_points().collect();
                pb.play(legal[rng.gen_range(0..legal.len())]).unwrap();
            }
            let b = pb.board();
            let w = pb.windows();
            for colour in [Color::Black, Color::White] {
                for min in 2..=4u8 {
                    let expected = brute_potential(b, colour, min as usize);
                    assert_eq!(w.potential_cells(b, colour, min), expected);
                    let mut live = 0;
                    for id in w.live_windows(colour, min) {
                        assert!(w.count(id, colour) >= min && w.count(id, colour.opponent()) == 0);
                        live += 1;
                    }
                    let expected_live = (0..w.counts().len())
                        .filter(|&id| {
                            w.count(id, colour) >= min && w.count(id, colour.opponent()) == 0
                        })
                        .count();
                    assert_eq!(live, expected_live);
                    assert_eq!(w.live_window_count(colour, min) as usize, live);
                    // The pattern board keeps only threat windows current and counts lower
                    // levels on demand; windows that keep every level agree with it.
                    let kept_all = ThreatWindows::from_board(b);
                    assert!(kept_all
                        .live_windows(colour, min)
                        .eq(w.live_windows(colour, min)));
                    assert_eq!(
                        kept_all.live_window_count(colour, min),
                        w.live_window_count(colour, min)
                    );
                }
                // Blocking cells for an explicit attacker, whoever is to move: the cells whose
                // stone lowers the attacker's exact threat count by one. (A finished six has no
                // empty cell to block.)
                if b.is_over() {
                    continue;
                }
                let t = w.threat_count(b, colour);
                if t == 0 || t > 4 {
                    assert!(t > 4 || w.blocking_cells(b, colour).is_empty());
                    continue;
                }
                with_threats += 1;
                let get = |q: Point| b.get(q);
                assert_eq!(t, brute_threats(size, &get, colour));
                let expected: CellSet = b
                    .points()
                    .filter(|&q| b.get(q).is_none())
                    .filter(|&q| {
                        let with_q = |r: Point| {
                            if r == q {
                                Some(colour.opponent())
                            } else {
                                b.get(r)
                            }
                        };
                        brute_threats(size, &with_q, colour) + 1 == t
                    })
                    .map(|q| q.index(size))
                    .collect();
                assert_eq!(w.blocking_cells(b, colour), expected, "{:?}", b.history());
            }
        }
    }
    assert!(
        with_threats > 100,
        "too few positions with threats: {with_threats}"
    );
}
