//! The command storm GoGui's ruler receives (protocols.md §1.5): the workload of
//! [`super::ruler`] (`liuzi bench ruler`) and of the GTP storm integration test.
//!
//! In one observed 235-stone game the ruler got 1,272 `clear_board`, 67,520 `play`, 69,423
//! `gogui-rules_side_to_move`, 1,694 `gogui-rules_board` and 1,271 `gogui-rules_legal_moves`:
//! GoGui replays the game from `clear_board` again and again, asking the side to move after
//! every stone. [`ruler_storm`] rebuilds that mix: `replays` replays of growing prefixes of a
//! 235-stone game (the prefix length grows with the cube of the replay number, which gives the
//! observed ~56 stones per replay on average and ends with full replays), each followed by
//! `gogui-rules_board` and `gogui-rules_legal_moves`, and every tenth one by the last stone sent
//! again (GoGui does that; the answer must be `? illegal move`).

use crate::notation;
use crate::rules::{Board, Point};

/// A deterministic game of `stones` stones in which nobody makes six (so it never ends early),
/// on a board of `size`.
pub fn long_game(stones: usize, size: usize) -> Vec<Point> {
    let mut board = Board::new(size).expect("valid size");
    let mut state = 0x5EED_1234_u64;
    let mut game = Vec::with_capacity(stones);
    while game.len() < stones {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let p = Point::from_index((state >> 33) as usize % board.area(), size);
        if board.is_empty_at(p) && !board.makes_six(p, board.to_move()) {
            board.play(p).expect("empty point on an ongoing board");
            game.push(p);
        }
        assert!(
            game.len() < board.area(),
            "board too small for {stones} stones"
        );
    }
    game
}

/// Prefix length of replay `r` of `replays` for a game of `len` stones (at least 1).
pub fn prefix_len(r: usize, replays: usize, len: usize) -> usize {
    let x = (r + 1) as f64 / replays as f64;
    ((len as f64 * x * x * x).ceil() as usize).clamp(1, len)
}

/// The storm's commands, one per line, for `game` replayed `replays` times.
pub fn ruler_storm(game: &[Point], replays: usize) -> Vec<String> {
    let mut commands = Vec::new();
    for r in 0..replays {
        commands.push("clear_board".to_string());
        let len = prefix_len(r, replays, game.len());
        for (n, &p) in game[..len].iter().enumerate() {
            let colour = Board::color_of_stone(n).letter();
            commands.push(format!("play {colour} {}", notation::format_gtp(p)));
            commands.push("gogui-rules_side_to_move".to_string());
        }
        commands.push("gogui-rules_board".to_string());
        commands.push("gogui-rules_legal_moves".to_string());
        if r % 10 == 9 {
            let n = len - 1;
            let colour = Board::color_of_stone(n).letter();
            commands.push(format!("play {colour} {}", notation::format_gtp(game[n])));
        }
    }
    commands
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_storm_has_the_observed_shape() {
        let game = long_game(235, 19);
        let mut board = Board::standard();
        for &p in &game {
            board.play(p).unwrap();
        }
        assert!(!board.is_over());
        let storm = ruler_storm(&game, 1200);
        let count = |prefix: &str| storm.iter().filter(|c| c.starts_with(prefix)).count();
        assert_eq!(count("clear_board"), 1200);
        let plays = count("play");
        assert!((60_000..80_000).contains(&plays), "{plays}");
        assert!((130_000..160_000).contains(&storm.len()), "{}", storm.len());
        assert_eq!(prefix_len(1199, 1200, 235), 235);
        assert_eq!(prefix_len(0, 1200, 235), 1);
    }
}
