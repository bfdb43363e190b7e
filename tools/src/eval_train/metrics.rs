//! Accuracy, log-loss and Brier score of win probabilities against game results.

use serde::Serialize;

/// Probabilities are kept inside [EPS, 1 − EPS] for the log-loss.
const EPS: f64 = 1e-6;

#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Scores {
    pub positions: usize,
    /// Fraction of positions where P(win) > 0.5 matches the result.
    pub accuracy: f64,
    /// Mean −ln P(actual result), natural log.
    pub log_loss: f64,
    /// Mean (P(win) − y)².
    pub brier: f64,
}

#[derive(Clone, Copy, Debug, Default)]
pub struct Tally {
    n: usize,
    right: usize,
    log_loss: f64,
    brier: f64,
}

impl Tally {
    pub fn add(&mut self, p: f64, win: bool) {
        let y = f64::from(u8::from(win));
        self.n += 1;
        if (p > 0.5) == win {
            self.right += 1;
        }
        let q = p.clamp(EPS, 1.0 - EPS);
        self.log_loss -= if win { q.ln() } else { (1.0 - q).ln() };
        self.brier += (p - y).powi(2);
    }

    pub fn merge(&mut self, other: &Tally) {
        self.n += other.n;
        self.right += other.right;
        self.log_loss += other.log_loss;
        self.brier += other.brier;
    }

    pub fn scores(&self) -> Scores {
        let n = self.n.max(1) as f64;
        Scores {
            positions: self.n,
            accuracy: self.right as f64 / n,
            log_loss: self.log_loss / n,
            brier: self.brier / n,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_of_known_predictions() {
        let mut t = Tally::default();
        t.add(0.8, true);
        t.add(0.4, true);
        t.add(0.5, false);
        t.add(0.0, false);
        let s = t.scores();
        assert_eq!(s.positions, 4);
        assert_eq!(s.accuracy, 0.75);
        let ll = -(0.8f64.ln() + 0.4f64.ln() + 0.5f64.ln() + (1.0 - EPS).ln()) / 4.0;
        assert!((s.log_loss - ll).abs() < 1e-12);
        assert!((s.brier - (0.04 + 0.36 + 0.25) / 4.0).abs() < 1e-12);
    }
}
