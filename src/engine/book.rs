//! Playing from the opening book: the engine's first stones while the position is in it.

use crate::book::OpeningBook;
use crate::rules::{Board, Point, Stage};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::Arc;

/// The book with the engine's choice of it: a book turn is drawn at the turn's first stone and
/// its second stone kept for the next request.
pub struct BookPlayer {
    book: Arc<OpeningBook>,
    min_games: u32,
    /// How far off the book's positions a position may lie and still match (`engine.book_shift`).
    max_shift: u32,
    rng: Xoshiro256PlusPlus,
    /// The second stone of the turn begun from the book, with the stone count and the first
    /// stone it follows (anything else on the board since means the turn went another way).
    second: Option<(usize, Point, Point)>,
}

impl BookPlayer {
    /// `seed` 0 draws a new seed; any other makes the choices repeat (`engine.seed`).
    pub fn new(book: Arc<OpeningBook>, min_games: u32, max_shift: u32, seed: u64) -> BookPlayer {
        let seed = if seed == 0 { rand::random() } else { seed };
        BookPlayer {
            book,
            min_games,
            max_shift,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            second: None,
        }
    }

    /// The book's stone for the side to move on `board`, when the position is in the book (at
    /// a turn's first stone) or its turn was begun from the book (at the second).
    pub fn stone(&mut self, board: &Board) -> Option<Point> {
        match board.stage() {
            Stage::First => {
                self.second = None;
                let [first, second] =
                    self.book
                        .choose(board, self.min_games, self.max_shift, &mut self.rng)?;
                self.second = Some((board.stone_count() + 1, first, second));
                Some(first)
            }
            Stage::Second => {
                let (count, first, second) = self.second.take()?;
                let continues = board.stone_count() == count
                    && board.last_stone() == Some(first)
                    && board.is_empty_at(second);
                continues.then_some(second)
            }
        }
    }

    /// Forget a turn begun from the book (the game was reset or taken back).
    pub fn reset(&mut self) {
        self.second = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::{build, BuildOptions};
    use crate::engine::{Engine, NearestPointGenerator};
    use crate::notation::parse_gtp;
    use crate::records::games::parse_line;
    use crate::rules::Color;

    /// White answers the centre with K11-L10 (GTP letters) in every game; Black then K9-H9.
    fn player(seed: u64) -> BookPlayer {
        let records: Vec<_> = (0..3)
            .map(|_| parse_line("B\tj10 j11-k10 j9-h9").unwrap())
            .collect();
        let options = BuildOptions {
            size: 19,
            turns: 2,
            min_games: 1,
        };
        let (book, _) = build(&records, options, "test");
        BookPlayer::new(Arc::new(book), 2, 3, seed)
    }

    fn game(moves: &str) -> Board {
        parse_line(&format!("?\t{moves}"))
            .unwrap()
            .replay()
            .unwrap()
    }

    /// The position's canonical form, the same for all its orientations.
    fn sets(board: &Board) -> crate::book::symmetry::StoneSets {
        let (mut black, mut white) = (Vec::new(), Vec::new());
        for (n, &p) in board.history().iter().enumerate() {
            match Board::color_of_stone(n) {
                Color::Black => black.push(p),
                Color::White => white.push(p),
            }
        }
        crate::book::symmetry::canonical(&black, &white, 19).0
    }

    fn gtp(s: &str) -> Point {
        parse_gtp(s, 19).unwrap()
    }

    #[test]
    fn the_engine_plays_whole_book_turns_then_searches() {
        let mut engine = Engine::new(19, Box::new(NearestPointGenerator)).unwrap();
        engine.set_book(Some(player(5)));
        assert_eq!(engine.genmove(Color::Black).unwrap(), gtp("K10"));
        for colour in [Color::White, Color::White, Color::Black, Color::Black] {
            engine.genmove(colour).unwrap();
        }
        // The recorded game's first five stones, in some orientation of the board.
        assert_eq!(sets(engine.board()), sets(&game("j10 j11-k10 j9-h9")));
        // Off the book: the generator's stone (next to the last one).
        let p = engine.genmove(Color::White).unwrap();
        let last = engine.board().history()[engine.board().stone_count() - 2];
        assert_eq!(p.distance(last), 1);
    }

    #[test]
    fn a_turn_the_book_did_not_begin_is_left_to_the_search() {
        let mut engine = Engine::new(19, Box::new(NearestPointGenerator)).unwrap();
        engine.set_book(Some(player(5)));
        engine.play(Color::Black, gtp("K10")).unwrap();
        // The controller places White's first stone itself: the book answers whole turns only.
        engine.play(Color::White, gtp("A1")).unwrap();
        let p = engine.genmove(Color::White).unwrap();
        assert_eq!(
            p.distance(gtp("A1")),
            1,
            "the generator's stone, not the book's"
        );
        // A turn the book began, then taken back and replayed otherwise, is not finished
        // from the book either.
        let mut engine = Engine::new(19, Box::new(NearestPointGenerator)).unwrap();
        engine.set_book(Some(player(5)));
        engine.play(Color::Black, gtp("K10")).unwrap();
        let first = engine.genmove(Color::White).unwrap();
        engine.undo().unwrap();
        let other = if first == gtp("K11") {
            gtp("L10")
        } else {
            gtp("K11")
        };
        engine.play(Color::White, other).unwrap();
        let p = engine.genmove(Color::White).unwrap();
        assert_ne!(
            p, first,
            "the book's pending stone was dropped with the undo"
        );
        // Thresholds above the games played leave everything to the search.
        let mut strict = player(5);
        strict.min_games = 4;
        let mut board = Board::new(19).unwrap();
        board.play(gtp("K10")).unwrap();
        assert_eq!(strict.stone(&board), None);
    }

    #[test]
    fn a_fixed_seed_repeats_the_book_choices() {
        let draws = |seed| {
            let mut book = player(seed);
            let mut board = Board::new(19).unwrap();
            board.play(gtp("K10")).unwrap();
            (0..20).map(|_| book.stone(&board)).collect::<Vec<_>>()
        };
        assert_eq!(draws(9), draws(9));
    }
}
