//! Pair verification (`search.verify_depth`), an MCTS-minimax hybrid at the root: the turns the
//! search rates well (the most visited, each with a tenth of the best one's visits at least)
//! are judged again by a fixed-depth alpha-beta search from the opponent's side, and the turn
//! judged best is played. The tree's averages weigh a turn by how its playouts went; the judge
//! sees the opponent's best replies a few stones deep through the evaluator, as our alpha-beta
//! does (docs/search.md, in-tree tactics).

use super::super::node::Proof;
use super::super::proven::root_choice;
use super::super::tree::{Tree, ROOT};
use super::super::SearchParams;
use super::pair_check::{best_second, board_after};
use super::RootTactics;
use crate::notation::format_gtp;
use crate::rules::{Board, Point, Stage};
use crate::search::common::{JudgeLimits, ThinkObserver};
use web_time::Instant;

/// A turn enters the verification with at least this share of the chosen turn's visits: the
/// judge arbitrates between turns the search rates well, not turns it has seen refuted. (A
/// third left no other candidate at most stones: the root's visits gather on one turn.)
const MIN_VISIT_SHARE: f64 = 0.1;

/// Alpha-beta nodes per playout of a playout-limited search without a clock (alpha-beta visits
/// about 100,000 nodes a second where the MCTS runs about 16,000 playouts), so fixed-playout
/// searches stay reproducible.
const NODES_PER_PLAYOUT: u64 = 2;

/// The root children to verify, the search's choice first, then by visits.
fn candidates(tree: &Tree, chosen: u32, count: usize) -> Vec<u32> {
    let Some(children) = tree.children(ROOT) else {
        return Vec::new();
    };
    let floor = MIN_VISIT_SHARE * f64::from(tree.edge(chosen).stats().visits);
    let mut others: Vec<u32> = children
        .range()
        .filter(|&i| {
            i != chosen
                && tree.edge(i).proof() == Proof::Unknown
                && f64::from(tree.edge(i).stats().visits) >= floor
        })
        .collect();
    others.sort_by_key(|&i| (std::cmp::Reverse(tree.edge(i).stats().visits), i));
    let mut list = vec![chosen];
    list.extend(others.into_iter().take(count.saturating_sub(1)));
    list
}

impl RootTactics {
    /// After the search, the pair verification (a hook the core calls): judges the candidate
    /// turns; returns the root child to play instead of the search's choice, when one is judged
    /// better. Every judgement shares the time to `deadline` (and, with a playout limit
    /// `playout_cap`, [`NODES_PER_PLAYOUT`] alpha-beta nodes a playout) equally; a judgement that does not reach the depth leaves the
    /// turn out, and the search's own choice unjudged leaves it standing. A stop from
    /// `observer` ends the judgement under way (and so leaves the rest unjudged).
    pub(in super::super) fn verify(
        &mut self,
        tree: &Tree,
        params: &SearchParams,
        board: &Board,
        deadline: Option<Instant>,
        playout_cap: Option<u64>,
        observer: Option<&dyn ThinkObserver>,
    ) -> Option<u32> {
        let nodes = playout_cap.map(|n| n.saturating_mul(NODES_PER_PLAYOUT).max(1));
        let depth = params.verify_depth;
        let judge = self.judge.as_mut()?;
        let chosen = root_choice(tree, params)?;
        if tree.edge(chosen).proof() == Proof::Win {
            return None;
        }
        let list = candidates(tree, chosen, params.verify_pairs as usize);
        if list.len() < 2 {
            tracing::debug!("verify: no other turn with a tenth of the search's choice's visits");
            return None;
        }
        let started = Instant::now();
        let size = board.size();
        let point = |e: u32| Point::from_index(tree.edge(e).cell() as usize, size);
        let mut best: Option<(u32, f64)> = None;
        let mut chosen_value = None;
        let mut notes = Vec::new();
        for (k, &first) in list.iter().enumerate() {
            let mut stones = vec![point(first)];
            if board.stage() == Stage::First {
                match best_second(tree, params, first) {
                    Some(second) => stones.push(point(second)),
                    None => continue,
                }
            }
            // A pair that ends the game is proven in the tree, never a candidate here.
            let Some(after) = board_after(board, &stones) else {
                continue;
            };
            let left = (list.len() - k) as u32;
            let limits = JudgeLimits {
                depth,
                deadline: deadline.map(|d| {
                    let now = Instant::now();
                    now + d.saturating_duration_since(now) / left
                }),
                nodes: nodes.map(|n| n / u64::from(left)),
                observer,
            };
            let verdict = judge.judge(&after, limits).filter(|j| j.depth == depth);
            let names: Vec<String> = stones.iter().map(|&p| format_gtp(p)).collect();
            let Some(j) = verdict else {
                notes.push(format!("{} -", names.join(" ")));
                if first == chosen {
                    return None;
                }
                continue;
            };
            let ours = 1.0 - j.win_probability;
            notes.push(format!("{} {:.1}%", names.join(" "), 100.0 * ours));
            if first == chosen {
                chosen_value = Some(ours);
            }
            if best.is_none_or(|(_, v)| ours > v) {
                best = Some((first, ours));
            }
        }
        let (mut pick, value) = best?;
        // Another turn must beat the search's choice by more than the margin; with a margin, a
        // choice left unjudged (no second stone in the tree to make its pair) stands.
        let margin = f64::from(params.verify_margin);
        let keep = match chosen_value {
            Some(c) => value <= c + margin,
            None => margin > 0.0,
        };
        if keep {
            pick = chosen;
        }
        let line = format!(
            "verify depth {depth}: {} -> {} ({:.3} s)",
            notes.join(", "),
            format_gtp(point(pick)),
            started.elapsed().as_secs_f64()
        );
        if pick == chosen {
            tracing::debug!("{line}");
            None
        } else {
            tracing::info!("{line} (the search's choice overruled)");
            Some(pick)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::pair_check::tests::{before_the_mistake, block, cell};
    use super::*;
    use crate::search::common::test_support::SimpleFactory;
    use crate::search::common::{Judgement, PositionJudge};
    use crate::search::mcts::Search;
    use crate::search::Limits;
    use std::sync::atomic::{AtomicU32, Ordering};
    use std::sync::Arc;

    /// Judges the side to move lost wherever `favoured` is on the board (we placed it), even
    /// elsewhere, and reaches the asked depth except where `shallow` is on the board.
    struct Stub {
        favoured: Point,
        shallow: Option<Point>,
    }

    impl PositionJudge for Stub {
        fn judge(&mut self, board: &Board, limits: JudgeLimits<'_>) -> Option<Judgement> {
            let has = |p: Point| board.history().contains(&p);
            Some(Judgement {
                win_probability: if has(self.favoured) { 0.1 } else { 0.5 },
                depth: if self.shallow.is_some_and(has) {
                    limits.depth - 1
                } else {
                    limits.depth
                },
                nodes: 1,
            })
        }
    }

    fn point(name: &str) -> Point {
        Point::from_index(cell(name) as usize, 19)
    }

    /// Root turns c3 (100 visits, the search's choice), e5 (40) and g7 (5: under a tenth), each
    /// with second stones; the stub favours `favoured`.
    fn verified(favoured: &str, shallow: Option<&str>) -> Option<Point> {
        verified_with_margin(favoured, shallow, 0.0)
    }

    /// [`verified`] with `search.verify_margin` set.
    fn verified_with_margin(favoured: &str, shallow: Option<&str>, margin: f32) -> Option<Point> {
        let turns = [
            ("c3", 100, &["c4", "c5"][..]),
            ("e5", 40, &["e6", "e7"][..]),
            ("g7", 5, &["g8", "g9"][..]),
        ];
        judged_at_root(&turns, favoured, shallow, margin)
    }

    /// The verification's pick from a root of `turns` (first stone, visits, second stones with
    /// 30 and 20 visits; none: no pair to judge), the first the search's choice; the stub
    /// favours `favoured`.
    fn judged_at_root(
        turns: &[(&str, u32, &[&str])],
        favoured: &str,
        shallow: Option<&str>,
        margin: f32,
    ) -> Option<Point> {
        let params = SearchParams {
            max_nodes: 1 << 10,
            verify_depth: 4,
            verify_margin: margin,
            ..SearchParams::default()
        };
        let mut search = Search::new(params, SimpleFactory);
        let firsts: Vec<u16> = turns.iter().map(|t| cell(t.0)).collect();
        let visits: Vec<u32> = turns.iter().map(|t| t.1).collect();
        let firsts = block(&search.tree, ROOT, &firsts, &visits);
        for (k, (_, _, seconds)) in turns.iter().enumerate() {
            if !seconds.is_empty() {
                let seconds: Vec<u16> = seconds.iter().map(|&n| cell(n)).collect();
                block(&search.tree, firsts.first + k as u32, &seconds, &[30, 20]);
            }
        }
        search.set_judge(Some(Box::new(Stub {
            favoured: point(favoured),
            shallow: shallow.map(point),
        })));
        let board = before_the_mistake();
        let size = board.size();
        search
            .tactics
            .verify(&search.tree, &search.params, &board, None, None, None)
            .map(|e| Point::from_index(search.tree.edge(e).cell() as usize, size))
    }

    #[test]
    fn the_turn_judged_best_among_the_well_visited_is_played() {
        // e5 with its most visited second stone e6 is judged better than c3 c4.
        assert_eq!(verified("e6", None), Some(point("e5")));
        // e5 with e7 is not the turn the search would play with e5: nothing changes.
        assert_eq!(verified("e7", None), None);
        // g7 has under a tenth of c3's visits: not judged.
        assert_eq!(verified("g7", None), None);
        // The search's own choice judged best stands.
        assert_eq!(verified("c4", None), None);
    }

    #[test]
    fn another_turn_must_beat_the_search_s_choice_by_the_margin() {
        // The stub rates e5 e6 at 90% for us and c3 c4 at 50%: 40 points better.
        assert_eq!(verified_with_margin("e6", None, 0.3), Some(point("e5")));
        assert_eq!(verified_with_margin("e6", None, 0.45), None, "not by more");
    }

    #[test]
    fn with_a_margin_an_unjudged_choice_stands() {
        // c3, the search's choice, has no second stone in the tree: no pair to judge.
        let turns = [("c3", 100, &[][..]), ("e5", 40, &["e6", "e7"][..])];
        let judged = |margin| judged_at_root(&turns, "e6", None, margin);
        assert_eq!(judged(0.0), Some(point("e5")), "no margin: any judged turn");
        assert_eq!(judged(0.1), None);
    }

    /// Counts the positions it is asked to judge.
    struct Counter(Arc<AtomicU32>);

    impl PositionJudge for Counter {
        fn judge(&mut self, _: &Board, limits: JudgeLimits<'_>) -> Option<Judgement> {
            self.0.fetch_add(1, Ordering::Relaxed);
            Some(Judgement {
                win_probability: 0.5,
                depth: limits.depth,
                nodes: 1,
            })
        }
    }

    /// How many positions a whole search of `board` (fixed playouts) has judged.
    fn judged_in_search(board: &Board, verify_stones: u32) -> u32 {
        let params = SearchParams {
            verify_depth: 4,
            verify_stones,
            seed: 1,
            ..SearchParams::default()
        };
        let mut search = Search::new(params, SimpleFactory);
        let count = Arc::new(AtomicU32::new(0));
        search.set_judge(Some(Box::new(Counter(Arc::clone(&count)))));
        let limits = Limits {
            playouts: Some(400),
            ..Limits::default()
        };
        search.think(board, &limits).expect("a game still going");
        count.load(Ordering::Relaxed)
    }

    #[test]
    fn the_verification_keeps_to_the_opening_when_asked() {
        // Three stones, a quiet position: the search's visits spread over several turns.
        let mut board = Board::standard();
        for name in ["k10", "j11", "l9"] {
            board.play(point(name)).unwrap();
        }
        assert!(judged_in_search(&board, 0) >= 2, "the whole game");
        assert!(
            judged_in_search(&board, 4) >= 2,
            "three stones is fewer than four"
        );
        assert_eq!(
            judged_in_search(&board, 3),
            0,
            "three stones is not fewer than three"
        );
    }

    #[test]
    fn a_judgement_short_of_the_depth_does_not_count() {
        // e5 e6's judgement stops short: c3 stands.
        assert_eq!(verified("e6", Some("e6")), None);
        // The search's own turn unjudged: no verdict at all, even for a better-judged turn.
        assert_eq!(verified("e6", Some("c3")), None);
    }
}
