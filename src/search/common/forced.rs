//! Stones that need no search, and the root policy, the same for both searches (docs/search.md,
//! expansion; "Forced stones").

use super::outcome::Decision;
use super::position::SearchPosition;
use crate::rules::{GameResult, Point};

/// A stone that needs no search: a winning stone (one that completes the six at once when
/// there is one), or the single stone that can meet the opponent's threat.
pub(crate) fn forced_stone<P: SearchPosition>(pos: &P) -> Option<(Point, Decision)> {
    let mut points = Vec::new();
    pos.winning_points(&mut points);
    if !points.is_empty() {
        points.sort();
        let immediate = points.iter().copied().find(|&p| {
            let mut b = pos.board().clone();
            b.play(p).is_ok() && matches!(b.result(), GameResult::Win(_))
        });
        return Some((immediate.unwrap_or(points[0]), Decision::Win));
    }
    pos.blocking_points(&mut points);
    (points.len() == 1).then(|| (points[0], Decision::ForcedBlock))
}

/// P(m) of every candidate of `pos`, normalised over the candidates.
pub(crate) fn policy_of<P: SearchPosition>(pos: &P) -> Vec<(Point, f32)> {
    let mut c = Vec::new();
    pos.candidates(&mut c);
    let total: f32 = c.iter().map(|x| x.1.max(0.0)).sum();
    if total > 0.0 {
        c.iter_mut().for_each(|x| x.1 = x.1.max(0.0) / total);
    }
    c
}
