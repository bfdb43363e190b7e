//! The Connect6 protocol over pipes in its three dialects (protocols.md §2): Cloudict (stateful,
//! `move` per turn), ConnectMore (stateless replay with `new` / `black` / `white` / `next`) and the
//! SAU platform (`name?`, top-left letters, `JJ@@`). The test keeps its own board, checks that
//! every engine turn is legal and well formed, and that stdout carries only `move`/`name` lines.

mod common;

use common::{fast_config, Session};
use liuzi::notation::{format_c6_stone, parse_c6_stone, LetterOrder};
use liuzi::rules::{Board, Color, Point, Stage};

/// Reads an engine reply `move T` and plays it on `board`; returns the stones.
fn take_engine_turn(
    reply: &str,
    board: &mut Board,
    order: LetterOrder,
    placeholder: bool,
) -> Vec<Point> {
    let token = reply
        .strip_prefix("move ")
        .unwrap_or_else(|| panic!("expected `move …`, got {reply:?}"));
    let opening = board.stone_count() == 0;
    let (letters, expect_stones) = if opening {
        if placeholder {
            (
                token.strip_suffix("@@").expect("SAU opening ends with @@"),
                1,
            )
        } else {
            (token, 1)
        }
    } else {
        (token, 2)
    };
    assert_eq!(letters.len(), 2 * expect_stones, "token {token:?}");
    let colour = board.to_move();
    let mut stones = Vec::new();
    for i in 0..expect_stones {
        let p = parse_c6_stone(&letters[2 * i..2 * i + 2], 19, order).expect("a point");
        if board.is_over() {
            break; // the first stone won; the second only fills the token
        }
        board
            .play_as(colour, p)
            .unwrap_or_else(|e| panic!("engine stone {p:?}: {e}"));
        stones.push(p);
    }
    assert!(board.stage() == Stage::First || board.is_over());
    stones
}

/// The opponent's next turn: it blocks the engine's six-threats, otherwise it takes empty
/// points 7 apart in index order, so its stones stay scattered and it never makes six (the
/// engine would then have nothing to answer) and the engine (a real search) does not win
/// within the few turns the tests play.
fn opponent_turn(board: &mut Board) -> Vec<Point> {
    let n = if board.stone_count() == 0 { 1 } else { 2 };
    let mut stones = Vec::new();
    while stones.len() < n {
        let block = liuzi::patterns::blocking_points(board).points(19).next();
        let p = block.unwrap_or_else(|| {
            (0..361)
                .map(|k| Point::from_index(k * 7 % 361, 19))
                .find(|&p| board.is_empty_at(p))
                .expect("an empty point")
        });
        board
            .play(p)
            .unwrap_or_else(|e| panic!("{e} at {p:?} after {:?}", board.history()));
        stones.push(p);
    }
    assert!(
        !board.is_over(),
        "the test's opponent must not end the game"
    );
    stones
}

fn token(stones: &[Point], order: LetterOrder) -> String {
    stones
        .iter()
        .map(|&p| format_c6_stone(p, 19, order))
        .collect()
}

#[test]
fn cloudict_engine_as_white_then_black() {
    let order = LetterOrder::Cloudict;
    let mut s = Session::start(&["c6", "--config", &fast_config()]);
    s.send_str("name");
    assert_eq!(s.read_line(), "name Liuzi");
    s.send_str("depth 2");
    s.send_str("vcf");
    s.send_str("new white");
    let mut board = Board::standard();
    board.play(Point::new(9, 9)).unwrap();
    s.send_str("move JJ");
    take_engine_turn(&s.read_line(), &mut board, order, false);
    // Bad input (early, while the game surely goes on: the engine is a real search and may win
    // soon): messages on stderr only, state unchanged (the next good move still fits).
    let occupied = token(&[Point::new(9, 9), Point::new(0, 0)], order);
    for bad in [
        "move ZZZZ",
        &format!("move {occupied}"),
        "move JJ",
        "move",
        "new",
        "fly away",
        "print",
    ] {
        s.send_str(bad);
    }
    s.send(b"move \xff\xfe");
    for _ in 0..6 {
        if board.is_over() {
            break;
        }
        let ours = opponent_turn(&mut board);
        s.send_str(&format!("move {}", token(&ours, order)));
        take_engine_turn(&s.read_line(), &mut board, order, false);
    }

    // A new game as Black: the engine answers `new black` at once.
    s.send_str("new black");
    let mut board = Board::standard();
    take_engine_turn(&s.read_line(), &mut board, order, false);
    assert_eq!(board.stone_count(), 1);
    for _ in 0..4 {
        if board.is_over() {
            break;
        }
        let ours = opponent_turn(&mut board);
        s.send_str(&format!("move {}", token(&ours, order)));
        take_engine_turn(&s.read_line(), &mut board, order, false);
    }
    s.send_str("quit");
    let (rest, ok) = s.finish();
    assert!(ok);
    assert!(rest.is_empty(), "unexpected stdout: {rest:?}");
}

#[test]
fn connectmore_stateless_replay() {
    // ConnectMore resends the whole game before every engine turn: `new xxx`, every earlier
    // turn as `black`/`white` (Black's opening doubled, `black JJJJ`), then `next`.
    let order = LetterOrder::Cloudict;
    let mut s = Session::start(&["c6", "--config", &fast_config()]);
    s.send_str("name");
    assert_eq!(s.read_line(), "name Liuzi");
    s.send_str("depth 4");
    s.send_str("unvcf");
    let mut board = Board::standard();
    let mut turns: Vec<(Color, Vec<Point>)> = Vec::new();
    // The human is Black and opens; the engine plays White.
    for _ in 0..8 {
        let colour = board.to_move();
        let stones = opponent_turn(&mut board);
        turns.push((colour, stones));
        s.send_str("new xxx");
        for (i, (colour, stones)) in turns.iter().enumerate() {
            let mut t = token(stones, order);
            if i == 0 {
                t = t.repeat(2);
            }
            s.send_str(&format!("{} {t}", colour.name()));
        }
        s.send_str("next");
        let engine_colour = board.to_move();
        let stones = take_engine_turn(&s.read_line(), &mut board, order, false);
        turns.push((engine_colour, stones));
        if board.is_over() {
            break;
        }
    }
    let (rest, ok) = s.finish(); // ConnectMore never sends quit: EOF must end the engine cleanly
    assert!(ok);
    assert!(rest.is_empty(), "unexpected stdout: {rest:?}");
}

#[test]
fn sau_platform_with_placeholder() {
    let order = LetterOrder::Sau;
    let args = [
        "c6",
        "--letters",
        "sau",
        "--sau-placeholder",
        "--config",
        &fast_config(),
    ];
    let mut s = Session::start(&args);
    s.send_str("name?");
    assert_eq!(s.read_line(), "name Liuzi");
    s.send_str("new black");
    let mut board = Board::standard();
    let reply = s.read_line();
    assert!(reply.ends_with("@@"), "{reply}");
    take_engine_turn(&reply, &mut board, order, true);
    for _ in 0..5 {
        if board.is_over() {
            break;
        }
        let ours = opponent_turn(&mut board);
        s.send_str(&format!("move {}", token(&ours, order)));
        take_engine_turn(&s.read_line(), &mut board, order, true);
    }
    s.send_str("end black");
    // The engine as White: the platform's opening stone comes as `JJ@@` (or plain `JJ`).
    for opening in ["move JJ@@", "move JJ"] {
        s.send_str("new white");
        let mut board = Board::standard();
        board.play(Point::new(9, 9)).unwrap();
        s.send_str(opening);
        take_engine_turn(&s.read_line(), &mut board, order, true);
        // The SAU reading puts row A at the top: AA is the top-left corner.
        let corner = Point::new(0, 18);
        assert!(board.is_empty_at(corner));
        let mut second = Point::new(1, 18);
        if !board.is_empty_at(second) {
            second = Point::new(2, 18);
        }
        board.play(corner).unwrap();
        board.play(second).unwrap();
        s.send_str(&format!("move {}", token(&[corner, second], order)));
        assert!(token(&[corner], order) == "AA");
        take_engine_turn(&s.read_line(), &mut board, order, true);
        s.send_str("error");
        s.send_str("end");
    }
    s.send_str("quit");
    let (rest, ok) = s.finish();
    assert!(ok);
    assert!(rest.is_empty(), "unexpected stdout: {rest:?}");
}
