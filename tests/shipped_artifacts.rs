//! The shipped artifact files keep loading, and writing what was loaded gives the same bytes:
//! a change to the file code that altered either format would show here.

use liuzi::eval::Evaluator;
use liuzi::policy::Gammas;
use std::path::{Path, PathBuf};

fn shipped(name: &str) -> (PathBuf, Vec<u8>) {
    // The eight-group one-section weights are test data, not shipped; the format is the same.
    let dir = if name == "cross.weights" {
        "tests/data"
    } else {
        "engine-config"
    };
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir).join(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    (path, bytes)
}

#[test]
fn shipped_weights_rewrite_to_the_same_bytes() {
    // The two-section default (playout gammas and tree priors) and the one-section cross file
    // (test data).
    for (name, tree) in [("default.weights", true), ("cross.weights", false)] {
        let (path, bytes) = shipped(name);
        let gammas = Gammas::load(&path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(gammas.tree().is_some(), tree, "{name}");
        assert!(gammas.to_text().as_bytes() == bytes.as_slice(), "{name}");
    }
}

#[test]
fn shipped_evaluator_rewrites_to_the_same_bytes() {
    let (path, bytes) = shipped("default.eval");
    let evaluator = Evaluator::load(&path).unwrap_or_else(|e| panic!("{e}"));
    assert!(evaluator.to_text().as_bytes() == bytes.as_slice());
}

#[test]
fn shipped_book_rewrites_to_the_same_bytes_and_answers_the_centre_nearby() {
    let (path, bytes) = shipped("default.book");
    let book = liuzi::book::OpeningBook::load(&path).unwrap_or_else(|e| panic!("{e}"));
    assert!(book.to_text().as_bytes() == bytes.as_slice());
    // White's reply to the centre: the book's pairs lie within two lines of it in at least
    // 95% of their games (experts: 98%), where the search alone played 3-6 lines away.
    let mut board = liuzi::rules::Board::new(19).unwrap();
    let centre = liuzi::rules::Point::new(9, 9);
    board.play(centre).unwrap();
    let moves = book.moves(&board);
    assert!(moves.len() >= 5, "{moves:?}");
    let games = |near: bool| -> u32 {
        let close = |m: &&liuzi::book::BookMove| m.pair.iter().all(|p| p.distance(centre) <= 2);
        moves
            .iter()
            .filter(|m| close(m) == near)
            .map(|m| m.games)
            .sum()
    };
    let (near, far) = (games(true), games(false));
    assert!(
        near >= 19 * far,
        "{near} games near, {far} farther: {moves:?}"
    );
}
