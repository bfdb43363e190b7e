//! Training positions for the evaluator: positions of recorded games, labelled by the game's
//! result from the side to move's point of view (and, for self-play games, the search's value
//! of the position), a seeded sample per game, split by game.

use liuzi::eval::{decided, features, pattern_term, Features, PatternCounts};
use liuzi::patterns::PatternBoard;
use liuzi::records::GameRecord;
use liuzi::rules::Board;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// One sampled position.
#[derive(Clone, Debug)]
pub struct Sample {
    /// Index of its game in the input order.
    pub game: u32,
    pub stones: u32,
    pub features: Features,
    /// Empty cells by pattern id, per side (empty unless asked for: they are the sample's
    /// bulk).
    pub patterns: PatternCounts,
    /// The side to move went on to win the game.
    pub win: bool,
    /// The search's value of the position for the side to move, where a self-play game
    /// recorded one (see [`Sample::target`]).
    pub value: Option<f64>,
    /// What the threat rules say, when they decide the position (see `liuzi::eval::decided`).
    pub decided: Option<f64>,
}

impl Sample {
    /// The soft label the fits train on: `(1 − mix)·result + mix·value` where the search's
    /// value is recorded, the result alone elsewhere. At `mix` 0 it is exactly 0 or 1, the
    /// hard label (scores are always taken against the result).
    pub fn target(&self, mix: f64) -> f64 {
        let result = f64::from(u8::from(self.win));
        match self.value {
            Some(value) if mix > 0.0 => (1.0 - mix) * result + mix * value,
            _ => result,
        }
    }
}

/// Why games were left out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Skipped {
    /// Draws and games without a result.
    pub no_winner: usize,
    /// Not 19x19 or not replayable.
    pub unplayable: usize,
    /// Fewer stones than `min_stones`.
    pub too_short: usize,
}

#[derive(Clone, Copy, Debug)]
pub struct SampleOptions {
    /// Positions drawn per game (all of them when the game has fewer).
    pub per_game: usize,
    /// Games with fewer stones are left out (early resignations say little about positions).
    pub min_stones: usize,
    pub seed: u64,
    /// Count the empty cells' pattern ids (the pattern term's data).
    pub patterns: bool,
}

/// The seeded sample of one game's positions (positions after 0..len stones, the final one
/// excluded: it is over). `values[n]`, where given, is the search's value of the position
/// before stone n for its mover. Empty with the reason when the game cannot be used.
pub fn sample_game(
    game: &GameRecord,
    values: &[Option<f32>],
    index: u32,
    options: &SampleOptions,
) -> Result<Vec<Sample>, &'static str> {
    let winner = game.result.winner().ok_or("no_winner")?;
    if game.size != 19 {
        return Err("unplayable");
    }
    if game.stones.len() < options.min_stones.max(1) {
        return Err("too_short");
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(
        options.seed ^ (index as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15),
    );
    let mut chosen: Vec<usize> = (0..game.stones.len()).collect();
    chosen.shuffle(&mut rng);
    chosen.truncate(options.per_game);
    chosen.sort_unstable();
    let mut pb = PatternBoard::new(Board::standard());
    let mut samples = Vec::with_capacity(chosen.len());
    let mut next = chosen.iter().peekable();
    for (n, &stone) in game.stones.iter().enumerate() {
        if next.peek() == Some(&&n) {
            next.next();
            let board = pb.board();
            samples.push(Sample {
                game: index,
                stones: n as u32,
                features: features::extract(&pb),
                patterns: match options.patterns {
                    true => pattern_term::counts(&pb),
                    false => PatternCounts::default(),
                },
                win: board.to_move() == winner,
                value: values.get(n).copied().flatten().map(f64::from),
                decided: decided(&pb),
            });
        }
        pb.play(stone).map_err(|_| "unplayable")?;
    }
    Ok(samples)
}

/// Samples every game on `threads` threads; samples come back in game order. `per_game[i]`,
/// where given, replaces `options.per_game` for game `i` (an input file weighted more or less:
/// a game's larger sample starts with its smaller one, the draw order being the same), and
/// `values[i]`, where given, are game `i`'s searched values (see [`sample_game`]).
pub fn sample_games(
    games: &[GameRecord],
    values: &[Vec<Option<f32>>],
    options: &SampleOptions,
    per_game: &[usize],
    threads: usize,
) -> (Vec<Sample>, Skipped) {
    let per = games.len().div_ceil(threads.max(1)).max(1);
    let parts: Vec<(Vec<Sample>, Skipped)> = std::thread::scope(|s| {
        let handles: Vec<_> = games
            .chunks(per)
            .enumerate()
            .map(|(c, chunk)| {
                s.spawn(move || {
                    let mut out = Vec::new();
                    let mut skipped = Skipped::default();
                    for (k, game) in chunk.iter().enumerate() {
                        let index = c * per + k;
                        let options = SampleOptions {
                            per_game: per_game.get(index).copied().unwrap_or(options.per_game),
                            ..*options
                        };
                        let game_values = values.get(index).map_or(&[][..], Vec::as_slice);
                        match sample_game(game, game_values, index as u32, &options) {
                            Ok(samples) => out.extend(samples),
                            Err("no_winner") => skipped.no_winner += 1,
                            Err("too_short") => skipped.too_short += 1,
                            Err(_) => skipped.unplayable += 1,
                        }
                    }
                    (out, skipped)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("sampling worker panicked"))
            .collect()
    });
    let mut all = Vec::new();
    let mut skipped = Skipped::default();
    for (samples, s) in parts {
        all.extend(samples);
        skipped.no_winner += s.no_winner;
        skipped.unplayable += s.unplayable;
        skipped.too_short += s.too_short;
    }
    (all, skipped)
}

/// Which games (by index) are held out: a seeded shuffle, the first `fraction` of it.
pub fn validation_games(count: usize, fraction: f64, seed: u64) -> Vec<bool> {
    let mut order: Vec<usize> = (0..count).collect();
    order.shuffle(&mut Xoshiro256PlusPlus::seed_from_u64(seed));
    let held = (count as f64 * fraction).round() as usize;
    let mut held_out = vec![false; count];
    for &g in &order[..held.min(count)] {
        held_out[g] = true;
    }
    held_out
}

#[cfg(test)]
mod tests {
    use super::*;
    use liuzi::records::games::parse_line;

    /// A made-up game: Black builds a row on row 10 while White wastes stones on column a.
    const GAME: &str = "B\tj10 a1-a3 k10-l10 a5-a7 m10-n10 a9-a11 o10";

    #[test]
    fn samples_are_seeded_labelled_and_capped() {
        let game = parse_line(GAME).unwrap_or_else(|e| panic!("{e}"));
        let options = SampleOptions {
            per_game: 5,
            min_stones: 7,
            seed: 1,
            patterns: true,
        };
        let a = sample_game(&game, &[], 3, &options).unwrap();
        let b = sample_game(&game, &[], 3, &options).unwrap();
        assert_eq!(a.len(), 5);
        let stones = |s: &[Sample]| s.iter().map(|x| x.stones).collect::<Vec<_>>();
        assert_eq!(stones(&a), stones(&b));
        assert_ne!(
            stones(&a),
            stones(&sample_game(&game, &[], 4, &options).unwrap())
        );
        for s in &a {
            let black_to_move =
                Board::color_of_stone(s.stones as usize) == liuzi::rules::Color::Black;
            assert_eq!(s.win, black_to_move, "Black won this game");
            assert_eq!(s.features[features::STONES], s.stones as f64);
            assert!((s.stones as usize) < game.stones.len());
            let empty = 361 - s.stones;
            let counted: u32 = s.patterns.own.iter().map(|&(_, n)| u32::from(n)).sum();
            assert!(counted > 0 && counted <= empty, "{counted} of {empty}");
        }
        let all = sample_game(
            &game,
            &[],
            0,
            &SampleOptions {
                per_game: 1000,
                ..options
            },
        )
        .unwrap();
        assert_eq!(all.len(), game.stones.len());
        // The last position before the winning stone is decided by the rules.
        assert!(all.last().unwrap().decided.is_some_and(|p| p > 0.5));
        let short = SampleOptions {
            min_stones: 1000,
            ..options
        };
        assert_eq!(sample_game(&game, &[], 0, &short).unwrap_err(), "too_short");
    }

    #[test]
    fn a_game_sampled_more_keeps_its_smaller_sample() {
        let game = parse_line(GAME).unwrap_or_else(|e| panic!("{e}"));
        let games = vec![game.clone(), game];
        let options = SampleOptions {
            per_game: 3,
            min_stones: 7,
            seed: 9,
            patterns: false,
        };
        let stones = |s: &[Sample], g: u32| {
            s.iter()
                .filter(|x| x.game == g)
                .map(|x| x.stones)
                .collect::<Vec<_>>()
        };
        let (even, _) = sample_games(&games, &[], &options, &[], 2);
        let (weighted, _) = sample_games(&games, &[], &options, &[3, 6], 2);
        assert_eq!(
            stones(&even, 0),
            stones(&weighted, 0),
            "a game given the default rate draws the same positions"
        );
        assert_eq!(stones(&even, 1).len(), 3);
        assert_eq!(stones(&weighted, 1).len(), 6);
        assert!(stones(&even, 1)
            .iter()
            .all(|s| stones(&weighted, 1).contains(s)));
    }

    #[test]
    fn validation_split_is_by_game_and_seeded() {
        let a = validation_games(1000, 0.1, 5);
        assert_eq!(a.iter().filter(|&&v| v).count(), 100);
        assert_eq!(a, validation_games(1000, 0.1, 5));
        assert_ne!(a, validation_games(1000, 0.1, 6));
    }
}
