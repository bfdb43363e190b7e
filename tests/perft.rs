//! Perft: legal stone sequences and distinct positions a few stones deep on small boards, counted
//! with `Board` (incremental play/undo, win detection on the new stone's lines, Zobrist hash) and
//! recounted by a naive from-scratch implementation written here independently.

use liuzi::rules::{Board, Point};
use std::collections::HashMap;

/// Naive Connect6: cells only; turn, colour and game end recomputed from scratch every time.
#[derive(Clone)]
struct Naive {
    size: usize,
    /// 0 empty, 1 black, 2 white.
    cells: Vec<u8>,
    stones: usize,
}

impl Naive {
    fn new(size: usize) -> Naive {
        Naive {
            size,
            cells: vec![0; size * size],
            stones: 0,
        }
    }

    /// Turn t (0 = Black's single opening stone, then two stones a turn); even turns are Black's.
    fn colour_of(n: usize) -> u8 {
        let turn = if n == 0 { 0 } else { n.div_ceil(2) };
        if turn % 2 == 0 {
            1
        } else {
            2
        }
    }

    fn has_six(&self, colour: u8) -> bool {
        let n = self.size as i32;
        let at = |c: i32, r: i32| {
            c >= 0 && r >= 0 && c < n && r < n && self.cells[(r * n + c) as usize] == colour
        };
        for r in 0..n {
            for c in 0..n {
                for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                    if (0..6).all(|k| at(c + k * dc, r + k * dr)) {
                        return true;
                    }
                }
            }
        }
        false
    }

    fn over(&self) -> bool {
        self.has_six(1) || self.has_six(2) || self.stones == self.cells.len()
    }

    fn legal(&self) -> Vec<usize> {
        if self.over() {
            return Vec::new();
        }
        (0..self.cells.len())
            .filter(|&i| self.cells[i] == 0)
            .collect()
    }

    fn play(&mut self, i: usize) {
        self.cells[i] = Naive::colour_of(self.stones);
        self.stones += 1;
    }

    /// The position as (black bitmask, white bitmask); boards up to 8x8.
    fn key(&self) -> (u64, u64) {
        let mut key = (0u64, 0u64);
        for (i, &c) in self.cells.iter().enumerate() {
            match c {
                1 => key.0 |= 1 << i,
                2 => key.1 |= 1 << i,
                _ => {}
            }
        }
        key
    }
}

fn perft_board(
    board: &mut Board,
    depth: usize,
    counts: &mut [u64],
    seen: &mut HashMap<u64, (u64, u64)>,
    naive: &Naive,
) {
    let key = naive.key();
    let previous = seen.insert(board.hash(), key);
    assert!(
        previous.is_none() || previous == Some(key),
        "hash collision or path-dependent hash"
    );
    counts[0] += 1;
    if depth == 0 {
        return;
    }
    let moves: Vec<Point> = board.legal_points().collect();
    for p in moves {
        board.play(p).unwrap();
        let mut child = naive.clone();
        child.play(p.index(board.size()));
        perft_board(board, depth - 1, &mut counts[1..], seen, &child);
        board.undo().unwrap();
    }
}

fn perft_naive(
    pos: &Naive,
    depth: usize,
    counts: &mut [u64],
    keys: &mut std::collections::HashSet<(u64, u64)>,
) {
    keys.insert(pos.key());
    counts[0] += 1;
    if depth == 0 {
        return;
    }
    for i in pos.legal() {
        let mut child = pos.clone();
        child.play(i);
        perft_naive(&child, depth - 1, &mut counts[1..], keys);
    }
}

/// Compares both counts from the position after `opening` (stones by flat index).
fn compare(size: usize, opening: &[usize], depth: usize) -> Vec<u64> {
    let mut board = Board::new(size).unwrap();
    let mut naive = Naive::new(size);
    for &i in opening {
        board.play(Point::from_index(i, size)).unwrap();
        naive.play(i);
    }
    assert_eq!(board.is_over(), naive.over());
    let mut counts = vec![0; depth + 1];
    let mut seen = HashMap::new();
    perft_board(&mut board, depth, &mut counts, &mut seen, &naive);
    let mut naive_counts = vec![0; depth + 1];
    let mut keys = std::collections::HashSet::new();
    perft_naive(&naive, depth, &mut naive_counts, &mut keys);
    assert_eq!(
        counts, naive_counts,
        "sequence counts per depth, {size}x{size} after {opening:?}"
    );
    assert_eq!(
        seen.len(),
        keys.len(),
        "distinct positions by hash vs by stone sets"
    );
    assert_eq!(
        board.history().len(),
        opening.len(),
        "undo restored the start"
    );
    counts
}

#[test]
fn empty_small_boards() {
    // From an empty board nothing can end the game this early: n, n(n-1), ...
    let c6 = compare(6, &[], 4);
    assert_eq!(c6, vec![1, 36, 36 * 35, 36 * 35 * 34, 36 * 35 * 34 * 33]);
    let c7 = compare(7, &[], 3);
    assert_eq!(c7, vec![1, 49, 49 * 48, 49 * 48 * 47]);
}

#[test]
fn positions_where_games_end() {
    // 6x6: Black has a1-e1 and is to play: f1 wins at once, ending that line of play.
    // a1 | W f6 e6 | B b1 c1 | W f5 e5 | B d1 e1 | W a6 b6 | Black to move.
    let size = 6;
    let idx = |c: usize, r: usize| r * size + c;
    let opening = [
        idx(0, 0),
        idx(5, 5),
        idx(4, 5),
        idx(1, 0),
        idx(2, 0),
        idx(5, 4),
        idx(4, 4),
        idx(3, 0),
        idx(4, 0),
        idx(0, 5),
        idx(1, 5),
    ];
    let counts = compare(size, &opening, 3);
    assert_eq!(counts[1], 25);
    // f1 first ends the game; after any other first stone 24 second stones remain.
    assert_eq!(counts[2], 24 * 24);
    assert!(
        counts[3] < 24 * 24 * 23,
        "games that ended on f1 stop: {counts:?}"
    );

    // 7x7 mid-game positions from a fixed pseudo-random game, several depths.
    let mut state = 99u64;
    let mut board = Board::new(7).unwrap();
    let mut game = Vec::new();
    while game.len() < 30 && !board.is_over() {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let i = (state >> 33) as usize % 49;
        if board.is_empty_at(Point::from_index(i, 7)) {
            board.play(Point::from_index(i, 7)).unwrap();
            game.push(i);
        }
    }
    for cut in [20, 25, game.len() - 1] {
        compare(7, &game[..cut], 3);
    }
}
