//! Quiet wins in the tree (`search.solver_quiet_win_pairs`): the most visited pairs below a
//! turn-start node are checked for a turn that makes no threat yet leaves the opponent lost
//! ([`defender_lost`]). Ours at the root are marked won and played; the opponent's replies below
//! a pair the pair check verifies, when one wins, prove that pair lost. The tree alone rarely
//! proves either: the proof needs every defending pair of the turn after, four stones below the
//! node, each solved with far more nodes than an expansion's solve.

use super::super::node::Proof;
use super::super::proven::propagate;
use super::super::tree::{Tree, ROOT};
use super::super::SearchParams;
use super::pair_check::CheckBudget;
use super::RootTactics;
use crate::notation::format_gtp;
use crate::patterns::stones_left;
use crate::rules::{Board, Point};
use crate::tactics::{defender_lost, QuietWin, QuietWinLimits, ThreatBoard};
use web_time::Instant;

/// The most visited turns below the node `parent` (an edge; `ROOT` for the root), at most `max`:
/// pairs of edges when a whole turn starts there (`whole_turn`), else single edges (a turn's
/// second stone). Edges proven or excluded are left out; the most visited turns come first.
fn top_turns(tree: &Tree, parent: u32, whole_turn: bool, max: usize) -> Vec<Vec<u32>> {
    let by_visits = |edge: u32| -> Vec<u32> {
        let Some(children) = tree.children(edge) else {
            return Vec::new();
        };
        let mut open: Vec<u32> = children
            .range()
            .filter(|&i| tree.edge(i).proof() == Proof::Unknown && tree.edge(i).stats().visits > 0)
            .collect();
        open.sort_by_key(|&i| std::cmp::Reverse(tree.edge(i).stats().visits));
        open.truncate(max);
        open
    };
    if !whole_turn {
        return by_visits(parent).into_iter().map(|e| vec![e]).collect();
    }
    let mut pairs: Vec<Vec<u32>> = by_visits(parent)
        .into_iter()
        .flat_map(|first| {
            by_visits(first)
                .into_iter()
                .map(move |second| vec![first, second])
        })
        .collect();
    pairs.sort_by_key(|p| std::cmp::Reverse(tree.edge(p[1]).stats().visits));
    pairs.truncate(max);
    pairs
}

impl RootTactics {
    /// Looks for a quiet win among the most visited turns below the node at the end of `path`
    /// (edges from the root; `board` is the root's position). The first one found is marked won
    /// and its proof backed up; returns its stones.
    pub(super) fn find_quiet_win(
        &mut self,
        tree: &Tree,
        params: &SearchParams,
        board: &Board,
        path: &[u32],
        budget: CheckBudget,
    ) -> Option<Vec<Point>> {
        let max = params.tactics.solver_quiet_win_pairs as usize;
        if max == 0 {
            return None;
        }
        let size = board.size();
        let point = |tree: &Tree, e: u32| Point::from_index(tree.edge(e).cell() as usize, size);
        let mut node_board = board.clone();
        for &e in path {
            node_board.play(point(tree, e)).ok()?;
        }
        if node_board.is_over() {
            return None;
        }
        let whole_turn = stones_left(&node_board) == 2;
        let parent = path.last().copied().unwrap_or(ROOT);
        let first_nodes = self.solver.total_nodes();
        for turn in top_turns(tree, parent, whole_turn, max) {
            let spent = self.solver.total_nodes() - first_nodes;
            if budget.nodes <= spent || budget.deadline.is_some_and(|d| Instant::now() >= d) {
                return None;
            }
            let stones: Vec<Point> = turn.iter().map(|&e| point(tree, e)).collect();
            let mut after = node_board.clone();
            if stones.iter().any(|&p| after.play(p).is_err()) || after.is_over() {
                continue;
            }
            if !self.checked_quiet.insert(after.hash()) {
                continue;
            }
            let tactics = &params.tactics;
            let limits = QuietWinLimits {
                vcdt_nodes: tactics.solver_root_nodes,
                // Four times the root's verification limit: with 5,000 nodes the verifications
                // of Cloudict's quiet win in game 9 stay undecided; 20,000 prove it.
                verify_nodes: tactics.solver_verify_nodes.saturating_mul(4),
                max_nodes: budget.nodes - spent,
                max_time: budget
                    .deadline
                    .map(|d| d.saturating_duration_since(Instant::now())),
                free_reach: tactics.solver_free_reach,
            };
            let mut tb = ThreatBoard::from_board(&after);
            let answer = defender_lost(&mut self.solver, &mut tb, after.to_move(), &limits);
            tracing::debug!(
                "quiet-win check: {} {answer:?}",
                stones
                    .iter()
                    .map(|&p| format_gtp(p))
                    .collect::<Vec<_>>()
                    .join(" ")
            );
            if answer != QuietWin::Win {
                continue;
            }
            let last = *turn.last().expect("a turn has a stone");
            tree.edge(last).set_proof(Proof::Win);
            let mut full = vec![ROOT];
            full.extend(path);
            full.extend(&turn);
            propagate(tree, &full, board.stone_count(), size * size);
            let names: Vec<String> = stones.iter().map(|&p| format_gtp(p)).collect();
            tracing::info!("quiet win: {} leaves no defence", names.join(" "));
            return Some(stones);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::super::pair_check::tests::{before_the_mistake, block, favouring, AMPLE};
    use super::*;
    use crate::tactics::suite::replay;

    /// Game 9 of the `paircheck40` run against Cloudict depth 4 (the game of pair_check's tests):
    /// after Liuzi's i13 h12, Black's quiet m9 k9 leaves White no defending pair.
    #[test]
    fn our_quiet_win_among_the_best_pairs_is_marked_won() {
        let board = replay("l10 h10-j11 k11-j12 i13-h12").unwrap();
        let (mut search, [firsts, seconds]) = favouring(["m9", "a1"], ["k9", "a2"]);
        // Off: nothing is looked at.
        search.params.tactics.solver_quiet_win_pairs = 0;
        assert_eq!(
            search
                .tactics
                .find_quiet_win(&search.tree, &search.params, &board, &[], AMPLE),
            None
        );
        search.params.tactics.solver_quiet_win_pairs = 4;
        let win = search
            .tactics
            .find_quiet_win(&search.tree, &search.params, &board, &[], AMPLE)
            .expect("a quiet win");
        let names: Vec<String> = win
            .iter()
            .map(|&p| crate::notation::format_games(p))
            .collect();
        assert_eq!(names, ["m9", "k9"]);
        let tree = &search.tree;
        assert_eq!(tree.edge(seconds.first).proof(), Proof::Win);
        assert_eq!(tree.edge(firsts.first).proof(), Proof::Win);
        // Each position is looked at once.
        assert_eq!(
            search
                .tactics
                .find_quiet_win(&search.tree, &search.params, &board, &[], AMPLE),
            None
        );
    }

    #[test]
    fn the_opponents_quiet_reply_proves_our_pair_lost() {
        let board = before_the_mistake();
        let (mut search, [_, seconds]) = favouring(["i13", "a1"], ["h12", "a2"]);
        search.params.tactics.solver_quiet_win_pairs = 4;
        // Black's most visited reply to i13 h12 is the game's m9 k9.
        let cell = super::super::pair_check::tests::cell;
        let replies = block(
            &search.tree,
            seconds.first,
            &[cell("m9"), cell("a3")],
            &[50, 5],
        );
        let seconds_of_reply = block(
            &search.tree,
            replies.first,
            &[cell("k9"), cell("a4")],
            &[30, 3],
        );
        assert!(search
            .tactics
            .check_pairs(&search.tree, &search.params, &board, AMPLE));
        let tree = &search.tree;
        assert_eq!(tree.edge(seconds_of_reply.first).proof(), Proof::Win);
        assert_eq!(tree.edge(replies.first).proof(), Proof::Win);
        assert_eq!(tree.edge(seconds.first).proof(), Proof::Loss);
    }
}
