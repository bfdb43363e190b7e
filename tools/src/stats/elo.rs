//! Match statistics on the logistic Elo scale: score, Elo difference with a 95% confidence
//! interval, and the likelihood of superiority (LOS).
//!
//! Formulas as in cutechess-cli and fishtest: the score s = (W + D/2) / N becomes
//! Elo = -400 log10(1/s - 1); the interval is s +- 1.96 sigma / sqrt(N) mapped through the same
//! curve, with sigma the per-game standard deviation of the score; LOS = Phi((W - L) / sqrt(W + L)).

use serde::{Deserialize, Serialize};

/// Two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wins, losses and draws from one side's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wdl {
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
}

impl Wdl {
    pub fn games(&self) -> u64 {
        self.wins + self.losses + self.draws
    }

    /// The same games seen from the other side.
    pub fn flipped(&self) -> Wdl {
        Wdl {
            wins: self.losses,
            losses: self.wins,
            draws: self.draws,
        }
    }

    /// Mean score in [0, 1]; `None` before the first game.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (self.wins as f64 + 0.5 * self.draws as f64) / n as f64)
    }

    /// Counts one game scored 1 (win), 0 (loss) or anything between (draw).
    pub fn add_game(&mut self, score: f64) {
        if score >= 1.0 {
            self.wins += 1;
        } else if score <= 0.0 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    pub fn add(&mut self, other: &Wdl) {
        self.wins += other.wins;
        self.losses += other.losses;
        self.draws += other.draws;
    }
}

/// Elo difference for a mean score `s`; infinite at 0 and 1.
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// Expected score of a side that is `elo` points stronger.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo difference with its 95% confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    pub elo: f64,
    pub lower: f64,
    pub upper: f64,
}

impl EloEstimate {
    /// Half the interval width, the usual "+-" figure (infinite when a bound is).
    pub fn error_margin(&self) -> f64 {
        if self.lower.is_finite() && self.upper.is_finite() {
            (self.upper - self.lower) / 2.0
        } else {
            f64::INFINITY
        }
    }
}

/// Elo difference and 95% interval from per-game results; `None` before the first game.
pub fn elo_estimate(wdl: &Wdl) -> Option<EloEstimate> {
    let n = wdl.games() as f64;
    let s = wdl.score()?;
    let variance = (wdl.wins as f64 * (1.0 - s).powi(2)
        + wdl.draws as f64 * (0.5 - s).powi(2)
        + wdl.losses as f64 * s.powi(2))
        / n;
    let margin = Z95 * (variance / n).sqrt();
    Some(EloEstimate {
        elo: elo_from_score(s),
        lower: elo_from_score(s - margin),
        upper: elo_from_score(s + margin),
    })
}

/// Likelihood of superiority: the probability that the side is the stronger one, from wins and
/// losses only (draws carry no information about which side is stronger).
pub fn los(wdl: &Wdl) -> Option<f64> {
    let decisive = (wdl.wins + wdl.losses) as f64;
    (decisive > 0.0).then(|| {
        0.5 * (1.0 + libm::erf((wdl.wins as f64 - wdl.losses as f64) / (2.0 * decisive).sqrt()))
    })
}

/// Formats an Elo value for tables: `+23.4`, `-inf`.
pub fn format_elo(elo: f64) -> String {
    if elo.is_infinite() {
        if elo > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        // Avoid printing "-0.0" for an even score.
        let tenths = (elo * 10.0).round();
        format!("{:+.1}", if tenths == 0.0 { 0.0 } else { tenths / 10.0 })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn score_and_elo_round_trip() {
        assert!(close(elo_from_score(0.5), 0.0, 1e-12));
        // 76% is the classic "+200 Elo" (0.7597469...).
        assert!(close(score_from_elo(200.0), 0.759_746_926_647_957_8, 1e-12));
        for elo in [-600.0, -35.5, 0.0, 12.0, 400.0] {
            assert!(close(elo_from_score(score_from_elo(elo)), elo, 1e-9));
        }
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn estimate_matches_hand_computed_values() {
        // 60 wins, 40 losses: s = 0.6, sigma^2 = 0.24, margin = 1.96 * sqrt(0.0024).
        // Reference values from an independent Python computation of the same formulas.
        let e = elo_estimate(&Wdl {
            wins: 60,
            losses: 40,
            draws: 0,
        })
        .unwrap();
        assert!(close(e.elo, 70.436_503_622_272_47, 1e-9));
        assert!(close(e.lower, 2.766_873_222_560_89, 1e-6));
        assert!(close(e.upper, 143.909_233_010_914_22, 1e-6));

        // Draws shrink the variance: 30 W, 20 L, 50 D.
        let e = elo_estimate(&Wdl {
            wins: 30,
            losses: 20,
            draws: 50,
        })
        .unwrap();
        assert!(close(e.elo, 34.860_070_287_560_08, 1e-9));
        assert!(close(e.lower, -12.929_693_470_337_863, 1e-6));
        assert!(close(e.upper, 84.010_762_649_402_47, 1e-6));
        assert_eq!(elo_estimate(&Wdl::default()), None);
    }

    #[test]
    fn los_matches_normal_approximation() {
        let w = Wdl {
            wins: 60,
            losses: 40,
            draws: 7,
        };
        // Phi(20 / sqrt(100)) = Phi(2) = 0.97724986805...
        assert!(close(los(&w).unwrap(), 0.977_249_868_051_820_8, 1e-12));
        assert!(close(
            los(&w.flipped()).unwrap(),
            1.0 - 0.977_249_868_051_820_8,
            1e-12
        ));
        let even = Wdl {
            wins: 5,
            losses: 5,
            draws: 0,
        };
        assert!(close(los(&even).unwrap(), 0.5, 1e-15));
        assert_eq!(
            los(&Wdl {
                wins: 0,
                losses: 0,
                draws: 9
            }),
            None
        );
    }

    #[test]
    fn all_wins_gives_infinite_elo_but_finite_lower_bound() {
        let e = elo_estimate(&Wdl {
            wins: 10,
            losses: 0,
            draws: 0,
        })
        .unwrap();
        assert_eq!(e.elo, f64::INFINITY);
        // Zero variance: the interval collapses onto the point estimate.
        assert_eq!(e.lower, f64::INFINITY);
        assert_eq!(format_elo(e.elo), "+inf");
        assert_eq!(format_elo(-12.345), "-12.3");
        assert_eq!(format_elo(-0.0), "+0.0");
        assert_eq!(format_elo(-0.04), "+0.0");
    }
}
