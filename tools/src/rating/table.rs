//! The ratings table.

use super::bt::Rating;
use crate::stats::format_elo;
use std::fmt::Write;

/// Ratings as an aligned text table, best first.
pub fn render(ratings: &[Rating]) -> String {
    let width = ratings
        .iter()
        .map(|r| r.name.chars().count())
        .max()
        .unwrap_or(6)
        .max(6);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:>4}  {:width$}  {:>8} {:>8}  {:>6} {:>7}  {:>15}",
        "rank", "engine", "Elo", "±95%", "games", "score", "W-L-D"
    );
    for (i, r) in ratings.iter().enumerate() {
        let score = r
            .score()
            .map(|s| format!("{:.1}%", 100.0 * s))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "{:>4}  {:width$}  {:>8} {:>8.1}  {:>6} {:>7}  {:>15}",
            i + 1,
            r.name,
            format_elo(r.elo),
            r.ci95,
            r.games,
            score,
            format!("{}-{}-{}", r.wins, r.losses, r.draws)
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_line_up() {
        let r = |name: &str, elo: f64| Rating {
            name: name.into(),
            elo,
            ci95: 12.34,
            games: 10,
            wins: 6,
            losses: 3,
            draws: 1,
        };
        let text = render(&[r("liuzi-long-name", 35.0), r("b", -35.0)]);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(
            lines[1].contains("liuzi-long-name")
                && lines[1].contains("+35.0")
                && lines[1].contains("12.3")
        );
        assert!(lines[2].contains("65.0%") && lines[2].contains("6-3-1"));
        assert_eq!(lines[1].len(), lines[2].len());
    }
}
