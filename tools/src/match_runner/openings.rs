//! Openings: the first turns of each game pair, from a record file or generated near the centre.
//!
//! Both ways are prefix-stable: the k-th opening depends only on the source (and seed), not on
//! how many are asked for, so a resumed or extended match gives every game the same opening.

use super::game::check_opening;
use liuzi::records;
use liuzi::rules::{Board, Point};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::HashSet;
use std::path::PathBuf;

#[derive(Clone, Debug, PartialEq)]
pub enum OpeningSource {
    /// Every game starts on the empty board.
    Empty,
    /// The first `turns` turns of each game in a record file (.games, SGF or CCGC); the whole
    /// game when `turns` is `None`. Games too short are skipped, duplicates dropped.
    File {
        path: PathBuf,
        turns: Option<usize>,
        /// Shuffle the openings with this seed instead of keeping the file order.
        shuffle_seed: Option<u64>,
    },
    /// `turns` turns of random stones within Chebyshev distance `radius` of the centre.
    Random {
        turns: usize,
        radius: usize,
        seed: u64,
    },
}

/// Number of stones in the first `turns` turns (B, WW, BB, ...).
pub fn stones_in_turns(turns: usize) -> usize {
    if turns == 0 {
        0
    } else {
        2 * turns - 1
    }
}

/// Produces `count` openings for a board of `size` (cycling through a file when it has fewer).
pub fn make_openings(
    source: &OpeningSource,
    size: usize,
    count: usize,
) -> Result<Vec<Vec<Point>>, String> {
    match source {
        OpeningSource::Empty => Ok(vec![Vec::new(); count]),
        OpeningSource::File {
            path,
            turns,
            shuffle_seed,
        } => {
            let mut openings = read_openings(path, size, *turns)?;
            if let Some(seed) = shuffle_seed {
                openings.shuffle(&mut Xoshiro256PlusPlus::seed_from_u64(*seed));
            }
            Ok((0..count)
                .map(|i| openings[i % openings.len()].clone())
                .collect())
        }
        OpeningSource::Random {
            turns,
            radius,
            seed,
        } => random_openings(size, *turns, *radius, *seed, count),
    }
}

fn read_openings(
    path: &std::path::Path,
    size: usize,
    turns: Option<usize>,
) -> Result<Vec<Vec<Point>>, String> {
    let games = records::read_file(path).map_err(|e| e.to_string())?;
    let mut seen = HashSet::new();
    let mut openings = Vec::new();
    let mut wrong_size = 0;
    for game in &games {
        if game.size != size {
            wrong_size += 1;
            continue;
        }
        let wanted = match turns {
            Some(t) => stones_in_turns(t),
            None => game.stones.len(),
        };
        if game.stones.len() < wanted {
            continue;
        }
        let opening = game.stones[..wanted].to_vec();
        if check_opening(size, &opening).is_ok() && seen.insert(opening.clone()) {
            openings.push(opening);
        }
    }
    if openings.is_empty() {
        let mut why = format!(
            "{}: no usable opening among {} game(s)",
            path.display(),
            games.len()
        );
        if wrong_size > 0 {
            why.push_str(&format!(" ({wrong_size} not on a {size}x{size} board)"));
        }
        match turns {
            Some(t) => why.push_str(&format!(" with at least {t} turn(s) before the end")),
            None => why.push_str(
                "; whole games were used, and a finished game (or one that stops in the middle of a \
                 turn) cannot be an opening: give --opening-turns N",
            ),
        }
        return Err(why);
    }
    Ok(openings)
}

fn random_openings(
    size: usize,
    turns: usize,
    radius: usize,
    seed: u64,
    count: usize,
) -> Result<Vec<Vec<Point>>, String> {
    let centre = Point::new((size / 2) as u8, (size / 2) as u8);
    let area: Vec<Point> = Board::new(size)
        .ok_or_else(|| format!("board size {size} is not supported"))?
        .points()
        .filter(|p| p.distance(centre) as usize <= radius)
        .collect();
    let stones = stones_in_turns(turns);
    if stones > area.len() {
        return Err(format!(
            "{turns} opening turns need {stones} stones, but only {} points lie within {radius} of the centre",
            area.len()
        ));
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut seen = HashSet::new();
    let mut openings = Vec::with_capacity(count);
    // Small areas have few distinct openings: give up on uniqueness after many repeats.
    let mut repeats = 0;
    while openings.len() < count {
        let opening: Vec<Point> = area.choose_multiple(&mut rng, stones).copied().collect();
        if check_opening(size, &opening).is_err() {
            continue;
        }
        if seen.insert(opening.clone()) || repeats > 1000 {
            openings.push(opening);
        } else {
            repeats += 1;
        }
    }
    Ok(openings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_openings_are_near_the_centre_distinct_and_prefix_stable() {
        let source = OpeningSource::Random {
            turns: 3,
            radius: 2,
            seed: 9,
        };
        let ten = make_openings(&source, 19, 10).unwrap();
        let four = make_openings(&source, 19, 4).unwrap();
        assert_eq!(&ten[..4], &four[..]);
        let centre = Point::new(9, 9);
        for o in &ten {
            assert_eq!(o.len(), 5);
            assert!(o.iter().all(|p| p.distance(centre) <= 2));
            check_opening(19, o).unwrap();
        }
        let distinct: HashSet<_> = ten.iter().collect();
        assert_eq!(distinct.len(), 10);
        let other_seed = make_openings(
            &OpeningSource::Random {
                turns: 3,
                radius: 2,
                seed: 10,
            },
            19,
            10,
        )
        .unwrap();
        assert_ne!(ten, other_seed);
        assert!(make_openings(
            &OpeningSource::Random {
                turns: 20,
                radius: 1,
                seed: 1
            },
            19,
            1
        )
        .is_err());
    }

    #[test]
    fn file_openings_take_whole_turns_and_cycle() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("o.games");
        std::fs::write(
            &path,
            "B\tj10 i9-k9 l9-k8 h8-h9\nW\tj10 i9-k9\nB\tj10 i9-k9 l9-k8 a1-a2\n",
        )
        .unwrap();
        let source = OpeningSource::File {
            path: path.clone(),
            turns: Some(3),
            shuffle_seed: None,
        };
        let openings = make_openings(&source, 19, 3).unwrap();
        // The second game is too short and the third has the same first three turns as the first.
        assert_eq!(openings.len(), 3);
        assert_eq!(openings[0].len(), 5);
        assert_eq!(openings[0], openings[1]);
        assert_eq!(openings[0][0], Point::new(9, 9));
        let err = make_openings(&source, 13, 1).unwrap_err();
        assert!(err.contains("not on a 13x13 board"), "{err}");
        let err = make_openings(
            &OpeningSource::File {
                path: dir.path().join("none.games"),
                turns: None,
                shuffle_seed: None,
            },
            19,
            1,
        )
        .unwrap_err();
        assert!(err.contains("none.games"), "{err}");
    }

    #[test]
    fn sgf_openings_are_read_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("o.sgf");
        std::fs::write(&path, "(;FF[4]SZ[9];B[ee];W[ff];W[df])").unwrap();
        let openings = make_openings(
            &OpeningSource::File {
                path,
                turns: None,
                shuffle_seed: None,
            },
            9,
            2,
        )
        .unwrap();
        assert_eq!(
            openings[0],
            vec![Point::new(4, 4), Point::new(5, 3), Point::new(3, 3)]
        );
    }
}
