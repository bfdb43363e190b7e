//! The pair check (`search.solver_pair_check_share`): after the search, the pair it would play is
//! checked against the opponent's threat wins that the tree's small solves cannot see: a VCDT
//! solved with the root's node limit, and a win that starts with a single threat
//! ([`single_threat_win`]: a four plus a building stone, after which no block-and-free-stone pair
//! of ours stops a VCDT). These are how Cloudict wins most of its games against us (docs/search.md,
//! in-tree tactics), and, when asked, a quiet win of the opponent's found in threat space
//! (docs/tactics.md, the solver). A pair proven lost is marked so in the tree, the loss backs up,
//! and the next best pair is checked while the check's time lasts.

use super::super::choice::choose;
use super::super::node::Proof;
use super::super::proven::{propagate, root_choice};
use super::super::tree::{Tree, ROOT};
use super::super::SearchParams;
use super::RootTactics;
use crate::notation::format_gtp;
use crate::patterns::CellSet;
use crate::rules::{Board, Point, Stage};
use crate::search::common::quiet_turn_limits;
use crate::tactics::{
    find_quiet_turn, partner_besides, single_threat_win, DefenceLimits, Partner, QuietTurn,
    SingleThreat, SingleThreatLimits, Solver, SolverLimits, ThreatBoard, Verdict,
};
use web_time::Instant;

/// With a playout limit and no clock, the checks place at most this many solver stones per
/// playout of the stone's limit (a solver stone costs about a third of a microsecond, a playout
/// some tens), so fixed-playout searches stay reproducible and their checks small.
pub(super) const NODES_PER_PLAYOUT: u64 = 20;

/// How far one check may go.
#[derive(Clone, Copy, Debug)]
pub(super) struct CheckBudget {
    pub deadline: Option<Instant>,
    /// Solver stones of all the checks together.
    pub nodes: u64,
}

/// The edges from the root to the last stone of the turn the search would play now: the root
/// child it would choose, and at a turn's first stone that child's chosen child not proven
/// lost. `None` when there is no such pair yet.
fn chosen_pair(tree: &Tree, params: &SearchParams, stage: Stage) -> Option<Vec<u32>> {
    let first = root_choice(tree, params)?;
    if stage == Stage::Second {
        return Some(vec![first]);
    }
    Some(vec![first, best_second(tree, params, first)?])
}

/// The visited child of `first` (a turn's first stone) not proven lost that the search would
/// choose there ([`choose`]): the second stone it would play with it.
pub(super) fn best_second(tree: &Tree, params: &SearchParams, first: u32) -> Option<u32> {
    let open = tree
        .children(first)?
        .range()
        .filter(|&i| tree.edge(i).proof() == Proof::Unknown && tree.edge(i).stats().visits > 0);
    choose(tree, params, open)
}

/// How the opponent wins after one of our pairs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Refutation {
    /// A VCDT (its principal line).
    Vcdt(Vec<Point>),
    /// A single-threat turn that wins.
    SingleThreat([Point; 2]),
    /// A quiet turn after which none of our pairs stops its VCDT.
    Quiet(Vec<Point>),
}

impl std::fmt::Display for Refutation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (what, stones) = match self {
            Refutation::Vcdt(line) => ("VCDT", line.as_slice()),
            Refutation::SingleThreat(turn) => ("single threat", turn.as_slice()),
            Refutation::Quiet(turn) => ("quiet turn", turn.as_slice()),
        };
        let names: Vec<String> = stones.iter().map(|&p| format_gtp(p)).collect();
        write!(f, "{what} {}", names.join(" "))
    }
}

/// `board` with our `stones` played, when the game goes on.
pub(super) fn board_after(board: &Board, stones: &[Point]) -> Option<Board> {
    let mut after = board.clone();
    for &p in stones {
        after.play(p).ok()?;
    }
    (!after.is_over()).then_some(after)
}

fn time_left(budget: CheckBudget) -> Option<std::time::Duration> {
    budget
        .deadline
        .map(|d| d.saturating_duration_since(Instant::now()))
}

/// The opponent's VCDT after our `stones`, within `vcdt_nodes` and the budget.
pub(super) fn vcdt_after(
    solver: &mut Solver,
    board: &Board,
    stones: &[Point],
    vcdt_nodes: u64,
    free_reach: u8,
    budget: CheckBudget,
) -> Option<Refutation> {
    let after = board_after(board, stones)?;
    solver.limits = SolverLimits {
        max_nodes: vcdt_nodes.min(budget.nodes).max(1),
        max_time: time_left(budget),
        free_reach,
        ..SolverLimits::default()
    };
    match solver.solve(&after) {
        Verdict::Win(proof) => Some(Refutation::Vcdt(proof.line)),
        _ => None,
    }
}

/// The opponent's single-threat win after our `stones`, within the budget.
pub(super) fn single_threat_after(
    solver: &mut Solver,
    board: &Board,
    stones: &[Point],
    free_reach: u8,
    budget: CheckBudget,
) -> Option<Refutation> {
    let after = board_after(board, stones)?;
    let limits = SingleThreatLimits {
        max_nodes: budget.nodes.max(1),
        max_time: time_left(budget),
        free_reach,
        ..SingleThreatLimits::default()
    };
    let mut tb = ThreatBoard::from_board(&after);
    match single_threat_win(solver, &mut tb, after.to_move(), 2, &limits) {
        SingleThreat::Win(turn) => Some(Refutation::SingleThreat(turn)),
        SingleThreat::None | SingleThreat::Unknown => None,
    }
}

impl RootTactics {
    /// Checks the pair the search would play, and the next best while pairs are proven lost and
    /// the budget's time lasts. Each position is checked once per game. Returns whether any pair
    /// was marked lost.
    pub(super) fn check_pairs(
        &mut self,
        tree: &Tree,
        params: &SearchParams,
        board: &Board,
        budget: CheckBudget,
    ) -> bool {
        let size = board.size();
        let mut marked = false;
        let first_node = self.solver.total_nodes();
        while budget.deadline.is_none_or(|d| Instant::now() < d) {
            // The node budget is for all the checks together.
            let spent = self.solver.total_nodes() - first_node;
            let budget = CheckBudget {
                nodes: budget.nodes.saturating_sub(spent),
                ..budget
            };
            if budget.nodes == 0 {
                break;
            }
            let Some(path) = chosen_pair(tree, params, board.stage()) else {
                break;
            };
            let stones: Vec<Point> = path
                .iter()
                .map(|&e| Point::from_index(tree.edge(e).cell() as usize, size))
                .collect();
            let mut key_board = board.clone();
            for &p in &stones {
                let _ = key_board.play(p);
            }
            if !self.checked_pairs.insert(key_board.hash()) {
                break;
            }
            // The cheap VCDT first, then the opponent's best replies in the tree for a quiet
            // win (marked won there; the loss backs up to the pair), then the single threats.
            let (vcdt_nodes, reach) = (
                params.tactics.solver_root_nodes,
                params.tactics.solver_free_reach,
            );
            let pair_nodes = self.solver.total_nodes();
            let spent = |solver: &Solver| CheckBudget {
                nodes: budget
                    .nodes
                    .saturating_sub(solver.total_nodes() - pair_nodes),
                ..budget
            };
            let why = if let Some(why) =
                vcdt_after(&mut self.solver, board, &stones, vcdt_nodes, reach, budget)
            {
                mark_lost(tree, board, &path);
                why
            } else if let Some(reply) =
                self.find_quiet_win(tree, params, board, &path, spent(&self.solver))
            {
                Refutation::Quiet(reply)
            } else if let Some(reply) = behind(tree, params, path[0])
                .then(|| self.quiet_reply(params, board, &stones, spent(&self.solver)))
                .flatten()
            {
                mark_lost(tree, board, &path);
                Refutation::Quiet(reply)
            } else if let Some(why) = {
                let left = spent(&self.solver);
                single_threat_after(&mut self.solver, board, &stones, reach, left)
            } {
                mark_lost(tree, board, &path);
                why
            } else {
                break;
            };
            let names: Vec<String> = stones.iter().map(|&p| format_gtp(p)).collect();
            tracing::info!("pair check: {} loses to {why}", names.join(" "));
            marked = true;
            if path.len() == 2 && !matches!(why, Refutation::Quiet(_)) {
                self.check_first_stone(tree, params, board, path[0], spent(&self.solver));
            }
        }
        marked
    }

    /// The opponent's quiet win after our `stones` found in threat space
    /// (`solver_pair_check_quiet`), within the budget.
    fn quiet_reply(
        &mut self,
        params: &SearchParams,
        board: &Board,
        stones: &[Point],
        budget: CheckBudget,
    ) -> Option<Vec<Point>> {
        if !params.tactics.solver_pair_check_quiet || budget.nodes == 0 {
            return None;
        }
        let after = board_after(board, stones)?;
        let limits = quiet_turn_limits(&params.tactics, 2, budget.nodes, time_left(budget));
        let mut tb = ThreatBoard::from_board(&after);
        let opponent = after.to_move();
        match find_quiet_turn(&mut self.solver, &mut tb, opponent, 2, &limits) {
            QuietTurn::Win(cells) => Some(cells.iter().map(|&c| tb.point(c as usize)).collect()),
            QuietTurn::None | QuietTurn::Unknown => None,
        }
    }

    /// After a pair with first stone `edge` lost to a VCDT or a single-threat win: does any
    /// second stone save that first stone? Each partner that breaks the VCDT ([`partner_besides`])
    /// is checked for a single-threat win too, and one that loses to it is marked so and the next
    /// partner looked for. If none is left, the first stone is marked lost, so that the check
    /// moves on to other first stones rather than through its second stones one by one (a
    /// single-threat refutation took about 0.25 s of a 0.54 s stone; docs/results.md).
    fn check_first_stone(
        &mut self,
        tree: &Tree,
        params: &SearchParams,
        board: &Board,
        edge: u32,
        budget: CheckBudget,
    ) {
        let first = tree.edge(edge);
        if first.proof() != Proof::Unknown {
            return;
        }
        let size = board.size();
        let start_nodes = self.solver.total_nodes();
        let cell = first.cell() as usize;
        let me = board.to_move();
        // The second stones already proven to lose with this first stone.
        let mut losing = CellSet::new();
        if let Some(children) = tree.children(edge) {
            for i in children.range() {
                if tree.edge(i).proof() == Proof::Loss {
                    losing.insert(tree.edge(i).cell() as usize);
                }
            }
        }
        let mut tb = ThreatBoard::from_board(board);
        // Verifications undecided at the usual limit are tried once more at the root's.
        let mut verify_nodes = params.tactics.solver_verify_nodes;
        loop {
            let spent = self.solver.total_nodes() - start_nodes;
            let left_nodes = budget.nodes.saturating_sub(spent);
            let left = time_left(budget);
            if left_nodes == 0 || left.is_some_and(|t| t.is_zero()) {
                return;
            }
            let tactics = &params.tactics;
            self.solver.limits = SolverLimits {
                max_nodes: tactics.solver_root_nodes.min(left_nodes).max(1),
                max_time: left,
                free_reach: tactics.solver_free_reach,
                ..SolverLimits::default()
            };
            // Within the checks' node budget too: as many verifications as it leaves room for.
            let verify = verify_nodes.min(left_nodes).max(1);
            let limits = DefenceLimits {
                verify_nodes: verify,
                max_verifications: (left_nodes / verify).max(1) as usize,
                max_time: left,
            };
            let reach = tactics.solver_free_reach;
            match partner_besides(&mut self.solver, &mut tb, me, cell, &limits, &mut losing) {
                Partner::Lost => break,
                Partner::With(second) => {
                    let stones = [
                        Point::from_index(cell, size),
                        Point::from_index(second, size),
                    ];
                    let spent = self.solver.total_nodes() - start_nodes;
                    let left = CheckBudget {
                        nodes: budget.nodes.saturating_sub(spent),
                        ..budget
                    };
                    let Some(why) =
                        single_threat_after(&mut self.solver, board, &stones, reach, left)
                    else {
                        return;
                    };
                    tracing::info!(
                        "pair check: {} {} loses to {why}",
                        format_gtp(stones[0]),
                        format_gtp(stones[1])
                    );
                    losing.insert(second);
                    if let Some(child) = tree.find_child(edge, second as u16) {
                        mark_lost(tree, board, &[edge, child]);
                    }
                }
                Partner::Unknown if verify_nodes < tactics.solver_root_nodes => {
                    verify_nodes = tactics.solver_root_nodes;
                }
                Partner::Alone | Partner::Unknown => return,
            }
        }
        let name = format_gtp(Point::from_index(cell, size));
        tracing::info!("pair check: {name} loses with every second stone");
        first.set_proof(Proof::Loss);
        propagate(tree, &[ROOT, edge], board.stone_count(), size * size);
    }
}

/// Whether the opponent's quiet wins are worth a look after the pair starting with the root
/// child `first`: its mean for us is below `solver_pair_check_quiet_below` (1: always).
fn behind(tree: &Tree, params: &SearchParams, first: u32) -> bool {
    let below = params.tactics.solver_pair_check_quiet_below;
    below >= 1.0 || tree.edge(first).stats().mean().is_none_or(|v| v < below)
}

/// Marks the last edge of `path` (from the root) lost and backs the loss up.
fn mark_lost(tree: &Tree, board: &Board, path: &[u32]) {
    let last = *path.last().expect("a pair has a stone");
    tree.edge(last).set_proof(Proof::Loss);
    let mut full = vec![ROOT];
    full.extend(path);
    let size = board.size();
    propagate(tree, &full, board.stone_count(), size * size);
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::super::node::{Children, Stats};
    use super::*;
    use crate::search::common::test_support::SimpleFactory;
    use crate::search::mcts::Search;
    use crate::tactics::suite::replay;

    /// How the opponent wins once `board` (ours to move) has our `stones`, the rest of our turn: a
    /// VCDT within `vcdt_nodes` (`vcdt_after`), or a single-threat win within the budget
    /// (`single_threat_after`). `None` (nothing found) is no proof of safety.
    fn pair_lost(
        solver: &mut Solver,
        board: &Board,
        stones: &[Point],
        vcdt_nodes: u64,
        free_reach: u8,
        budget: CheckBudget,
    ) -> Option<Refutation> {
        let start_nodes = solver.total_nodes();
        vcdt_after(solver, board, stones, vcdt_nodes, free_reach, budget).or_else(|| {
            let spent = solver.total_nodes() - start_nodes;
            let budget = CheckBudget {
                nodes: budget.nodes.saturating_sub(spent),
                ..budget
            };
            single_threat_after(solver, board, stones, free_reach, budget)
        })
    }

    pub(crate) fn cell(name: &str) -> u16 {
        crate::notation::parse_games(name, 19).unwrap().index(19) as u16
    }

    /// Gives `parent` children on `cells`, the k-th with `visits[k]` visits.
    pub(crate) fn block(tree: &Tree, parent: u32, cells: &[u16], visits: &[u32]) -> Children {
        let children = super::super::super::proven::tests::block(tree, parent, cells, false);
        for (k, &v) in visits.iter().enumerate() {
            let stats = Stats { visits: v, wins: 0 };
            tree.edge(children.first + k as u32).set_stats(stats);
        }
        children
    }

    /// A search whose tree favours the pair `firsts[0]`, `seconds[0]` (root children `firsts`
    /// with 100 and 10 visits, the first's children `seconds` with 60 and 40), and both blocks.
    pub(crate) fn favouring(
        firsts: [&str; 2],
        seconds: [&str; 2],
    ) -> (Search<SimpleFactory>, [Children; 2]) {
        let params = SearchParams {
            max_nodes: 1 << 10,
            ..SearchParams::default()
        };
        let search = Search::new(params, SimpleFactory);
        let tree = &search.tree;
        let a = block(tree, ROOT, &firsts.map(cell), &[100, 10]);
        let b = block(tree, a.first, &seconds.map(cell), &[60, 40]);
        (search, [a, b])
    }

    /// No clock, and more nodes than any check here needs.
    pub(crate) const AMPLE: CheckBudget = CheckBudget {
        deadline: None,
        nodes: 20_000_000,
    };

    /// Game 9 of experiments/cloudict/liuzi-vs-cloudict-d4-deepzone.jsonl, White (Liuzi) to
    /// play its second turn against Black's diagonal three l10 k11 j12.
    pub(crate) fn before_the_mistake() -> Board {
        replay("l10 h10-j11 k11-j12").unwrap()
    }

    #[test]
    fn the_pair_liuzi_played_loses_to_a_single_threat_win() {
        let board = before_the_mistake();
        let mut solver = Solver::new(SolverLimits::default());
        let budget = AMPLE;
        let point = |name: &str| Point::from_index(cell(name) as usize, 19);
        let why = pair_lost(
            &mut solver,
            &board,
            &[point("i13"), point("h13")],
            100_000,
            1,
            budget,
        );
        assert!(matches!(why, Some(Refutation::SingleThreat(_))), "{why:?}");
        // A budget too small to decide finds nothing, and says nothing.
        let tiny = CheckBudget {
            deadline: None,
            nodes: 50,
        };
        let mut fresh = Solver::new(SolverLimits::default());
        assert_eq!(
            pair_lost(
                &mut fresh,
                &board,
                &[point("i13"), point("h13")],
                100_000,
                1,
                tiny
            ),
            None
        );
    }

    #[test]
    fn check_pairs_marks_the_chosen_pair_lost_and_moves_on_to_the_next() {
        let board = before_the_mistake();
        // The search's favourite is i13 then h13 (the game's pair); i13 then m9 comes next.
        let (mut search, [_, seconds]) = favouring(["i13", "a1"], ["h13", "m9"]);
        assert!(search
            .tactics
            .check_pairs(&search.tree, &search.params, &board, AMPLE));
        let tree = &search.tree;
        assert_eq!(tree.edge(seconds.first).proof(), Proof::Loss);
        // The next pair, i13 and m9 (both ends of the three blocked), was checked too and
        // nothing was found against it; each position is checked once.
        assert_eq!(tree.edge(seconds.first + 1).proof(), Proof::Unknown);
        assert_eq!(search.tactics.checked_pairs.len(), 2);
        assert!(!search
            .tactics
            .check_pairs(&search.tree, &search.params, &board, AMPLE));
        assert_eq!(search.tactics.checked_pairs.len(), 2);
    }

    #[test]
    fn the_quiet_check_can_wait_until_the_opponent_has_the_initiative() {
        let (mut search, [firsts, _]) = favouring(["g9", "a1"], ["h8", "a2"]);
        let first = firsts.first;
        let mean = |search: &Search<SimpleFactory>, percent: u32| {
            search.tree.edge(first).set_stats(Stats {
                visits: 100,
                wins: percent * super::super::super::node::REWARD_UNIT,
            });
        };
        mean(&search, 70);
        assert!(
            behind(&search.tree, &search.params, first),
            "1, the default: every pair"
        );
        search.params.tactics.solver_pair_check_quiet_below = 0.5;
        assert!(
            !behind(&search.tree, &search.params, first),
            "valued at 70% for us"
        );
        mean(&search, 30);
        assert!(
            behind(&search.tree, &search.params, first),
            "valued at 30% for us"
        );
    }

    #[test]
    fn the_opponents_quiet_win_is_found_from_threat_space() {
        // Game 57 of experiments/cloudict/liuzi-vs-cloudict-d5-own1-5.jsonl: after Liuzi's
        // (White's) g9 h8, Cloudict's l9 j7 left no defence (quiet-win-scan). No tree proposes
        // the quiet turn here.
        let board = replay("j9 m13-i10 i9-h9").unwrap();
        let point = |name: &str| Point::from_index(cell(name) as usize, 19);
        let ours = [point("g9"), point("h8")];
        let (mut search, _) = favouring(["g9", "a1"], ["h8", "a2"]);
        assert!(
            !search.params.tactics.solver_pair_check_quiet,
            "off by default"
        );
        assert_eq!(
            search
                .tactics
                .quiet_reply(&search.params, &board, &ours, AMPLE),
            None
        );
        search.params.tactics.solver_pair_check_quiet = true;
        let reply = search
            .tactics
            .quiet_reply(&search.params, &board, &ours, AMPLE)
            .expect("Black's quiet win");
        // The reply leaves White, to move, with no pair that stops Black's VCDT.
        let mut after = board_after(&board, &ours).unwrap();
        for p in reply {
            after.play(p).unwrap();
        }
        let mut tb = ThreatBoard::from_board(&after);
        let limits = crate::tactics::QuietWinLimits {
            verify_nodes: 20_000,
            ..Default::default()
        };
        let answer = crate::tactics::defender_lost(
            &mut search.tactics.solver,
            &mut tb,
            after.to_move(),
            &limits,
        );
        assert_eq!(answer, crate::tactics::QuietWin::Win);
        // With no nodes to spend, nothing is claimed.
        let none = CheckBudget {
            deadline: None,
            nodes: 0,
        };
        assert_eq!(
            search
                .tactics
                .quiet_reply(&search.params, &board, &ours, none),
            None
        );
    }

    #[test]
    fn a_first_stone_whose_every_second_stone_loses_is_marked_lost() {
        // Two open fours of Black's (row 10 and column c), White to move: no pair of White
        // stones blocks four threats, so j10 loses with any second stone (the position of
        // tactics/defence.rs's partner test).
        let board =
            replay("k10 a19-c19 l10-m10 e19-g19 n10-c3 i19-k19 c4-c5 m19-o19 c6-s1").unwrap();
        let (mut search, [firsts, seconds]) = favouring(["j10", "a1"], ["o10", "c7"]);
        assert!(search
            .tactics
            .check_pairs(&search.tree, &search.params, &board, AMPLE));
        let tree = &search.tree;
        assert_eq!(tree.edge(seconds.first).proof(), Proof::Loss);
        assert_eq!(tree.edge(firsts.first).proof(), Proof::Loss);
        // The check moved on from j10 instead of checking its other second stone: the next
        // first stone, a1, has no searched second stone, so nothing more was checked.
        assert_eq!(tree.edge(seconds.first + 1).proof(), Proof::Unknown);
        assert_eq!(search.tactics.checked_pairs.len(), 1);
    }

    #[test]
    fn a_first_stone_whose_last_partner_loses_to_a_single_threat_is_marked_lost() {
        // Game 4 of experiments/cloudict/liuzi-vs-cloudict-d4-depthstart.jsonl, Black (Liuzi)
        // to move: White has a VCDT if Black passes; with e9 the only second stone that breaks
        // it (by the root's verifications) is j9, and then White wins with the single threat
        // i7 i10. Liuzi played e9 and lost.
        let board = replay("h13 i9-j7 i12-h11 h9-g10 f11-g12 f9-i8 k6-i14 d9-j15").unwrap();
        let (mut search, [firsts, seconds]) = favouring(["e9", "a1"], ["j9", "a2"]);
        assert!(search
            .tactics
            .check_pairs(&search.tree, &search.params, &board, AMPLE));
        let tree = &search.tree;
        assert_eq!(tree.edge(seconds.first).proof(), Proof::Loss);
        assert_eq!(tree.edge(firsts.first).proof(), Proof::Loss);
        // No other partner of e9 survives its VCDT: each cell of its zone but j9 verified.
        let mut tb = ThreatBoard::from_board(&board);
        let mut losing = CellSet::new();
        losing.insert(cell("j9") as usize);
        let limits = DefenceLimits {
            verify_nodes: 100_000,
            max_verifications: 400,
            max_time: None,
        };
        let answer = partner_besides(
            &mut search.tactics.solver,
            &mut tb,
            board.to_move(),
            cell("e9") as usize,
            &limits,
            &mut losing,
        );
        assert_eq!(answer, Partner::Lost);
    }
}
