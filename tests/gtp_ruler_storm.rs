//! GoGui's ruler storm over pipes (protocols.md §1.5): a 235-stone game replayed from
//! `clear_board` 1,200 times with `gogui-rules_side_to_move` after every stone, the board and
//! legal moves after each replay, and now and then the last stone sent twice. Every reply is
//! checked against a reference board kept by the test.

mod common;

use common::{fast_config, run_liuzi};
use liuzi::bench::ruler_storm as storm;
use liuzi::notation;
use liuzi::rules::{Board, Color, Point};

fn expected_board(board: &Board) -> String {
    let size = board.size();
    let mut rows = Vec::new();
    for row in (0..size).rev() {
        let cells: Vec<&str> = (0..size)
            .map(|col| match board.get(Point::new(col as u8, row as u8)) {
                Some(Color::Black) => "X",
                Some(Color::White) => "O",
                None => ".",
            })
            .collect();
        rows.push(cells.join(" "));
    }
    rows.join("\n")
}

#[test]
fn every_reply_of_the_ruler_storm_is_right() {
    let game = storm::long_game(235, 19);
    let commands = storm::ruler_storm(&game, 1200);
    assert!(commands.len() > 100_000);
    let mut input = commands.join("\n");
    input.push('\n');
    let run = run_liuzi(&["gtp", "--config", &fast_config()], input.as_bytes());
    assert!(run.success, "{}", run.stderr);
    assert!(run.stdout.ends_with("\n\n"));
    let replies: Vec<&str> = run.stdout.split_terminator("\n\n").collect();
    assert_eq!(replies.len(), commands.len());

    let mut board = Board::standard();
    let mut refused = 0;
    for (i, (command, reply)) in commands.iter().zip(&replies).enumerate() {
        let expected = match command.split_whitespace().collect::<Vec<_>>()[..] {
            ["clear_board"] => {
                board.clear();
                "=".to_string()
            }
            ["play", colour, vertex] => {
                let p = notation::parse_gtp(vertex, 19).unwrap();
                let colour = Color::parse(colour).unwrap();
                match board.play_as(colour, p) {
                    Ok(()) => "=".to_string(),
                    Err(_) => {
                        refused += 1;
                        "? illegal move".to_string()
                    }
                }
            }
            ["gogui-rules_side_to_move"] => format!("= {}", board.to_move()),
            ["gogui-rules_board"] => format!("= {}", expected_board(&board)),
            ["gogui-rules_legal_moves"] => {
                let moves: Vec<String> = board.legal_points().map(notation::format_gtp).collect();
                format!("= {}", moves.join(" "))
            }
            _ => panic!("unexpected storm command {command}"),
        };
        assert_eq!(*reply, expected, "command {i}: {command}");
    }
    assert_eq!(refused, 120, "every tenth replay resends its last stone");
    assert_eq!(board.stone_count(), 235);
}
