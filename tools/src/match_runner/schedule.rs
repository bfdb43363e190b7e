//! Who plays whom: two-engine matches, gauntlets and round-robins, in colour-swapped pairs (or,
//! to measure one colour's game at half the cost, with the first engine always one colour).
//!
//! Games are laid out round by round: in round r every pairing plays its pair r, both games on
//! opening r, so a match stopped early still covers the pairings evenly. Game ids are the
//! positions in this list; they key the results file when a match resumes.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// Two engines.
    Match,
    /// The first engine against each of the others.
    Gauntlet,
    /// Every engine against every other.
    RoundRobin,
}

/// The colours of a pairing's games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Colours {
    /// Colour-swapped pairs on each opening: the first engine Black in the first game.
    #[default]
    Swapped,
    /// One game an opening, the first engine of the pairing always Black.
    FirstBlack,
    /// One game an opening, the first engine of the pairing always White.
    FirstWhite,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScheduledGame {
    pub id: usize,
    /// Global pair id: the two games of a pair share it (and their opening).
    pub pair: usize,
    pub opening: usize,
    /// Engine indices.
    pub black: usize,
    pub white: usize,
}

/// The pairings of `mode` over `engines` engines, as (first, second) index pairs.
pub fn pairings(mode: Mode, engines: usize) -> Result<Vec<(usize, usize)>, String> {
    match mode {
        Mode::Match if engines == 2 => Ok(vec![(0, 1)]),
        Mode::Match => Err(format!(
            "a match needs exactly 2 engines, got {engines} (use --mode gauntlet or round-robin)"
        )),
        _ if engines < 2 => Err(format!("need at least 2 engines, got {engines}")),
        Mode::Gauntlet => Ok((1..engines).map(|i| (0, i)).collect()),
        Mode::RoundRobin => Ok((0..engines)
            .flat_map(|i| (i + 1..engines).map(move |j| (i, j)))
            .collect()),
    }
}

/// `games_per_pairing` games for every pairing. Swapped: the first engine of a pairing is Black
/// in the first game of each pair, and an odd count leaves the last pair with one game. One
/// colour: a "pair" is one game, on an opening of its own.
pub fn build(
    pairings: &[(usize, usize)],
    games_per_pairing: usize,
    colours: Colours,
) -> Vec<ScheduledGame> {
    let per_round = if colours == Colours::Swapped { 2 } else { 1 };
    let rounds = games_per_pairing.div_ceil(per_round);
    let mut games = Vec::with_capacity(pairings.len() * games_per_pairing);
    for round in 0..rounds {
        for (k, &(a, b)) in pairings.iter().enumerate() {
            let pair = round * pairings.len() + k;
            let in_pair = (games_per_pairing - per_round * round).min(per_round);
            let order = match colours {
                Colours::Swapped | Colours::FirstBlack => [(a, b), (b, a)],
                Colours::FirstWhite => [(b, a), (a, b)],
            };
            for (black, white) in order.into_iter().take(in_pair) {
                games.push(ScheduledGame {
                    id: games.len(),
                    pair,
                    opening: round,
                    black,
                    white,
                });
            }
        }
    }
    games
}

/// Number of openings a schedule uses.
pub fn openings_needed(games: &[ScheduledGame]) -> usize {
    games.iter().map(|g| g.opening + 1).max().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairings_per_mode() {
        assert_eq!(pairings(Mode::Match, 2).unwrap(), vec![(0, 1)]);
        assert!(pairings(Mode::Match, 3).is_err());
        assert_eq!(pairings(Mode::Gauntlet, 3).unwrap(), vec![(0, 1), (0, 2)]);
        assert_eq!(
            pairings(Mode::RoundRobin, 3).unwrap(),
            vec![(0, 1), (0, 2), (1, 2)]
        );
        assert!(pairings(Mode::RoundRobin, 1).is_err());
    }

    #[test]
    fn pairs_swap_colours_on_the_same_opening() {
        let games = build(&[(0, 1), (0, 2)], 4, Colours::Swapped);
        assert_eq!(games.len(), 8);
        for (i, g) in games.iter().enumerate() {
            assert_eq!(g.id, i);
        }
        // Round 0: pairing (0,1) pair 0, then (0,2) pair 1; round 1 uses opening 1.
        assert_eq!(
            (
                games[0].black,
                games[0].white,
                games[0].pair,
                games[0].opening
            ),
            (0, 1, 0, 0)
        );
        assert_eq!(
            (
                games[1].black,
                games[1].white,
                games[1].pair,
                games[1].opening
            ),
            (1, 0, 0, 0)
        );
        assert_eq!((games[2].black, games[2].white, games[2].pair), (0, 2, 1));
        assert_eq!((games[4].pair, games[4].opening), (2, 1));
        assert_eq!(openings_needed(&games), 2);
        let odd = build(&[(0, 1)], 3, Colours::Swapped);
        assert_eq!(odd.len(), 3);
        assert_eq!((odd[2].black, odd[2].pair), (0, 1));
        // Extending a match keeps the earlier games as they were.
        assert_eq!(
            &build(&[(0, 1)], 10, Colours::Swapped)[..4],
            &build(&[(0, 1)], 4, Colours::Swapped)[..]
        );
    }

    #[test]
    fn one_colour_plays_each_opening_once_with_the_first_engine_in_that_colour() {
        for (colours, first_black) in [(Colours::FirstWhite, false), (Colours::FirstBlack, true)] {
            let games = build(&[(0, 1), (0, 2)], 3, colours);
            assert_eq!(games.len(), 6);
            for (i, g) in games.iter().enumerate() {
                assert_eq!((g.id, g.pair, g.opening), (i, i, i / 2));
                assert_eq!(g.black == 0, first_black, "{g:?}");
                assert!(g.black == 0 || g.white == 0);
            }
            assert_eq!(openings_needed(&games), 3);
            // Extending keeps the earlier games.
            assert_eq!(
                &build(&[(0, 1)], 9, colours)[..5],
                &build(&[(0, 1)], 5, colours)[..]
            );
        }
    }
}
