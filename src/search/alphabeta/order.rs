//! Which stones a node searches, in what order (docs/tactics.md, VCDT: forced replies; then the
//! Bradley-Terry policy): the blocking stones when the opponent threatens a six (all of them:
//! forced stones are never cut), otherwise the `width` empty cells of highest weight. The
//! transposition table's stone goes first.

use crate::policy::PolicyBoard;
use crate::rules::Point;

/// Fills `out` with the cells to search at `pb`, best first.
pub(super) fn ordered_moves(
    pb: &PolicyBoard,
    width: usize,
    hint: Option<u16>,
    out: &mut Vec<(u16, f64)>,
) {
    out.clear();
    let board = pb.board();
    let size = board.size();
    let blocks = pb.blocking_points();
    let forced = !blocks.is_empty();
    if forced {
        out.extend(
            blocks
                .points(size)
                .map(|p| (p.index(size) as u16, pb.weight(p))),
        );
    } else {
        out.extend(
            board
                .legal_points()
                .map(|p| (p.index(size) as u16, pb.weight(p)))
                .filter(|&(_, w)| w > 0.0),
        );
    }
    let better = |a: &(u16, f64), b: &(u16, f64)| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0));
    if !forced && out.len() > width {
        out.select_nth_unstable_by(width - 1, better);
        out.truncate(width);
    }
    out.sort_unstable_by(better);
    if let Some(cell) = hint {
        let p = Point::from_index(cell as usize, size);
        let allowed = board.is_empty_at(p) && (!forced || blocks.contains(cell as usize));
        if let Some(i) = out.iter().position(|m| m.0 == cell) {
            out[..=i].rotate_right(1);
        } else if allowed {
            out.insert(0, (cell, pb.weight(p)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::Gammas;
    use crate::rules::Board;
    use crate::search::common::test_support::fixtures::{board_of, p, white_live_four};
    use crate::search::proximity_gammas;
    use std::sync::Arc;

    #[test]
    fn proximity_ordering_prefers_cells_next_to_stones() {
        let mut b = Board::standard();
        b.play(p(9, 9)).unwrap();
        let pb = PolicyBoard::new(&b, Arc::new(proximity_gammas()));
        let mut out = Vec::new();
        ordered_moves(&pb, 8, None, &mut out);
        assert!(out
            .iter()
            .all(|m| Point::from_index(m.0 as usize, 19).distance(p(9, 9)) == 1));
    }

    #[test]
    fn width_hint_and_forced_blocks() {
        let mut b = Board::standard();
        b.play(p(9, 9)).unwrap();
        let pb = PolicyBoard::new(&b, Arc::new(Gammas::uniform()));
        let mut out = Vec::new();
        ordered_moves(&pb, 5, None, &mut out);
        assert_eq!(out.len(), 5);
        // Uniform weights: ties broken by cell index.
        assert!(out.windows(2).all(|w| w[0].0 < w[1].0));
        ordered_moves(&pb, 5, Some(200), &mut out);
        assert_eq!((out.len(), out[0].0), (6, 200));
        ordered_moves(&pb, 5, Some(out[3].0), &mut out);
        assert_eq!(out.len(), 5);
        // An occupied hint is ignored.
        ordered_moves(&pb, 5, Some(p(9, 9).index(19) as u16), &mut out);
        assert!(out.iter().all(|m| m.0 != p(9, 9).index(19) as u16));

        // White has a live four on row 5 (3..=6): Black must block, and every stone of a
        // smallest blocking set is kept whatever the width.
        let b = board_of(&white_live_four());
        let pb = PolicyBoard::new(&b, Arc::new(Gammas::uniform()));
        ordered_moves(&pb, 1, Some(p(0, 0).index(19) as u16), &mut out);
        let mut cells: Vec<Point> = out
            .iter()
            .map(|m| Point::from_index(m.0 as usize, 19))
            .collect();
        cells.sort();
        assert_eq!(cells, vec![p(1, 5), p(2, 5), p(7, 5), p(8, 5)]);
    }
}
