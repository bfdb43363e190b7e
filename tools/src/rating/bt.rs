//! Bradley-Terry ratings of engines: P(i beats j) = γ_i / (γ_i + γ_j), Elo = 400 log10 γ.
//!
//! Fitted by MM (Hunter 2004) with Coulom's prior: every engine gets `prior_wins` virtual wins in
//! `prior_games` virtual games against an opponent of γ = 1 (defaults 1 in 2, as in the pattern
//! trainer), so an unbeaten engine still gets a finite rating. A draw counts half a win each way;
//! each game may carry a weight (time decay).
//!
//! Confidence intervals come from the inverse of the Hessian of the negative log-posterior in
//! θ = ln γ (the observed information), mapped to Elo; the interval of an engine is that of its
//! rating minus the reference (the mean of all ratings, or the anchor engine).

use super::games::GameSet;
use crate::bt_train::mm;
use crate::stats::elo::Z95;
use std::collections::BTreeMap;

/// Elo points per unit of ln γ.
const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;

#[derive(Clone, Debug, PartialEq)]
pub struct RatingOptions {
    /// Virtual games per engine against a γ = 1 opponent, half of them won; 0 = none.
    pub prior_games: f64,
    /// Report ratings relative to this engine (index), which gets `anchor_elo`; otherwise the
    /// ratings average 0.
    pub anchor: Option<usize>,
    pub anchor_elo: f64,
}

impl Default for RatingOptions {
    fn default() -> Self {
        RatingOptions {
            prior_games: 2.0,
            anchor: None,
            anchor_elo: 0.0,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Rating {
    pub name: String,
    pub elo: f64,
    /// Half-width of the 95% confidence interval (0 for the anchor).
    pub ci95: f64,
    pub games: u64,
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
}

impl Rating {
    pub fn score(&self) -> Option<f64> {
        (self.games > 0).then(|| (self.wins as f64 + 0.5 * self.draws as f64) / self.games as f64)
    }
}

/// Weighted totals: per engine the score, per pair of engines the games between them.
struct Totals {
    score: Vec<f64>,
    games: Vec<Vec<f64>>,
}

fn totals(set: &GameSet) -> Totals {
    let n = set.names.len();
    let mut t = Totals {
        score: vec![0.0; n],
        games: vec![vec![0.0; n]; n],
    };
    for g in &set.games {
        t.score[g.black] += g.weight * g.black_score;
        t.score[g.white] += g.weight * (1.0 - g.black_score);
        t.games[g.black][g.white] += g.weight;
        t.games[g.white][g.black] += g.weight;
    }
    t
}

/// Without a prior the maximum-likelihood ratings exist only when every engine can be reached
/// from every other through results that scored (Ford's condition, Hunter 2004).
fn check_connected(set: &GameSet) -> Result<(), String> {
    let n = set.names.len();
    let mut scored = vec![vec![false; n]; n];
    for g in &set.games {
        if g.weight <= 0.0 {
            continue;
        }
        if g.black_score > 0.0 {
            scored[g.black][g.white] = true;
        }
        if g.black_score < 1.0 {
            scored[g.white][g.black] = true;
        }
    }
    let reach = |forward: bool| {
        let mut seen = vec![false; n];
        let mut stack = vec![0];
        seen[0] = true;
        while let Some(i) = stack.pop() {
            for j in 0..n {
                let edge = if forward { scored[i][j] } else { scored[j][i] };
                if edge && !seen[j] {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
        seen
    };
    let (down, up) = (reach(true), reach(false));
    match (0..n).find(|&i| !down[i] || !up[i]) {
        None => Ok(()),
        Some(i) => Err(format!(
            "without a prior the ratings are unbounded: `{}` is not linked to `{}` by wins both ways (use --prior-games)",
            set.names[i], set.names[0]
        )),
    }
}

/// The MM fit through the shared MM core (`crate::bt_train::mm`, Hunter 2004 / Coulom 2007):
/// every engine is a one-member team in a single feature group (engines are never teammates, so
/// the whole group is updated at once); a game is a two-team competition, a draw half a win each way.
/// Games with the same winner and loser are merged into one competition of summed weight,
/// which leaves the likelihood unchanged and keeps the problem at most n^2 competitions.
fn fit_gammas(set: &GameSet, prior_games: f64) -> Result<Vec<f64>, String> {
    let n = set.names.len();
    if n >= mm::MAX_GROUP_SIZE {
        return Err(format!(
            "{n} players: the MM core rates fewer than {}",
            mm::MAX_GROUP_SIZE
        ));
    }
    let mut problem = mm::Problem::new(&[n]);
    let teams: Vec<u32> = (0..n as u32)
        .map(|i| problem.team(&[i]).map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()?;
    let mut merged: BTreeMap<(usize, usize), f64> = BTreeMap::new();
    for g in &set.games {
        for (winner, loser, weight) in [
            (g.black, g.white, g.weight * g.black_score),
            (g.white, g.black, g.weight * (1.0 - g.black_score)),
        ] {
            if weight > 0.0 {
                *merged.entry((winner, loser)).or_default() += weight;
            }
        }
    }
    for ((winner, loser), weight) in merged {
        let participants = [(teams[winner], 1), (teams[loser], 1)];
        problem
            .add(teams[winner], &participants, weight)
            .map_err(|e| e.to_string())?;
    }
    problem.seal();
    let prior = mm::Prior {
        wins: prior_games / 2.0,
        games: prior_games,
        opponent: 1.0,
    };
    let options = mm::FitOptions {
        max_sweeps: 100_000,
        // Per competition; the gammas then sit within about 1e-6 of the optimum.
        tolerance: 1e-14,
        threads: 1,
        check_every_group: false,
        schedule: mm::Schedule::Cyclic,
    };
    let mut gammas = vec![1.0; n];
    problem.fit(&mut gammas, prior, &options, |_, _| true);
    Ok(gammas)
}

/// Hessian of the negative log-posterior in θ = ln γ.
fn hessian(totals: &Totals, gammas: &[f64], prior_games: f64) -> Vec<Vec<f64>> {
    let n = gammas.len();
    let mut h = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..n {
            if i != j && totals.games[i][j] > 0.0 {
                let p = gammas[i] / (gammas[i] + gammas[j]);
                let v = totals.games[i][j] * p * (1.0 - p);
                h[i][i] += v;
                h[i][j] -= v;
            }
        }
        h[i][i] += prior_games * gammas[i] / (gammas[i] + 1.0).powi(2);
    }
    h
}

/// Inverse of a symmetric positive-definite matrix by Cholesky; `None` if it is not.
fn invert_spd(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut l = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..=i {
            let s: f64 = a[i][j] - (0..j).map(|k| l[i][k] * l[j][k]).sum::<f64>();
            if i == j {
                if s <= 1e-300 {
                    return None;
                }
                l[i][i] = s.sqrt();
            } else {
                l[i][j] = s / l[j][j];
            }
        }
    }
    // Solve L L^T x = e_c for every unit vector e_c; x is column c of the inverse.
    let mut inv = vec![vec![0.0; n]; n];
    for c in 0..n {
        let mut y = vec![0.0; n];
        for i in 0..n {
            let b = if i == c { 1.0 } else { 0.0 };
            y[i] = (b - (0..i).map(|k| l[i][k] * y[k]).sum::<f64>()) / l[i][i];
        }
        let mut x = vec![0.0; n];
        for i in (0..n).rev() {
            x[i] = (y[i] - (i + 1..n).map(|k| l[k][i] * x[k]).sum::<f64>()) / l[i][i];
        }
        for (row, value) in inv.iter_mut().zip(x) {
            row[c] = value;
        }
    }
    Some(inv)
}

/// Covariance of θ. Without a prior θ is fixed only up to a shift: engine 0 is pinned, which
/// leaves every difference, and so every interval below, unchanged.
fn covariance(h: &[Vec<f64>], prior_games: f64) -> Result<Vec<Vec<f64>>, String> {
    let n = h.len();
    let singular = || "the rating covariance is singular (too few games?)".to_string();
    if prior_games > 0.0 {
        return invert_spd(h).ok_or_else(singular);
    }
    let reduced: Vec<Vec<f64>> = h[1..].iter().map(|row| row[1..].to_vec()).collect();
    let inv = invert_spd(&reduced).ok_or_else(singular)?;
    let mut c = vec![vec![0.0; n]; n];
    for i in 1..n {
        for j in 1..n {
            c[i][j] = inv[i - 1][j - 1];
        }
    }
    Ok(c)
}

/// Variance of e·θ for the contrast vector `e`.
fn contrast_variance(c: &[Vec<f64>], e: &[f64]) -> f64 {
    let n = e.len();
    (0..n)
        .map(|i| (0..n).map(|j| e[i] * c[i][j] * e[j]).sum::<f64>())
        .sum::<f64>()
        .max(0.0)
}

/// Fits and reports ratings, best first.
pub fn rate(set: &GameSet, options: &RatingOptions) -> Result<Vec<Rating>, String> {
    let n = set.names.len();
    if n < 2 {
        return Err(format!("need games between at least 2 engines, found {n}"));
    }
    if !(options.prior_games >= 0.0 && options.prior_games.is_finite()) {
        return Err("the prior must be a non-negative number of games".into());
    }
    if let Some(a) = options.anchor {
        if a >= n {
            return Err("anchor engine out of range".into());
        }
    }
    if options.prior_games == 0.0 {
        check_connected(set)?;
    }
    let gammas = fit_gammas(set, options.prior_games)?;
    let t = totals(set);
    let c = covariance(
        &hessian(&t, &gammas, options.prior_games),
        options.prior_games,
    )?;
    let theta: Vec<f64> = gammas.iter().map(|g| g.ln()).collect();
    let reference = |i: usize| -> Vec<f64> {
        let mut e = vec![0.0; n];
        match options.anchor {
            Some(a) => e[a] -= 1.0,
            None => e.iter_mut().for_each(|x| *x -= 1.0 / n as f64),
        }
        e[i] += 1.0;
        e
    };
    let records = set.records();
    let mut ratings: Vec<Rating> = (0..n)
        .map(|i| {
            let e = reference(i);
            let contrast: f64 = e.iter().zip(&theta).map(|(a, b)| a * b).sum();
            let (wins, losses, draws) = records[i];
            Rating {
                name: set.names[i].clone(),
                elo: ELO_PER_NAT * contrast + options.anchor.map_or(0.0, |_| options.anchor_elo),
                ci95: Z95 * ELO_PER_NAT * contrast_variance(&c, &e).sqrt(),
                games: wins + losses + draws,
                wins,
                losses,
                draws,
            }
        })
        .collect();
    ratings.sort_by(|a, b| b.elo.total_cmp(&a.elo));
    Ok(ratings)
}

#[cfg(test)]
mod tests {
    use super::super::games::RatedGame;
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    fn game(black: usize, white: usize, black_score: f64) -> RatedGame {
        RatedGame {
            black,
            white,
            black_score,
            finished_unix: None,
            weight: 1.0,
        }
    }

    fn set(names: &[&str], games: Vec<RatedGame>) -> GameSet {
        GameSet {
            names: names.iter().map(|s| s.to_string()).collect(),
            games,
        }
    }

    fn find<'a>(r: &'a [Rating], name: &str) -> &'a Rating {
        r.iter().find(|x| x.name == name).unwrap()
    }

    #[test]
    fn two_engines_match_the_closed_form() {
        // 30 wins, 10 losses: γa/γb = 3, a difference of 400 log10 3 = 190.85 Elo, and
        // var(θa - θb) = 1 / (40 · 3/4 · 1/4) (the same interval as the score-based formula).
        let mut games = vec![game(0, 1, 1.0); 30];
        games.extend(vec![game(1, 0, 1.0); 10]);
        let s = set(&["a", "b"], games);
        let none = RatingOptions {
            prior_games: 0.0,
            anchor: Some(1),
            anchor_elo: 0.0,
        };
        let r = rate(&s, &none).unwrap();
        let a = find(&r, "a");
        assert!((a.elo - 400.0 * 3f64.log10()).abs() < 1e-6, "{}", a.elo);
        let expected_ci = Z95 * ELO_PER_NAT * (1.0f64 / 7.5).sqrt();
        assert!(
            (a.ci95 - expected_ci).abs() < 1e-6,
            "{} vs {expected_ci}",
            a.ci95
        );
        assert_eq!(find(&r, "b").ci95, 0.0);
        assert_eq!((a.wins, a.losses, a.games), (30, 10, 40));
        // Centred on the mean: ±half the difference, half the interval width.
        let centred = rate(
            &s,
            &RatingOptions {
                prior_games: 0.0,
                ..RatingOptions::default()
            },
        )
        .unwrap();
        assert!((find(&centred, "a").elo + find(&centred, "b").elo).abs() < 1e-9);
        assert!((find(&centred, "a").ci95 - expected_ci / 2.0).abs() < 1e-6);
    }

    #[test]
    fn fit_satisfies_the_mm_fixed_point() {
        // At the optimum each engine's (weighted) score plus its prior wins equals its expected
        // score plus the prior's expectation.
        let games = vec![
            game(0, 1, 1.0),
            game(1, 2, 0.5),
            game(2, 0, 1.0),
            game(0, 2, 1.0),
            game(1, 0, 0.0),
            game(2, 1, 0.0),
        ];
        let s = set(&["a", "b", "c"], games);
        let gammas = fit_gammas(&s, 2.0).unwrap();
        let t = totals(&s);
        for i in 0..3 {
            let expected: f64 = (0..3)
                .filter(|&j| j != i)
                .map(|j| t.games[i][j] * gammas[i] / (gammas[i] + gammas[j]))
                .sum::<f64>()
                + 2.0 * gammas[i] / (gammas[i] + 1.0);
            assert!((t.score[i] + 1.0 - expected).abs() < 1e-6, "engine {i}");
        }
    }

    #[test]
    fn recovers_simulated_ratings() {
        let truth = [0.0, 120.0, 250.0, -180.0];
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let mut games = Vec::new();
        for _ in 0..3000 {
            let i = rng.gen_range(0..4);
            let j = (i + rng.gen_range(1..4)) % 4;
            let p = 1.0 / (1.0 + 10f64.powf((truth[j] - truth[i]) / 400.0));
            games.push(game(i, j, if rng.gen::<f64>() < p { 1.0 } else { 0.0 }));
        }
        let s = set(&["zero", "plus120", "plus250", "minus180"], games);
        let r = rate(
            &s,
            &RatingOptions {
                anchor: Some(0),
                ..RatingOptions::default()
            },
        )
        .unwrap();
        assert_eq!(r[0].name, "plus250");
        assert_eq!(r[3].name, "minus180");
        for (name, elo) in [("plus120", 120.0), ("plus250", 250.0), ("minus180", -180.0)] {
            let x = find(&r, name);
            assert!(
                (x.elo - elo).abs() < x.ci95,
                "{name}: {} ± {} vs {elo}",
                x.elo,
                x.ci95
            );
            assert!(x.ci95 > 10.0 && x.ci95 < 60.0, "{name}: ci {}", x.ci95);
        }
    }

    #[test]
    fn prior_keeps_an_unbeaten_engine_finite_and_no_prior_refuses() {
        let s = set(&["a", "b"], vec![game(0, 1, 1.0); 5]);
        let r = rate(&s, &RatingOptions::default()).unwrap();
        assert!(r[0].elo.is_finite() && r[0].elo > 0.0);
        let err = rate(
            &s,
            &RatingOptions {
                prior_games: 0.0,
                ..RatingOptions::default()
            },
        )
        .unwrap_err();
        assert!(err.contains("unbounded"), "{err}");
    }

    #[test]
    fn time_decay_favours_recent_results() {
        // a lost ten old games to b and won ten recent ones.
        let mut games: Vec<RatedGame> = (0..10)
            .map(|k| RatedGame {
                finished_unix: Some(k),
                ..game(0, 1, 0.0)
            })
            .collect();
        games.extend((0..10).map(|k| RatedGame {
            finished_unix: Some(100 * 86_400 + k),
            ..game(0, 1, 1.0)
        }));
        let mut s = set(&["a", "b"], games);
        let even = rate(&s, &RatingOptions::default()).unwrap();
        assert!(find(&even, "a").elo.abs() < 1e-6);
        s.apply_half_life(30.0).unwrap();
        let decayed = rate(&s, &RatingOptions::default()).unwrap();
        assert!(
            find(&decayed, "a").elo > 100.0,
            "{}",
            find(&decayed, "a").elo
        );
    }

    #[test]
    fn inverse_is_an_inverse() {
        let a = vec![
            vec![4.0, 1.0, 0.5],
            vec![1.0, 3.0, 0.2],
            vec![0.5, 0.2, 2.0],
        ];
        let inv = invert_spd(&a).unwrap();
        for (i, row) in a.iter().enumerate() {
            for j in 0..3 {
                let v: f64 = row
                    .iter()
                    .zip(&inv)
                    .map(|(x, inv_row)| x * inv_row[j])
                    .sum();
                assert!((v - if i == j { 1.0 } else { 0.0 }).abs() < 1e-12);
            }
        }
        assert!(invert_spd(&[vec![1.0, 1.0], vec![1.0, 1.0]]).is_none());
    }
}
