use super::symmetry::Symmetry;
use super::*;
use crate::artifact::ErrorKind;
use crate::notation::parse_games;
use crate::records::{games::parse_line, GameRecord};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

fn record(line: &str) -> GameRecord {
    parse_line(line).unwrap()
}

fn pt(s: &str) -> Point {
    parse_games(s, 19).unwrap()
}

fn board_of(stones: &[&str]) -> Board {
    let mut b = Board::new(19).unwrap();
    for s in stones {
        b.play(pt(s)).unwrap();
    }
    b
}

/// Six games: White answers the centre beside it four times (in four orientations of one
/// shape), far away twice; Black's reply to the first shape twice the same.
fn sample_records() -> Vec<GameRecord> {
    [
        "B\tj10 i10-j11 k10-k9",
        "W\tj10 k10-j9 i10-i11",
        "B\tj10 j11-k10",
        "W\tj10 i10-j9",
        "B\tj10 c3-d4",
        "W\tj10 c3-d4",
    ]
    .iter()
    .map(|l| record(l))
    .collect()
}

fn sample_book(min_games: u32) -> OpeningBook {
    let options = BuildOptions {
        size: 19,
        turns: 2,
        min_games,
    };
    build(&sample_records(), options, "test records").0
}

#[test]
fn a_shape_played_in_any_orientation_is_one_book_turn() {
    let book = sample_book(1);
    let moves = book.moves(&board_of(&["j10"]));
    // i10-j11, k10-j9, j11-k10, i10-j9: one shape (two neighbours at a right angle) around
    // the centre, so one turn with four games; and the far pair with two.
    assert_eq!(moves.len(), 2, "{moves:?}");
    let near = moves.iter().find(|m| m.games == 4).expect("the near shape");
    assert_eq!(near.wins, 2, "White won two of the four");
    for p in near.pair {
        assert_eq!(p.distance(pt("j10")), 1);
    }
    let far = moves.iter().find(|m| m.games == 2).expect("the far pair");
    assert_eq!(far.wins, 1);
    // A threshold drops turns played too rarely.
    assert_eq!(sample_book(3).moves(&board_of(&["j10"])).len(), 1);
}

#[test]
fn a_position_is_found_in_every_orientation_and_answered_in_it() {
    let book = sample_book(1);
    // Black's reply after i10-j11 (game 1: k10-k9) and after k10-j9 (game 2: i10-i11), which
    // is the same position turned: one turn of two games.
    for s in Symmetry::all() {
        let turn = |p: &str| s.apply(pt(p), 19);
        let mut board = Board::new(19).unwrap();
        for p in ["j10", "i10", "j11"] {
            board.play(turn(p)).unwrap();
        }
        let moves = book.moves(&board);
        assert_eq!(moves.len(), 1, "{s:?}: {moves:?}");
        assert_eq!(moves[0].games, 2);
        // The position is symmetric itself (White's two stones mirror across a diagonal),
        // so the reply may come as either mirror image: compare the positions it makes.
        let after = |pair: [Point; 2]| {
            let mut b = board.clone();
            for p in pair {
                b.play(p).unwrap();
            }
            let (mut black, mut white) = (Vec::new(), Vec::new());
            for (n, &p) in b.history().iter().enumerate() {
                match Board::color_of_stone(n) {
                    crate::rules::Color::Black => black.push(p),
                    crate::rules::Color::White => white.push(p),
                }
            }
            super::symmetry::canonical(&black, &white, 19).0
        };
        assert_eq!(
            after(moves[0].pair),
            after([turn("k10"), turn("k9")]),
            "{s:?}: game 1's reply, turned with the board"
        );
    }
}

#[test]
fn no_book_turn_mid_turn_off_book_or_on_another_size() {
    let book = sample_book(1);
    assert!(
        book.moves(&board_of(&["j10", "i10"])).is_empty(),
        "half a turn"
    );
    assert!(
        book.moves(&board_of(&["j10", "a1", "a2"])).is_empty(),
        "off the book"
    );
    assert!(book.moves(&Board::new(15).unwrap()).is_empty());
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    assert_eq!(
        book.choose(&board_of(&["j10", "i10"]), 1, 0, &mut rng),
        None
    );
}

#[test]
fn a_position_off_the_centre_plays_the_book_shifted_unless_near_an_edge() {
    let book = sample_book(1);
    let shift = |p: Point, dc: i32, dr: i32| {
        Point::new((p.col as i32 + dc) as u8, (p.row as i32 + dr) as u8)
    };
    // The centre stone two lines up and right: exact lookup misses, a shift of 2 finds it.
    assert!(book.moves(&board_of(&["l12"])).is_empty());
    assert!(
        book.moves_shifted(&board_of(&["l12"]), 1).is_empty(),
        "too far"
    );
    let moves = book.moves_shifted(&board_of(&["l12"]), 2);
    let at_centre = book.moves(&board_of(&["j10"]));
    assert_eq!(moves.len(), at_centre.len());
    for (m, c) in moves.iter().zip(&at_centre) {
        assert_eq!(
            m.pair,
            c.pair.map(|p| shift(p, 2, 2)),
            "moved with the stone"
        );
        assert_eq!((m.games, m.wins), (c.games, c.wins));
    }
    // Black's reply to a whole turn, played a line off: the same turn, a line off.
    let played = ["j10", "i10", "j11"].map(|s| shift(pt(s), 1, -1));
    let mut board = Board::new(19).unwrap();
    for p in played {
        board.play(p).unwrap();
    }
    let moves = book.moves_shifted(&board, 3);
    let exact = book.moves(&board_of(&["j10", "i10", "j11"]));
    assert_eq!(moves.len(), 1);
    assert_eq!(moves[0].pair, exact[0].pair.map(|p| shift(p, 1, -1)));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
    assert_eq!(book.choose(&board, 1, 0, &mut rng), None);
    assert_eq!(book.choose(&board, 1, 3, &mut rng), Some(moves[0].pair));
    // A stone within five lines of an edge keeps the exact lookup only: f10 (five lines in)
    // matches the centre four columns away (the near turn only: the far pair would land off
    // the board), e10 (four in) does not.
    let moves = book.moves_shifted(&board_of(&["f10"]), 4);
    assert_eq!(moves.len(), 1);
    assert!(moves[0].pair.iter().all(|&p| p.distance(pt("f10")) == 1));
    assert!(book.moves_shifted(&board_of(&["e10"]), 9).is_empty());
}

#[test]
fn choices_follow_the_games_and_a_seed_repeats_them() {
    let book = sample_book(1);
    let board = board_of(&["j10"]);
    let draw = |seed| {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        (0..600)
            .map(|_| book.choose(&board, 1, 0, &mut rng).unwrap())
            .collect::<Vec<_>>()
    };
    let picks = draw(7);
    assert_eq!(picks, draw(7));
    let far = picks
        .iter()
        .filter(|pair| pair.iter().any(|p| p.distance(pt("j10")) > 1))
        .count();
    // 2 games in 6: a third of the draws, within a wide margin.
    assert!((140..260).contains(&far), "{far} of 600 far");
    // With the threshold above the far pair's games, only the near one is drawn.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    for _ in 0..50 {
        let pair = book.choose(&board, 3, 0, &mut rng).unwrap();
        assert!(pair.iter().all(|p| p.distance(pt("j10")) == 1));
    }
    assert_eq!(book.choose(&board, 5, 0, &mut rng), None);
}

#[test]
fn the_file_round_trips_and_bad_files_name_the_problem() {
    let book = sample_book(1);
    let text = book.to_text();
    let back = OpeningBook::parse(text.as_bytes()).unwrap();
    assert_eq!(back.to_text(), text);
    assert_eq!(back.moves(&board_of(&["j10"])).len(), 2);
    assert_eq!(back.source(), "test records");

    let corrupt = |edit: &dyn Fn(&str) -> String| -> String {
        // Re-checksummed, so that the payload's own check is what fails.
        let payload: String = text
            .lines()
            .skip(2)
            .filter(|l| !l.starts_with("checksum"))
            .map(|l| format!("{l}\n"))
            .collect();
        let edited = crate::artifact::Format {
            noun: "book file",
            magic: "liuzi-book",
            version: BOOK_FORMAT_VERSION,
        }
        .compose("liuzi-book:v1", &edit(&payload));
        match OpeningBook::parse(edited.as_bytes()) {
            Err(ErrorKind::Corrupt(m)) => m,
            other => panic!("expected a corrupt file, got {other:?}"),
        }
    };
    let m = corrupt(&|p| p.replacen("size 19", "size 99", 1));
    assert!(m.contains("board size"), "{m}");
    let m = corrupt(&|p| format!("{p}move j10 - z99-j11 3 1\n"));
    assert!(m.contains("line") && m.contains("z99"), "{m}");
    let m = corrupt(&|p| format!("{p}move j10 - j10-j11 3 1\n"));
    assert!(m.contains("twice"), "{m}");
    let m = corrupt(&|p| format!("{p}move j10 - i10-j11 3 4\n"));
    assert!(m.contains("win count"), "{m}");
    let m = corrupt(&|p| format!("{p}move j10 - s19-s18 3 1\n"));
    assert!(m.contains("canonical"), "{m}");
    let first_move = payload_line(&text);
    let m = corrupt(&|p| format!("{p}{first_move}\n"));
    assert!(m.contains("again"), "{m}");
    let m = corrupt(&|p| format!("{p}move j10 i10 k10-k11 3 1\n"));
    assert!(m.contains("start of a turn"), "{m}");
    // A flipped byte fails the checksum.
    let flipped = text.replacen("move", "mOve", 1);
    assert!(matches!(
        OpeningBook::parse(flipped.as_bytes()),
        Err(ErrorKind::Corrupt(_))
    ));
}

/// The file's first `move` line.
fn payload_line(text: &str) -> String {
    text.lines()
        .find(|l| l.starts_with("move "))
        .unwrap()
        .to_string()
}

#[test]
fn records_that_do_not_replay_or_are_of_another_size_are_skipped() {
    let mut records = sample_records();
    let mut small = GameRecord::new(15);
    small.stones = vec![Point::new(7, 7), Point::new(6, 7), Point::new(8, 7)];
    records.push(small);
    let options = BuildOptions {
        size: 19,
        turns: 2,
        min_games: 1,
    };
    let (_, stats) = build(&records, options, "");
    assert_eq!(stats.games_used, 6);
    assert_eq!(stats.games_skipped, 1);
}
