//! The evaluator's say in a node's priors near the root (`search.eval_prior_plies`).
//!
//! The Bradley-Terry prior ranks a stone by the patterns around it; the evaluator sees the
//! whole position. Near the root a turn's first stone is valued by the mean over the partners
//! tried under it, in prior order, mostly once each (docs/evaluator.md): a prior that
//! ranks the partners by the position they make tries the good ones first. So at the root
//! side's own nodes within `eval_prior_plies` of the root (the opponent's replies keep the
//! weights' priors: valuing them too cost 4x the playouts a second), each of the `eval_prior_candidates` best free
//! candidates is played on a scratch copy and valued by the evaluator (v, the win probability
//! of the side that placed it), and its weight is multiplied by exp(β·(logit v − max logit v)),
//! β = `eval_prior_weight`. Candidates past that many keep the smallest factor given, so
//! they stay behind the ones valued. Forced sets (wins, blocks, defence zones) are left alone.
//! Off by default: level in self-play and against Cloudict (docs/results.md, ablations).

use super::SearchParams;
use crate::eval::Evaluator;
use crate::policy::FeatureBoard;
use crate::rules::Point;
use crate::search::common::SearchPosition;

/// The evaluator when the search's priors use it (`eval_prior_plies` > 0).
pub(crate) fn prior_evaluator<'a>(
    params: &SearchParams,
    evaluator: Option<&'a Evaluator>,
) -> Option<&'a Evaluator> {
    evaluator.filter(|_| params.eval_prior_plies > 0)
}

/// Keeps a logit finite when the evaluator is certain.
const CERTAIN: f64 = 1e-4;

/// Multiplies the weights of `list` (the candidates of `pos`, any order, weights > 0) by the
/// evaluator's factor; `candidates` of them, the highest weights first, are valued on `probe`
/// (a copy of the position's feature board: each candidate is played on it, valued and taken
/// back; the position's own play would update its playout weights too, at 3x the cost). The
/// list comes back sorted by the old weight, highest first (ties by cell), not renormalised.
pub(crate) fn reweight<P: SearchPosition>(
    pos: &P,
    evaluator: &Evaluator,
    probe: &mut Option<FeatureBoard>,
    weight: f32,
    candidates: usize,
    list: &mut [(Point, f32)],
) {
    if list.len() < 2 || candidates == 0 || weight == 0.0 {
        return;
    }
    let size = pos.board().size();
    list.sort_unstable_by(|a, b| {
        b.1.total_cmp(&a.1)
            .then_with(|| a.0.index(size).cmp(&b.0.index(size)))
    });
    let valued = candidates.min(list.len());
    let mover = pos.board().to_move();
    let probe = match (pos.features(), &mut *probe) {
        (Some(fb), Some(probe)) => {
            probe.clone_from(fb);
            probe
        }
        (Some(fb), probe) => probe.insert(fb.clone()),
        (None, probe) => probe.insert(FeatureBoard::new(pos.board())),
    };
    let mut logits = Vec::with_capacity(valued);
    for &(p, _) in &list[..valued] {
        if probe.play(p).is_err() {
            // Not a legal stone (never for a candidate): rank it with the unvalued.
            logits.push(f64::NEG_INFINITY);
            continue;
        }
        let to_move = probe.board().to_move();
        let wp = evaluator.win_probability(&*probe);
        probe.undo();
        let v = if to_move == mover { wp } else { 1.0 - wp };
        let v = v.clamp(CERTAIN, 1.0 - CERTAIN);
        logits.push(crate::math::ln(v / (1.0 - v)));
    }
    let best = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let factor = |logit: f64| crate::math::exp(f64::from(weight) * (logit - best)) as f32;
    let floor = logits
        .iter()
        .filter(|l| l.is_finite())
        .map(|&l| factor(l))
        .fold(1.0f32, f32::min);
    for (k, c) in list.iter_mut().enumerate() {
        // A factor can underflow to 0 for a hopeless stone: keep it a child, last.
        let f = match logits.get(k) {
            Some(&l) if l.is_finite() => factor(l),
            _ => floor,
        };
        c.1 *= f.max(f32::MIN_POSITIVE);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::testing::sample_evaluator;
    use crate::policy::Gammas;
    use crate::rules::Board;
    use crate::search::common::test_support::fixtures::{board_of, p};
    use crate::search::common::{PolicyFactory, PositionFactory};
    use std::sync::Arc;

    /// The evaluator's value of `board` after `stone`, for the side that placed it, recomputed
    /// from a bare board.
    fn value_after(evaluator: &Evaluator, board: &Board, stone: Point) -> f64 {
        let mover = board.to_move();
        let mut after = board.clone();
        after.play(stone).unwrap();
        let wp = evaluator.win_probability_of_board(&after);
        let v = if after.to_move() == mover {
            wp
        } else {
            1.0 - wp
        };
        v.clamp(CERTAIN, 1.0 - CERTAIN)
    }

    #[test]
    fn factors_match_the_evaluator_recomputed_after_each_stone() {
        let evaluator = sample_evaluator();
        let factory = PolicyFactory::new(Arc::new(Gammas::uniform()));
        let params = SearchParams {
            eval_prior_plies: 2,
            ..SearchParams::default()
        };
        let mut probe = None;
        // A turn's first stone (Black to place two), then its second: the stone's side stays to
        // move, then the opponent does. The probe is reused between the two.
        let first = board_of(&[p(9, 9), p(10, 10), p(8, 10)]);
        let mut second = first.clone();
        second.play(p(9, 11)).unwrap();
        for board in [&first, &second] {
            let pos = factory.position(board);
            let mut list = Vec::new();
            pos.candidates(&mut list);
            // Distinct weights, so that the order after sorting is known.
            for (k, c) in list.iter_mut().enumerate() {
                c.1 = 1.0 + k as f32;
            }
            let before = list.clone();
            let evaluator = prior_evaluator(&params, Some(&evaluator)).unwrap();
            let (weight, valued) = (1.5, 6);
            reweight(&pos, evaluator, &mut probe, weight, valued, &mut list);
            let mut sorted = before.clone();
            sorted.sort_by(|a, b| b.1.total_cmp(&a.1));
            let logit = |v: f64| crate::math::ln(v / (1.0 - v));
            let logits: Vec<f64> = sorted[..valued]
                .iter()
                .map(|c| logit(value_after(evaluator, board, c.0)))
                .collect();
            let best = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let factors: Vec<f64> = logits
                .iter()
                .map(|l| crate::math::exp(f64::from(weight) * (l - best)))
                .collect();
            let floor = factors.iter().copied().fold(1.0, f64::min);
            assert_eq!(list.len(), before.len());
            for (k, (c, old)) in list.iter().zip(&sorted).enumerate() {
                assert_eq!(c.0, old.0, "the list comes back in the old order");
                let f = factors.get(k).copied().unwrap_or(floor);
                let want = f64::from(old.1) * f;
                assert!(
                    (f64::from(c.1) - want).abs() <= 1e-4 * want.max(1e-6),
                    "{:?}: {} against {want}",
                    c.0,
                    c.1
                );
            }
            assert!(factors.iter().any(|&f| (f - 1.0).abs() < 1e-12));
            // The probe holds the position again: every stone was taken back.
            assert_eq!(probe.as_ref().unwrap().board().history(), board.history());
        }
    }

    #[test]
    fn off_without_plies_or_weight() {
        let evaluator = sample_evaluator();
        let mut probe = None;
        assert!(prior_evaluator(&SearchParams::default(), Some(&evaluator)).is_none());
        let on = SearchParams {
            eval_prior_plies: 1,
            ..SearchParams::default()
        };
        assert!(prior_evaluator(&on, None).is_none());
        let factory = PolicyFactory::new(Arc::new(Gammas::uniform()));
        let pos = factory.position(&board_of(&[p(9, 9)]));
        let mut list = Vec::new();
        pos.candidates(&mut list);
        let before = list.clone();
        reweight(&pos, &evaluator, &mut probe, 0.0, 8, &mut list);
        assert_eq!(list, before, "weight 0 changes nothing");
        assert!(probe.is_none(), "and values nothing");
    }
}
