//! Running totals of a match and the tables printed from them: W/L/D per engine and colour,
//! Elo difference with 95% CI and LOS per pairing, the SPRT state, and how games ended.

use super::outcome::EndReason;
use super::results::GameLine;
use crate::stats::{elo_estimate, format_elo, los, Pentanomial, SprtConfig, SprtStatus, Wdl};
use liuzi::rules::Color;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

/// Results of one pairing, seen from its first engine.
#[derive(Clone, Debug, Default)]
pub struct PairingTally {
    pub first: usize,
    pub second: usize,
    pub wdl: Wdl,
    pub penta: Pentanomial,
    /// First engine's score in the game of a pair already finished, by pair id.
    open_pairs: HashMap<usize, f64>,
}

#[derive(Clone, Debug)]
pub struct Tally {
    names: Vec<String>,
    /// Per engine: results as Black and as White.
    by_colour: Vec<[Wdl; 2]>,
    pairings: Vec<PairingTally>,
    reasons: BTreeMap<EndReason, u64>,
    games: u64,
    /// Per engine: thinking time (ms) and turns played, openings excluded.
    thinking: Vec<(u64, u64)>,
}

/// Turns Black and White played themselves in a recorded game (the opening's turns excluded).
/// Turns are the space-separated groups of the moves field: B, WW, BB, ...
fn turns_played(line: &GameLine) -> [u64; 2] {
    let mut stones = 0;
    let mut played = [0, 0];
    for (i, turn) in line.moves.split_whitespace().enumerate() {
        if stones >= line.opening_stones {
            played[i % 2] += 1;
        }
        stones += turn.split('-').count();
    }
    played
}

impl Tally {
    pub fn new(names: Vec<String>, pairings: &[(usize, usize)]) -> Tally {
        let names_len = names.len();
        Tally {
            by_colour: vec![[Wdl::default(); 2]; names.len()],
            names,
            pairings: pairings
                .iter()
                .map(|&(first, second)| PairingTally {
                    first,
                    second,
                    ..PairingTally::default()
                })
                .collect(),
            reasons: BTreeMap::new(),
            games: 0,
            thinking: vec![(0, 0); names_len],
        }
    }

    pub fn games(&self) -> u64 {
        self.games
    }

    pub fn pairings(&self) -> &[PairingTally] {
        &self.pairings
    }

    fn index(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// Counts a finished game; games between engines outside this match are ignored.
    pub fn add(&mut self, line: &GameLine) {
        let (Some(black), Some(white)) = (self.index(&line.black), self.index(&line.white)) else {
            return;
        };
        let Some(pairing) = self.pairings.iter_mut().find(|p| {
            (p.first, p.second) == (black, white) || (p.first, p.second) == (white, black)
        }) else {
            return;
        };
        self.games += 1;
        *self.reasons.entry(line.reason).or_default() += 1;
        let turns = turns_played(line);
        for (engine, color) in [(black, Color::Black), (white, Color::White)] {
            self.by_colour[engine][color.index()].add_game(line.result.score_for(color));
            let thinking = &mut self.thinking[engine];
            thinking.0 += line.time_ms[color.index()];
            thinking.1 += turns[color.index()];
        }
        let first_color = if pairing.first == black {
            Color::Black
        } else {
            Color::White
        };
        let score = line.result.score_for(first_color);
        pairing.wdl.add_game(score);
        match pairing.open_pairs.remove(&line.pair) {
            Some(other) => pairing.penta.add_pair(other, score),
            None => {
                pairing.open_pairs.insert(line.pair, score);
            }
        }
    }

    /// SPRT state of the first pairing (a two-engine match), from complete pairs.
    pub fn sprt(&self, config: &SprtConfig) -> Option<SprtStatus> {
        let pairing = self.pairings.first()?;
        Some(config.status(config.llr_pentanomial(&pairing.penta)))
    }

    /// A one-line summary for the live progress display.
    pub fn progress_line(&self, total: usize, running: usize, sprt: Option<&SprtConfig>) -> String {
        let mut line = format!("[{}/{total} games, {running} running]", self.games);
        if let [p] = self.pairings.as_slice() {
            let w = &p.wdl;
            let _ = write!(
                line,
                " {} {}-{}-{} {}",
                self.names[p.first], w.wins, w.losses, w.draws, self.names[p.second]
            );
            if let Some(e) = elo_estimate(w) {
                let _ = write!(line, "  Elo {} ±{:.0}", format_elo(e.elo), e.error_margin());
            }
            if let Some(status) = sprt.and_then(|c| self.sprt(c)) {
                let _ = write!(
                    line,
                    "  LLR {:.2} [{:.2}, {:.2}]",
                    status.llr, status.lower, status.upper
                );
            }
        }
        line
    }

    /// The final report.
    pub fn render(&self, sprt: Option<&SprtConfig>) -> String {
        let mut out = String::new();
        let width = self
            .names
            .iter()
            .map(|n| n.chars().count())
            .max()
            .unwrap_or(6)
            .max(6);
        let _ = writeln!(
            out,
            "{:width$}  {:>6} {:>6} {:>6} {:>6} {:>7}   {:>17}   {:>17}   {:>8}",
            "engine",
            "games",
            "wins",
            "losses",
            "draws",
            "score",
            "as black W-L-D",
            "as white W-L-D",
            "s a turn"
        );
        for (i, name) in self.names.iter().enumerate() {
            let [black, white] = self.by_colour[i];
            let mut total = black;
            total.add(&white);
            if total.games() == 0 {
                continue;
            }
            let score = total
                .score()
                .map(|s| format!("{:.1}%", 100.0 * s))
                .unwrap_or_default();
            let (ms, turns) = self.thinking[i];
            let per_turn = if turns > 0 {
                format!("{:.3}", ms as f64 / 1000.0 / turns as f64)
            } else {
                "-".to_string()
            };
            let _ = writeln!(
                out,
                "{name:width$}  {:>6} {:>6} {:>6} {:>6} {score:>7}   {:>17}   {:>17}   {per_turn:>8}",
                total.games(),
                total.wins,
                total.losses,
                total.draws,
                format!("{}-{}-{}", black.wins, black.losses, black.draws),
                format!("{}-{}-{}", white.wins, white.losses, white.draws),
            );
        }
        out.push('\n');
        for p in &self.pairings {
            if p.wdl.games() == 0 {
                continue;
            }
            let (a, b) = (&self.names[p.first], &self.names[p.second]);
            let _ = write!(
                out,
                "{a} vs {b}: {} games, {}-{}-{}",
                p.wdl.games(),
                p.wdl.wins,
                p.wdl.losses,
                p.wdl.draws
            );
            if let Some(e) = elo_estimate(&p.wdl) {
                let _ = write!(
                    out,
                    ", Elo {} ±{:.1} (95% CI {} .. {})",
                    format_elo(e.elo),
                    e.error_margin(),
                    format_elo(e.lower),
                    format_elo(e.upper)
                );
            }
            if let Some(l) = los(&p.wdl) {
                let _ = write!(out, ", LOS {:.1}%", 100.0 * l);
            }
            out.push('\n');
            let c = p.penta.counts;
            if p.penta.pairs() > 0 {
                let _ = writeln!(
                    out,
                    "  pairs scored 0/0.5/1/1.5/2 points for {a}: {} {} {} {} {}",
                    c[0], c[1], c[2], c[3], c[4]
                );
            }
        }
        if let Some(config) = sprt {
            if let Some(status) = self.sprt(config) {
                let _ = writeln!(
                    out,
                    "SPRT elo0={} elo1={} alpha={} beta={} ({} Elo): LLR {:.3} (bounds {:.3}, {:.3}) -> {}",
                    config.elo0,
                    config.elo1,
                    config.alpha,
                    config.beta,
                    config.model.name(),
                    status.llr,
                    status.lower,
                    status.upper,
                    match status.decision {
                        crate::stats::SprtDecision::AcceptH0 => "H0 accepted (no gain of elo1)",
                        crate::stats::SprtDecision::AcceptH1 =>
                            "H1 accepted (gain of at least elo1)",
                        crate::stats::SprtDecision::Continue => "undecided",
                    }
                );
            }
        }
        if !self.reasons.is_empty() {
            let ends: Vec<String> = self
                .reasons
                .iter()
                .map(|(r, n)| format!("{r} {n}"))
                .collect();
            let _ = writeln!(out, "game ends: {}", ends.join(", "));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::match_runner::outcome::Winner;

    #[test]
    fn mean_time_a_turn_leaves_out_the_opening() {
        // Opening B, WW (3 stones); then B plays 2 turns in 3 s, W 1 turn in 0.5 s.
        let mut line = game(0, "a", "b", Winner::Black);
        line.moves = "j10 i9-k9 l9-k8 j9-h9 l10-l11".into();
        line.opening_stones = 3;
        line.time_ms = [3000, 500];
        assert_eq!(turns_played(&line), [2, 1]);
        let mut t = Tally::new(vec!["a".into(), "b".into()], &[(0, 1)]);
        t.add(&line);
        let text = t.render(None);
        let row = |name: &str| {
            text.lines()
                .find(|l| l.starts_with(name))
                .unwrap()
                .to_string()
        };
        assert!(row("a ").ends_with("1.500"), "{text}");
        assert!(row("b ").ends_with("0.500"), "{text}");
    }

    fn game(id: usize, black: &str, white: &str, result: Winner) -> GameLine {
        GameLine {
            game: id,
            pair: id / 2,
            opening: id / 2,
            event: "t".into(),
            black: black.into(),
            white: white.into(),
            result,
            reason: if result == Winner::Draw {
                EndReason::FullBoard
            } else {
                EndReason::Six
            },
            detail: String::new(),
            size: 19,
            opening_stones: 0,
            moves: String::new(),
            time_ms: [0, 0],
            started: String::new(),
            finished: String::new(),
            finished_unix: 0,
            match_games: None,
        }
    }

    #[test]
    fn counts_by_colour_pairs_and_reasons() {
        let mut t = Tally::new(vec!["new".into(), "base".into()], &[(0, 1)]);
        t.add(&game(0, "new", "base", Winner::Black)); // new wins as black
        t.add(&game(1, "base", "new", Winner::Black)); // new loses as white -> pair 1 point
        t.add(&game(2, "new", "base", Winner::Black)); // win
        t.add(&game(3, "base", "new", Winner::White)); // win -> pair 2 points
        t.add(&game(4, "new", "base", Winner::Draw));
        t.add(&game(5, "x", "y", Winner::Black)); // not in this match
        assert_eq!(t.games(), 5);
        let p = &t.pairings()[0];
        assert_eq!(
            p.wdl,
            Wdl {
                wins: 3,
                losses: 1,
                draws: 1
            }
        );
        assert_eq!(p.penta.counts, [0, 0, 1, 0, 1]);
        let text = t.render(None);
        assert!(text.contains("new vs base: 5 games, 3-1-1"), "{text}");
        assert!(text.contains("game ends: six 4, full_board 1"), "{text}");
        // new: as black 2-0-1, as white 1-1-0.
        assert!(
            text.lines()
                .any(|l| l.starts_with("new") && l.contains("2-0-1") && l.contains("1-1-0")),
            "{text}"
        );
        let progress = t.progress_line(10, 2, None);
        assert_eq!(t.thinking, vec![(0, 0), (0, 0)]);
        assert!(
            progress.starts_with("[5/10 games, 2 running] new 3-1-1 base  Elo +"),
            "{progress}"
        );
    }
}
