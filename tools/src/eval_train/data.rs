//! Training positions for the evaluator: positions of recorded games, labelled by the game's
//! result from the side to move's point of view (and, for self-play games, the search's value
//! of the position), a seeded sample per game, split by game; and, where asked, comparisons:
//! the position after the game's stone against the positions after other stones near the fight
//! (docs/evaluator.md, comparison training); and, for self-play games that recorded them, the
//! positions one stone off the game that the search compared, labelled by its values.

use liuzi::eval::{decided, features, pattern_term, Evaluator, Features, PatternCounts};
use liuzi::patterns::PatternBoard;
use liuzi::records::GameRecord;
use liuzi::rules::{Board, Point};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::selfplay::training::Sibling;

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
    /// The game's stone from this position compared with other stones (empty unless asked
    /// for): positions of `stones + 1` stones.
    pub comparisons: Vec<Preference>,
    /// A position one stone off the game (a root stone the search compared with the one
    /// played): labelled by the search's value alone, never held out.
    pub sibling: bool,
}

/// Two positions after one stone from the same position, the game's stone and another: the
/// side to move in both should value `better` above `worse` (the game's stone is the better
/// one for its mover, so when the mover's turn ended with it, the opponent's value is the
/// other way round).
#[derive(Clone, Debug)]
pub struct Preference {
    pub better: Features,
    pub worse: Features,
}

impl Sample {
    /// The soft label the fits train on: `(1 − mix)·result + mix·value` where the search's
    /// value is recorded, the result alone elsewhere. At `mix` 0 it is exactly 0 or 1, the
    /// hard label (scores are always taken against the result).
    /// A sibling's label is the search's value alone: the game's result is not its own.
    pub fn target(&self, mix: f64) -> f64 {
        let result = f64::from(u8::from(self.win));
        match self.value {
            Some(value) if self.sibling => value,
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
pub struct SampleOptions<'a> {
    /// Positions drawn per game (all of them when the game has fewer).
    pub per_game: usize,
    /// Games with fewer stones are left out (early resignations say little about positions).
    pub min_stones: usize,
    pub seed: u64,
    /// Count the empty cells' pattern ids (the pattern term's data).
    pub patterns: bool,
    /// Other stones compared with the game's stone at each sampled position (0: none), from
    /// the empty cells within [`COMPARISON_REACH`] of a stone.
    pub alternatives: usize,
    /// Sibling positions drawn per game, from those its record holds (0: none).
    pub siblings: usize,
    /// How those stones are chosen.
    pub pick: Pick<'a>,
}

/// How the stones compared with the game's are chosen among the near empty cells.
#[derive(Clone, Copy)]
pub enum Pick<'a> {
    /// At random.
    Random,
    /// Those `evaluator` values most for the mover after them: the stones it would have
    /// played instead of the game's, where a better evaluator must see the game's as better.
    Favourites(&'a Evaluator),
}

impl std::fmt::Debug for Pick<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Pick::Random => "Random",
            Pick::Favourites(_) => "Favourites",
        })
    }
}

/// Alternatives to the game's stone are drawn from the empty cells at most this far (Chebyshev
/// distance) from a stone on the board: where the search's candidates are.
pub const COMPARISON_REACH: u32 = 2;

/// The seeded sample of one game's positions (positions after 0..len stones, the final one
/// excluded: it is over). `values[n]`, where given, is the search's value of the position
/// before stone n for its mover. Up to `options.siblings` of `siblings` (recorded root stones,
/// in stone order; those not played give positions one stone off the game) are drawn too, by a
/// seeded stream of their own, so the game's own positions are the same with or without them.
/// Empty with the reason when the game cannot be used.
pub fn sample_game(
    game: &GameRecord,
    values: &[Option<f32>],
    siblings: &[Sibling],
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
    let mut off_game: Vec<&Sibling> = siblings.iter().filter(|s| !s.played).collect();
    if options.siblings > 0 {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(
            options.seed ^ (index as u64 + 1).wrapping_mul(0xD1B5_4A32_D192_ED03),
        );
        off_game.shuffle(&mut rng);
    }
    off_game.truncate(options.siblings);
    off_game.sort_by_key(|s| s.before);
    let mut off_game = off_game.into_iter().peekable();
    let mut pb = PatternBoard::new(Board::standard());
    let mut samples = Vec::with_capacity(chosen.len() + options.siblings);
    let mut next = chosen.iter().peekable();
    for (n, &stone) in game.stones.iter().enumerate() {
        while let Some(sibling) = off_game.next_if(|s| s.before == n) {
            samples.push(sibling_sample(&mut pb, sibling, winner, index, options)?);
        }
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
                comparisons: Vec::new(),
                sibling: false,
            });
            if options.alternatives > 0 {
                let last = samples.last_mut().expect("just pushed");
                last.comparisons = comparisons(&mut pb, stone, options, &mut rng)?;
            }
        }
        pb.play(stone).map_err(|_| "unplayable")?;
    }
    Ok(samples)
}

/// The position after `sibling`'s stone from `pb`'s position, labelled by the search's value
/// for its side to move (the mover's when the stone was its turn's first). `pb` is left as it
/// was.
fn sibling_sample(
    pb: &mut PatternBoard,
    sibling: &Sibling,
    winner: liuzi::rules::Color,
    index: u32,
    options: &SampleOptions,
) -> Result<Sample, &'static str> {
    let mover = pb.board().to_move();
    pb.play(sibling.stone).map_err(|_| "unplayable")?;
    let board = pb.board();
    let to_move = board.to_move();
    let value = f64::from(sibling.value);
    let sample = Sample {
        game: index,
        stones: board.stone_count() as u32,
        features: features::extract(&*pb),
        patterns: match options.patterns {
            true => pattern_term::counts(&*pb),
            false => PatternCounts::default(),
        },
        win: to_move == winner,
        value: Some(if to_move == mover { value } else { 1.0 - value }),
        decided: decided(&*pb),
        comparisons: Vec::new(),
        sibling: true,
    };
    pb.undo();
    Ok(sample)
}

/// The game's `stone` from `pb`'s position against up to `options.alternatives` other stones
/// from the empty cells near the stones, picked as `options.pick` says. A pair where either
/// position is decided by the threat rules is left out (the engine never asks the model
/// there), and so is every pair when the game's stone ends the game. `pb` is left as it was.
fn comparisons(
    pb: &mut PatternBoard,
    stone: Point,
    options: &SampleOptions,
    rng: &mut Xoshiro256PlusPlus,
) -> Result<Vec<Preference>, &'static str> {
    let count = options.alternatives;
    let size = pb.board().size();
    let mover = pb.board().to_move();
    let mut near: Vec<Point> = (0..size * size)
        .map(|cell| Point::from_index(cell, size))
        .filter(|&p| p != stone && pb.board().is_empty_at(p) && is_near(pb.board(), p))
        .collect();
    pb.play(stone).map_err(|_| "unplayable")?;
    let after_stone = (decided(&*pb).is_none()).then(|| features::extract(&*pb));
    // The mover keeps the move when the stone was its turn's first: then its own value of the
    // game's position should be the higher one; otherwise the opponent's should be the lower.
    let mover_to_move = pb.board().to_move() == mover;
    pb.undo();
    let Some(after_stone) = after_stone else {
        return Ok(Vec::new());
    };
    near.shuffle(rng);
    if let Pick::Favourites(evaluator) = options.pick {
        // Ranked by the evaluator's value for the mover; decided positions are dropped here,
        // so that the favourites kept are `count` undecided ones.
        let mut valued: Vec<(f64, Point)> = Vec::with_capacity(near.len());
        for &other in &near {
            pb.play(other).map_err(|_| "unplayable")?;
            if decided(&*pb).is_none() {
                let p = evaluator.win_probability(&*pb);
                valued.push((if mover_to_move { p } else { 1.0 - p }, other));
            }
            pb.undo();
        }
        // Stable: equal values keep the shuffled order.
        valued.sort_by(|a, b| b.0.total_cmp(&a.0));
        near = valued.into_iter().map(|(_, p)| p).collect();
    }
    let mut out = Vec::with_capacity(count);
    for &other in near.iter().take(count) {
        pb.play(other).map_err(|_| "unplayable")?;
        let after_other = (decided(&*pb).is_none()).then(|| features::extract(&*pb));
        pb.undo();
        if let Some(after_other) = after_other {
            out.push(match mover_to_move {
                true => Preference {
                    better: after_stone,
                    worse: after_other,
                },
                false => Preference {
                    better: after_other,
                    worse: after_stone,
                },
            });
        }
    }
    Ok(out)
}

/// Whether `p` is within [`COMPARISON_REACH`] of a stone.
fn is_near(board: &Board, p: Point) -> bool {
    board
        .history()
        .iter()
        .any(|s| s.distance(p) <= COMPARISON_REACH)
}

/// Samples every game on `threads` threads; samples come back in game order. `per_game[i]`,
/// where given, replaces `options.per_game` for game `i` (an input file weighted more or less:
/// a game's larger sample starts with its smaller one, the draw order being the same), and
/// `values[i]` and `siblings[i]`, where given, are game `i`'s searched values and sibling
/// positions (see [`sample_game`]).
pub fn sample_games(
    games: &[GameRecord],
    values: &[Vec<Option<f32>>],
    siblings: &[Vec<Sibling>],
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
                        let game_siblings = siblings.get(index).map_or(&[][..], Vec::as_slice);
                        match sample_game(game, game_values, game_siblings, index as u32, &options)
                        {
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
            alternatives: 0,
            siblings: 0,
            pick: Pick::Random,
        };
        let a = sample_game(&game, &[], &[], 3, &options).unwrap();
        let b = sample_game(&game, &[], &[], 3, &options).unwrap();
        assert_eq!(a.len(), 5);
        let stones = |s: &[Sample]| s.iter().map(|x| x.stones).collect::<Vec<_>>();
        assert_eq!(stones(&a), stones(&b));
        assert_ne!(
            stones(&a),
            stones(&sample_game(&game, &[], &[], 4, &options).unwrap())
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
        assert_eq!(
            sample_game(&game, &[], &[], 0, &short).unwrap_err(),
            "too_short"
        );
    }

    #[test]
    fn comparisons_put_the_games_stone_on_its_movers_side() {
        let game = parse_line(GAME).unwrap_or_else(|e| panic!("{e}"));
        let plain = SampleOptions {
            per_game: 1000,
            min_stones: 7,
            seed: 3,
            patterns: false,
            alternatives: 0,
            siblings: 0,
            pick: Pick::Random,
        };
        let compared = SampleOptions {
            alternatives: 3,
            ..plain
        };
        let a = sample_game(&game, &[], &[], 0, &plain).unwrap();
        let b = sample_game(&game, &[], &[], 0, &compared).unwrap();
        // The same positions, whether compared or not.
        assert_eq!(
            a.iter().map(|s| s.stones).collect::<Vec<_>>(),
            b.iter().map(|s| s.stones).collect::<Vec<_>>()
        );
        assert!(a.iter().all(|s| s.comparisons.is_empty()));
        let mut pairs = 0;
        for s in &b {
            let n = s.stones as usize;
            assert!(s.comparisons.len() <= 3);
            let mut pb = PatternBoard::new(Board::standard());
            for &p in &game.stones[..=n] {
                pb.play(p).unwrap();
            }
            let after = features::extract(&pb);
            // The mover keeps the move after its turn's first stone.
            let keeps = Board::color_of_stone(n + 1) == Board::color_of_stone(n);
            for c in &s.comparisons {
                let (game_side, other) = match keeps {
                    true => (&c.better, &c.worse),
                    false => (&c.worse, &c.better),
                };
                assert_eq!(game_side, &after, "stone {n}");
                assert_eq!(other[features::STONES], (n + 1) as f64);
                pairs += 1;
            }
        }
        // The last stone makes six: nothing to compare there. Before Black's four (stone 7)
        // no alternative is decided, so each position with a stone near has its three (the
        // empty board has no near cell).
        assert!(b.last().unwrap().comparisons.is_empty());
        for s in b.iter().filter(|s| (1..7).contains(&s.stones)) {
            assert_eq!(s.comparisons.len(), 3, "stone {}", s.stones);
        }
        assert!(pairs > 3 * 7, "{pairs} pairs");
    }

    #[test]
    fn favourites_are_the_near_stones_the_evaluator_values_most_for_the_mover() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../engine-config/default.eval");
        let evaluator = Evaluator::load(std::path::Path::new(path)).unwrap();
        let game = parse_line(GAME).unwrap_or_else(|e| panic!("{e}"));
        let options = SampleOptions {
            per_game: 1000,
            min_stones: 7,
            seed: 3,
            patterns: false,
            alternatives: 2,
            siblings: 0,
            pick: Pick::Favourites(&evaluator),
        };
        let samples = sample_game(&game, &[], &[], 0, &options).unwrap();
        let mut checked = 0;
        for s in &samples {
            let n = s.stones as usize;
            let mut pb = PatternBoard::new(Board::standard());
            for &p in &game.stones[..n] {
                pb.play(p).unwrap();
            }
            let mover = pb.board().to_move();
            let stone = game.stones[n];
            // Every other near stone's value for the mover, on undecided positions.
            let mut values: Vec<f64> = Vec::new();
            let mut keeps = false;
            for cell in 0..361 {
                let p = Point::from_index(cell, 19);
                if p == stone || !pb.board().is_empty_at(p) || !is_near(pb.board(), p) {
                    continue;
                }
                pb.play(p).unwrap();
                keeps = pb.board().to_move() == mover;
                if decided(&pb).is_none() {
                    let v = evaluator.win_probability(&pb);
                    values.push(if keeps { v } else { 1.0 - v });
                }
                pb.undo();
            }
            values.sort_by(|a, b| b.total_cmp(a));
            let model_of = |f: &Features| {
                let v = evaluator.model_probability(f, n + 1);
                if keeps {
                    v
                } else {
                    1.0 - v
                }
            };
            for (k, c) in s.comparisons.iter().enumerate() {
                let other = if keeps { &c.worse } else { &c.better };
                assert!(
                    (model_of(other) - values[k]).abs() < 1e-6,
                    "stone {n}: favourite {k}"
                );
                checked += 1;
            }
        }
        assert!(checked > 5, "{checked} favourites checked");
    }

    #[test]
    fn siblings_are_the_positions_off_the_game_labelled_by_their_value_for_the_side_to_move() {
        let game = parse_line(GAME).unwrap_or_else(|e| panic!("{e}"));
        // Before stone 3 (Black's turn's first: Black keeps the move), before stone 4 (its
        // second: White moves next) and before stone 6 (White's second).
        let siblings = [
            Sibling {
                before: 3,
                stone: Point::new(9, 12),
                value: 0.8,
                played: false,
            },
            Sibling {
                before: 4,
                stone: Point::new(9, 13),
                value: 0.8,
                played: false,
            },
            Sibling {
                before: 6,
                stone: Point::new(3, 3),
                value: 0.3,
                played: false,
            },
            // The game's own stone 7 (m10): never a position off the game.
            Sibling {
                before: 7,
                stone: Point::new(12, 9),
                value: 0.9,
                played: true,
            },
        ];
        let options = SampleOptions {
            per_game: 4,
            min_stones: 7,
            seed: 2,
            patterns: true,
            alternatives: 0,
            siblings: 0,
            pick: Pick::Random,
        };
        let plain = sample_game(&game, &[], &siblings, 0, &options).unwrap();
        assert!(plain.iter().all(|s| !s.sibling), "none asked for");
        let with = |k| SampleOptions {
            siblings: k,
            ..options
        };
        let all = sample_game(&game, &[], &siblings, 0, &with(10)).unwrap();
        // The game's own positions are the same draw with or without siblings.
        let own: Vec<u32> = all
            .iter()
            .filter(|s| !s.sibling)
            .map(|s| s.stones)
            .collect();
        assert_eq!(own, plain.iter().map(|s| s.stones).collect::<Vec<_>>());
        let off: Vec<&Sample> = all.iter().filter(|s| s.sibling).collect();
        assert_eq!(off.len(), 3);
        for (s, sibling) in off.iter().zip(&siblings) {
            let mut pb = PatternBoard::new(Board::standard());
            for &p in &game.stones[..sibling.before] {
                pb.play(p).unwrap();
            }
            let mover = pb.board().to_move();
            pb.play(sibling.stone).unwrap();
            assert_eq!(s.stones as usize, sibling.before + 1);
            assert_eq!(
                s.features,
                features::extract(&pb),
                "the position after the sibling"
            );
            let keeps = pb.board().to_move() == mover;
            let value = f64::from(sibling.value);
            let want = if keeps { value } else { 1.0 - value };
            assert_eq!(keeps, sibling.before == 3, "only stone 3 begins a turn");
            assert!(
                (s.value.unwrap() - want).abs() < 1e-6,
                "{sibling:?}: {:?}",
                s.value
            );
            // Labelled by the value alone, whatever the mix and the game's result.
            assert_eq!(s.target(0.0), s.value.unwrap());
            assert_eq!(s.target(0.5), s.value.unwrap());
        }
        let one = sample_game(&game, &[], &siblings, 0, &with(1)).unwrap();
        assert_eq!(one.iter().filter(|s| s.sibling).count(), 1);
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
            alternatives: 0,
            siblings: 0,
            pick: Pick::Random,
        };
        let stones = |s: &[Sample], g: u32| {
            s.iter()
                .filter(|x| x.game == g)
                .map(|x| x.stones)
                .collect::<Vec<_>>()
        };
        let (even, _) = sample_games(&games, &[], &[], &options, &[], 2);
        let (weighted, _) = sample_games(&games, &[], &[], &options, &[3, 6], 2);
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
