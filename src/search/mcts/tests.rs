//! Behaviour of the whole search on small positions (the tactical and bookkeeping promises).

use super::*;
use crate::rules::{Board, Color, GameResult, Point};
use crate::search::common::test_support::fixtures::{black_four, board_of, p, white_live_four};
use crate::search::common::test_support::{SimpleFactory, SimplePosition};
use crate::search::common::{PolicyFactory, SearchPosition, SearchRng};
use rand::{Rng, SeedableRng};
use std::time::Duration;
use web_time::Instant;

fn params(playouts: u64) -> SearchParams {
    SearchParams {
        playouts,
        max_nodes: 1 << 20,
        ..SearchParams::default()
    }
}

/// For the early-stop tests on `white_live_four`: without the tree's defence zones, whose
/// exact view makes the two orders of the one blocking pair tie (so nothing ever settles), and
/// with the strong prior bias of before (C_BT 2.0), one order draws ahead and the stop can be
/// seen.
fn settling_params(playouts: u64) -> SearchParams {
    let mut p = params(playouts);
    p.tactics.solver_tree_defence = false;
    p.prior_weight = 2.0;
    p
}

fn search(playouts: u64) -> Search<SimpleFactory> {
    Search::new(params(playouts), SimpleFactory)
}

fn think(s: &mut Search<SimpleFactory>, b: &Board) -> SearchOutcome {
    s.think(b, &Limits::default()).unwrap()
}

/// A position reached by random play (the simple playout policy) that is still going.
fn random_position(rng: &mut SearchRng, stones: usize) -> Board {
    loop {
        let mut pos = SimplePosition::new(&board_of(&[p(9, 9)]));
        let mut scratch = Vec::new();
        let n = rng.gen_range(1..=stones);
        for _ in 1..n {
            if pos.board().is_over() {
                break;
            }
            let q = super::playout::playout_stone(&mut pos, rng, &mut scratch).unwrap();
            pos.play(q);
        }
        if !pos.board().is_over() {
            return pos.board().clone();
        }
    }
}

#[test]
fn completes_a_six_with_two_stones_and_with_one() {
    let mut s = search(500);
    let mut b = board_of(&black_four());
    let first = think(&mut s, &b);
    assert_eq!(first.decision, Decision::Win);
    b.play(first.best).unwrap();
    let second = think(&mut s, &b);
    b.play(second.best).unwrap();
    assert_eq!(b.result(), GameResult::Win(Color::Black));
}

#[test]
fn the_tree_alone_finds_the_win() {
    // Without the root short-cut the forced set at expansion still leads to the six.
    let s = search(300);
    let b = board_of(&black_four());
    let pos = SimplePosition::new(&b);
    let mut scratch = super::expand::ExpandScratch::default();
    let set = super::expand::child_list(&pos, s.params(), &[], false, None, None, &mut scratch);
    assert!(set.restricted);
    let mut cells: Vec<Point> = scratch.list.iter().map(|c| c.0).collect();
    cells.sort();
    assert_eq!(cells, vec![p(7, 9), p(8, 9), p(13, 9), p(14, 9)]);
}

#[test]
fn max_children_cuts_below_the_turn_being_chosen() {
    let params = SearchParams {
        max_children: 5,
        ..SearchParams::default()
    };
    let b = board_of(&[p(9, 9), p(10, 10), p(8, 10)]);
    let pos = SimplePosition::new(&b);
    let mut scratch = super::expand::ExpandScratch::default();
    super::expand::child_list(&pos, &params, &[], false, None, None, &mut scratch);
    assert_eq!(scratch.list.len(), 5);
    let total: f32 = scratch.list.iter().map(|c| c.1).sum();
    assert!((total - 1.0).abs() < 1e-5);
    let kept: Vec<(Point, f32)> = scratch.list.clone();
    super::expand::child_list(&pos, &params, &[], true, None, None, &mut scratch);
    assert!(scratch.list.len() > 5);
    // The kept children are the root's five best, in the same order.
    let best: Vec<Point> = scratch.list.iter().take(5).map(|c| c.0).collect();
    assert_eq!(kept.iter().map(|c| c.0).collect::<Vec<_>>(), best);
}

#[test]
fn the_opening_keeps_free_choices_near_the_stones() {
    // Three stones, as after a 3-stone opening; the policy's candidates reach farther than 2.
    let stones = [p(9, 8), p(11, 9), p(7, 10)];
    let b = board_of(&stones);
    let factory = PolicyFactory::new(std::sync::Arc::new(crate::policy::Gammas::uniform()));
    let pos = crate::search::common::PositionFactory::position(&factory, &b);
    let far = |list: &[(Point, f32)]| {
        list.iter()
            .filter(|c| stones.iter().all(|&q| c.0.distance(q) > 2))
            .count()
    };
    let mut scratch = super::expand::ExpandScratch::default();
    let open = SearchParams {
        opening_stones: 0,
        ..SearchParams::default()
    };
    super::expand::child_list(&pos, &open, &[], true, None, None, &mut scratch);
    assert!(far(&scratch.list) > 0, "the candidates reach past 2");
    let near = SearchParams {
        opening_stones: 12,
        opening_reach: 2,
        ..SearchParams::default()
    };
    super::expand::child_list(&pos, &near, &[], true, None, None, &mut scratch);
    assert!(!scratch.list.is_empty());
    assert_eq!(far(&scratch.list), 0);
    let total: f32 = scratch.list.iter().map(|c| c.1).sum();
    assert!((total - 1.0).abs() < 1e-5);
    // From opening_stones on, the whole candidate set again.
    let short = SearchParams {
        opening_stones: 3,
        ..near
    };
    super::expand::child_list(&pos, &short, &[], true, None, None, &mut scratch);
    assert!(far(&scratch.list) > 0);
}

#[test]
fn the_shipped_opening_keeps_blacks_first_free_pair_beside_its_own_stones() {
    // The default (docs/results.md, ablations): with 3 stones on the board (B, WW) Black's free
    // choices lie within 1 of its own stone; from 5 stones on, the whole candidate set again.
    let stones = [p(9, 8), p(11, 9), p(7, 10)];
    let factory = PolicyFactory::new(std::sync::Arc::new(crate::policy::Gammas::uniform()));
    let children = |b: &Board| {
        let pos = crate::search::common::PositionFactory::position(&factory, b);
        let mut scratch = super::expand::ExpandScratch::default();
        super::expand::child_list(
            &pos,
            &SearchParams::default(),
            &[],
            true,
            None,
            None,
            &mut scratch,
        );
        scratch.list.iter().map(|c| c.0).collect::<Vec<_>>()
    };
    let first = children(&board_of(&stones));
    assert!(!first.is_empty());
    assert!(
        first.iter().all(|&c| c.distance(stones[0]) <= 1),
        "{first:?}"
    );
    let later = children(&board_of(&[
        stones[0],
        stones[1],
        stones[2],
        p(9, 9),
        p(9, 10),
    ]));
    assert!(later.iter().any(|&c| c.distance(stones[0]) > 2));
}

#[test]
fn the_opening_can_keep_free_choices_near_the_movers_own_stones() {
    // Black's one stone, White's two; Black to move, then Black's second stone.
    let stones = [p(9, 8), p(11, 9), p(7, 10)];
    let factory = PolicyFactory::new(std::sync::Arc::new(crate::policy::Gammas::uniform()));
    let children = |b: &Board, near: super::OpeningNear| {
        let pos = crate::search::common::PositionFactory::position(&factory, b);
        let params = SearchParams {
            opening_stones: 12,
            opening_reach: 2,
            opening_near: near,
            ..SearchParams::default()
        };
        let mut scratch = super::expand::ExpandScratch::default();
        super::expand::child_list(&pos, &params, &[], true, None, None, &mut scratch);
        let total: f32 = scratch.list.iter().map(|c| c.1).sum();
        assert!((total - 1.0).abs() < 1e-5);
        scratch.list.iter().map(|c| c.0).collect::<Vec<_>>()
    };
    let within =
        |list: &[Point], of: &[Point]| list.iter().all(|&c| of.iter().any(|&q| c.distance(q) <= 2));
    use super::OpeningNear::{Black, BlackOwn, Own, Stones};
    let b = board_of(&stones);
    let any = children(&b, Stones);
    assert!(!within(&any, &stones[..1]), "near White's stones too");
    let own = children(&b, Own);
    assert!(!own.is_empty() && within(&own, &stones[..1]));
    assert!(own.len() < any.len());
    // The turn's first stone counts as Black's own for the second.
    let first = p(13, 8);
    let b = board_of(&[stones[0], stones[1], stones[2], first]);
    let own = children(&b, Own);
    assert!(within(&own, &[stones[0], first]));
    assert!(own.iter().any(|&c| c.distance(stones[0]) > 2));
    // White's first stone, with no stone of its own yet: near Black's.
    let b = board_of(&stones[..1]);
    let own = children(&b, Own);
    assert!(!own.is_empty() && within(&own, &stones[..1]));
    // White to move: near its own two stones only.
    let b = board_of(&[stones[0], stones[1], stones[2], first, p(9, 3)]);
    let own = children(&b, Own);
    assert!(within(&own, &stones[1..3]));
    // "black-own": White answers near any stone, Black builds near its own.
    assert_eq!(children(&b, BlackOwn), children(&b, Stones));
    assert!(children(&b, BlackOwn)
        .iter()
        .any(|&c| !within(&[c], &stones[1..3])));
    // "black": White anywhere the candidates reach, Black as with "own".
    let white_free = children(&b, Black);
    assert!(white_free.len() > children(&b, BlackOwn).len());
    assert!(white_free
        .iter()
        .any(|&c| stones.iter().all(|&q| c.distance(q) > 2)));
    let b = board_of(&stones);
    assert_eq!(children(&b, BlackOwn), children(&b, Own));
    assert_eq!(children(&b, Black), children(&b, Own));
}

/// Whether `color`'s opponent can still make six next turn (some threat window unbroken).
fn opponent_threatens(b: &Board) -> bool {
    let pos = SimplePosition::new(b);
    let mut out = Vec::new();
    pos.blocking_points(&mut out);
    !out.is_empty()
}

/// Whether some pair (or single stone at a second stage) of the side to move stops every threat.
fn can_block(b: &Board) -> bool {
    let empties: Vec<Point> = b.legal_points().collect();
    let two = b.stage() == crate::rules::Stage::First;
    for &a in &empties {
        let mut b1 = b.clone();
        b1.play(a).unwrap();
        if !two {
            if !opponent_threatens_after_turn(&b1) {
                return true;
            }
            continue;
        }
        for &c in &empties {
            if c <= a {
                continue;
            }
            let mut b2 = b1.clone();
            b2.play(c).unwrap();
            if !opponent_threatens_after_turn(&b2) {
                return true;
            }
        }
    }
    false
}

/// After our turn (opponent to move): does the opponent have a six available?
fn opponent_threatens_after_turn(b: &Board) -> bool {
    let pos = SimplePosition::new(b);
    let mut out = Vec::new();
    pos.winning_points(&mut out);
    !out.is_empty()
}

#[test]
fn blocks_a_live_four_with_both_stones() {
    // White has a live four on row 5 (3..=6); Black to move, no threat of its own.
    let mut b = board_of(&white_live_four());
    let mut s = search(2000);
    for _ in 0..2 {
        let o = think(&mut s, &b);
        b.play(o.best).unwrap();
    }
    assert!(!opponent_threatens_after_turn(&b), "{:?}", b.history());
}

#[test]
fn blocks_every_blockable_threat_in_random_positions() {
    let mut rng = SearchRng::seed_from_u64(11);
    let mut checked = 0;
    let mut s = search(800);
    while checked < 12 {
        let b = random_position(&mut rng, 60);
        if b.stage() != crate::rules::Stage::First || !opponent_threatens(&b) {
            continue;
        }
        // A win of our own comes first; skip those.
        let mut w = Vec::new();
        SimplePosition::new(&b).winning_points(&mut w);
        if !w.is_empty() || !can_block(&b) {
            continue;
        }
        let mut after = b.clone();
        s.clear();
        for _ in 0..2 {
            let o = think(&mut s, &after);
            after.play(o.best).unwrap();
        }
        assert!(
            !opponent_threatens_after_turn(&after),
            "failed to block in {:?}",
            b.history()
        );
        checked += 1;
    }
}

#[test]
fn never_plays_an_illegal_stone() {
    let mut rng = SearchRng::seed_from_u64(5);
    let mut s = search(200);
    for _ in 0..30 {
        let b = random_position(&mut rng, 120);
        let o = think(&mut s, &b);
        assert!(b.is_empty_at(o.best), "{:?} on {:?}", o.best, b.history());
        for info in &s.analysis().children {
            assert!(b.is_empty_at(info.point));
        }
    }
    // Small boards, down to the minimum size, played to the end.
    for size in [6, 7, 9] {
        let mut b = Board::new(size).unwrap();
        let mut s = search(100);
        while !b.is_over() {
            let o = think(&mut s, &b);
            assert!(b.is_empty_at(o.best));
            b.play(o.best).unwrap();
        }
    }
}

#[test]
fn keeps_to_its_time_budget() {
    let mut s = Search::new(
        SearchParams {
            max_nodes: 1 << 20,
            early_stop: false,
            threads: 2,
            ..SearchParams::default()
        },
        SimpleFactory,
    );
    let b = board_of(&[p(9, 9), p(10, 10), p(8, 10)]);
    let budget = Duration::from_millis(150);
    let start = Instant::now();
    let o = s.think(&b, &Limits::with_time(Some(budget))).unwrap();
    let elapsed = start.elapsed();
    assert!(o.playouts > 0);
    // Generous: a shared machine may hold a thread back for tens of milliseconds (a loaded
    // 2-core run took 232 ms); a search that ignored its deadline, or ran an extension no one
    // gave it, would take seconds.
    assert!(
        elapsed < budget + Duration::from_millis(400),
        "took {elapsed:?} for {budget:?}"
    );
    assert!(elapsed >= budget - Duration::from_millis(5));
}

#[test]
fn deterministic_mode_reproduces_moves() {
    let play_game = || {
        let mut s = search(300);
        let mut b = board_of(&[p(9, 9)]);
        let mut log = Vec::new();
        for _ in 0..8 {
            let o = think(&mut s, &b);
            b.play(o.best).unwrap();
            log.push((o.best, o.playouts, o.root_visits, o.pv.clone(), o.nodes));
        }
        log
    };
    assert_eq!(play_game(), play_game());
}

#[test]
fn tree_reuse_keeps_the_statistics_of_the_played_stone() {
    let mut s = search(3000);
    let mut b = board_of(&[p(9, 9), p(10, 10), p(8, 10)]);
    let first = think(&mut s, &b);
    let chosen = s
        .analysis()
        .children
        .iter()
        .find(|c| c.point == first.best)
        .unwrap()
        .visits;
    assert!(chosen > 0);
    b.play(first.best).unwrap();
    let second = think(&mut s, &b);
    // The second stone's root is the chosen child, grafted with the other order's statistics.
    assert!(
        second.reused_visits >= chosen,
        "{} < {chosen}",
        second.reused_visits
    );
    assert_eq!(
        second.root_visits as u64,
        second.reused_visits as u64 + second.playouts
    );
    // The opponent's reply is found in the tree too.
    b.play(second.best).unwrap();
    let reply = think(&mut s, &b);
    b.play(reply.best).unwrap();
    let reply2 = think(&mut s, &b);
    assert!(reply2.reused_visits > 0);
    // Without reuse nothing is kept.
    let mut fresh = Search::new(
        SearchParams {
            reuse_tree: false,
            ..params(500)
        },
        SimpleFactory,
    );
    let mut b = board_of(&[p(9, 9), p(10, 10), p(8, 10)]);
    let o = think(&mut fresh, &b);
    b.play(o.best).unwrap();
    assert_eq!(think(&mut fresh, &b).reused_visits, 0);
}

#[test]
fn second_stone_root_gets_every_second_stone() {
    // With the canonical pair order a second-stone node misses the stones ranked before the
    // first; as a root it must offer them all again. (Without the opening's rule, which on
    // this 4-stone board would keep only the cells beside the side's own stones.)
    let mut s = Search::new(
        SearchParams {
            opening_stones: 0,
            ..params(2000)
        },
        SimpleFactory,
    );
    let mut b = board_of(&[p(9, 9), p(10, 10), p(8, 10)]);
    let first = think(&mut s, &b);
    b.play(first.best).unwrap();
    think(&mut s, &b);
    let pos = SimplePosition::new(&b);
    let mut cands = Vec::new();
    pos.candidates(&mut cands);
    assert_eq!(s.analysis().children.len(), cands.len());
}

#[test]
fn a_cut_second_stone_root_gets_every_second_stone() {
    // With `full_width_plies` 1 the turn's second stones are cut to `max_children` like any
    // deeper node; the stones actually played must still be any the knowledge allows, so the
    // second stone's search offers them all again. Both pair orders, so that it is the cut, not
    // the canonical order, that the regraft undoes.
    let cut = |full_width_plies| SearchParams {
        opening_stones: 0,
        max_children: 5,
        full_width_plies,
        pair_order: super::PairOrder::Both,
        ..params(2000)
    };
    let b = board_of(&[p(9, 9), p(10, 10), p(8, 10)]);
    let pos = SimplePosition::new(&b);
    let mut cands = Vec::new();
    pos.candidates(&mut cands);
    let mut s = Search::new(cut(1), SimpleFactory);
    let first = think(&mut s, &b);
    // The root keeps every first stone; the chosen one's second stones were cut to 5.
    assert_eq!(s.analysis().children.len(), cands.len());
    let root_children = s.tree.children(super::tree::ROOT).unwrap();
    let chosen = root_children
        .range()
        .find(|&i| s.tree.edge(i).cell() as usize == first.best.index(b.size()))
        .unwrap();
    assert_eq!(s.tree.children(chosen).unwrap().count, 5);
    let mut after = b.clone();
    after.play(first.best).unwrap();
    let second = think(&mut s, &after);
    assert!(second.reused_visits > 0);
    let mut seconds = Vec::new();
    SimplePosition::new(&after).candidates(&mut seconds);
    assert!(seconds.len() > 5);
    assert_eq!(s.analysis().children.len(), seconds.len());
    // With 2 (the default) the second stones were never cut.
    let mut s = Search::new(cut(2), SimpleFactory);
    let first = think(&mut s, &b);
    let root_children = s.tree.children(super::tree::ROOT).unwrap();
    let chosen = root_children
        .range()
        .find(|&i| s.tree.edge(i).cell() as usize == first.best.index(b.size()))
        .unwrap();
    let mut seconds = Vec::new();
    let mut after = b.clone();
    after.play(first.best).unwrap();
    SimplePosition::new(&after).candidates(&mut seconds);
    assert_eq!(
        s.tree.children(chosen).unwrap().count as usize,
        seconds.len()
    );
}

#[test]
fn runs_at_the_node_cap_and_on_several_threads() {
    let mut s = Search::new(
        SearchParams {
            max_nodes: 2048,
            threads: 2,
            playouts: 5000,
            early_stop: false,
            ..SearchParams::default()
        },
        SimpleFactory,
    );
    let b = board_of(&[p(9, 9), p(10, 10), p(8, 10)]);
    let o = think(&mut s, &b);
    assert!(b.is_empty_at(o.best));
    assert!(o.playouts >= 5000);
    assert!(s.nodes() <= 2048);
    assert!(o.root_visits as u64 >= o.playouts);
}

#[test]
fn a_full_tree_is_pruned_and_the_search_goes_on_growing_it() {
    let at_cap = |prune_at_cap: bool| {
        let mut s = Search::new(
            SearchParams {
                max_nodes: 4096,
                prune_at_cap,
                ..params(20_000)
            },
            SimpleFactory,
        );
        let b = board_of(&[p(9, 9), p(10, 10), p(8, 10)]);
        let o = think(&mut s, &b);
        assert!(b.is_empty_at(o.best));
        assert_eq!(o.playouts, 20_000);
        assert!(s.nodes() <= 4096);
        (s.prunes(), s.nodes())
    };
    let (prunes, _) = at_cap(true);
    // Each pruning frees half the room, which the tree (the turn's full-width nodes take ~350
    // edges each) fills again after about a hundred playouts: a pruning that freed nothing
    // would stop the search every playout or so.
    assert!(
        (1..1000).contains(&prunes),
        "{prunes} prunings in 20,000 playouts"
    );
    let (none, nodes) = at_cap(false);
    assert_eq!(none, 0);
    assert!(nodes > 4000, "the unpruned tree stays full: {nodes}");
}

#[test]
fn early_stop_saves_playouts_when_the_choice_is_settled_and_the_time_is_banked() {
    let mut s = Search::new(settling_params(20_000), SimpleFactory);
    // A single blocking pair region: one order of the pair draws ahead quickly.
    let b = board_of(&white_live_four());
    let banked = Limits {
        banked: true,
        ..Limits::default()
    };
    let o = s.think(&b, &banked).unwrap();
    assert!(o.playouts < 20_000, "{}", o.playouts);
    // Unbanked, the default spends the whole budget (early_stop_min_share = 1).
    let mut s = Search::new(settling_params(20_000), SimpleFactory);
    assert_eq!(think(&mut s, &b).playouts, 20_000);
    let mut s = Search::new(
        SearchParams {
            early_stop: false,
            ..params(20_000)
        },
        SimpleFactory,
    );
    assert_eq!(s.think(&b, &banked).unwrap().playouts, 20_000);
}

#[test]
fn a_playout_limit_is_never_extended() {
    // The extension lends time; a fixed-playout search (bench, reproducible runs) has none to
    // lend and must play the same stone with the same playouts whatever `extension` says.
    let b = board_of(&[p(9, 9), p(10, 10), p(8, 10)]);
    let limited = |extension| {
        let mut s = Search::new(
            SearchParams {
                threads: 1,
                seed: 5,
                ..params(3000)
            },
            SimpleFactory,
        );
        let limits = Limits {
            extension,
            banked: true,
            ..Limits::default()
        };
        let o = s.think(&b, &limits).unwrap();
        (o.best, o.playouts, o.root_visits)
    };
    assert_eq!(limited(None), limited(Some(Duration::from_secs(5))));
}

#[test]
fn two_searches_alternating_keep_consistent_trees() {
    for game in 0..3u64 {
        let mut a = Search::new(
            SearchParams {
                seed: game,
                ..params(400)
            },
            SimpleFactory,
        );
        let mut b = Search::new(
            SearchParams {
                seed: game + 7,
                fpu_reduction: -0.2,
                ..params(400)
            },
            SimpleFactory,
        );
        let mut board = board_of(&[p(9, 9), p(8, 8), p(10, 8)]);
        while !board.is_over() && board.stone_count() < 80 {
            let s = if board.to_move() == Color::Black {
                &mut a
            } else {
                &mut b
            };
            let o = think(s, &board);
            board.play(o.best).unwrap();
        }
    }
}

#[test]
fn second_stone_at_the_node_cap_still_gets_every_second_stone() {
    let mut s = Search::new(
        SearchParams {
            max_nodes: 1024,
            opening_stones: 0,
            // The graft of a second-stone root into a tree with no room left.
            prune_at_cap: false,
            ..params(3000)
        },
        SimpleFactory,
    );
    let mut b = board_of(&[p(9, 9), p(10, 10), p(8, 10)]);
    let first = think(&mut s, &b);
    assert!(
        s.nodes() > 900,
        "the tree should have filled: {}",
        s.nodes()
    );
    b.play(first.best).unwrap();
    let second = think(&mut s, &b);
    assert!(b.is_empty_at(second.best));
    let mut cands = Vec::new();
    SimplePosition::new(&b).candidates(&mut cands);
    assert_eq!(s.analysis().children.len(), cands.len());
    assert!(s.nodes() <= 1024);
}

/// A search with the Bradley-Terry board (uniform gammas), the sample evaluator and `value_mix`,
/// and full playouts: at λ 0 their results alone give the rewards (with the default cut-off the
/// sample evaluator would give them too).
/// A search with uniform gammas and the sample evaluator.
fn evaluated_search(params: SearchParams) -> Search<PolicyFactory> {
    let mut s = Search::new(
        params,
        PolicyFactory::new(std::sync::Arc::new(crate::policy::Gammas::uniform())),
    );
    s.set_evaluator(Some(std::sync::Arc::new(
        crate::eval::testing::sample_evaluator(),
    )));
    s
}

fn valued_search(value_mix: f32, playouts: u64) -> Search<PolicyFactory> {
    evaluated_search(SearchParams {
        value_mix,
        playout_cutoff: 0,
        ..params(playouts)
    })
}

#[test]
fn value_mix_is_deterministic_and_changes_the_statistics() {
    let b = board_of(&[p(9, 9), p(10, 10), p(8, 10)]);
    let run = |mix: f32| {
        let mut s = valued_search(mix, 400);
        let o = s.think(&b, &Limits::default()).unwrap();
        let stats: Vec<(u32, Option<f32>)> = s
            .analysis()
            .children
            .iter()
            .map(|c| (c.visits, c.win_rate))
            .collect();
        (o.best, o.root_visits, stats)
    };
    let mixed = run(0.5);
    assert_eq!(mixed, run(0.5));
    assert_ne!(mixed.2, run(0.0).2);
    for (_, w) in &mixed.2 {
        assert!(w.is_none_or(|w| (0.0..=1.0).contains(&w)));
    }
}

#[test]
fn the_evaluators_prior_is_deterministic_and_reorders_the_turn_being_chosen() {
    let b = board_of(&[p(9, 9), p(10, 10), p(8, 10)]);
    let run = |plies: u32| {
        let mut s = evaluated_search(SearchParams {
            value_mix: 0.5,
            eval_prior_plies: plies,
            eval_prior_weight: 2.0,
            // Every candidate, not the opening's few near Black's stone.
            opening_stones: 0,
            ..params(400)
        });
        let o = s.think(&b, &Limits::default()).unwrap();
        let priors: Vec<(Point, f32)> = s
            .analysis()
            .children
            .iter()
            .map(|c| (c.point, c.prior))
            .collect();
        let visits: Vec<(Point, u32)> = s
            .analysis()
            .children
            .iter()
            .map(|c| (c.point, c.visits))
            .collect();
        (o.best, priors, visits)
    };
    let with = run(2);
    assert_eq!(with, run(2));
    let without = run(0);
    assert_ne!(
        with.1, without.1,
        "the root's priors carry the evaluator's factor"
    );
    assert_ne!(with.2, without.2, "and the stones visited");
    let sum: f32 = with.1.iter().map(|c| c.1).sum();
    assert!((sum - 1.0).abs() < 1e-3, "priors still sum to 1: {sum}");
}

#[test]
fn implicit_minimax_is_deterministic_and_changes_the_search() {
    let b = board_of(&[p(9, 9), p(10, 10), p(8, 10)]);
    let run = |alpha: f32| {
        let mut s = evaluated_search(SearchParams {
            value_mix: 0.5,
            minimax_weight: alpha,
            ..params(400)
        });
        let o = s.think(&b, &Limits::default()).unwrap();
        let visits: Vec<u32> = s.analysis().children.iter().map(|c| c.visits).collect();
        (o.best, visits)
    };
    let with = run(0.5);
    assert_eq!(with, run(0.5));
    assert_ne!(with.1, run(0.0).1);
}

#[test]
fn with_only_the_leaf_value_the_search_still_sees_sixes() {
    // λ = 1: playouts add nothing, but finished games and proofs keep their exact result.
    let mut s = valued_search(1.0, 300);
    let mut b = board_of(&black_four());
    for _ in 0..2 {
        let o = s.think(&b, &Limits::default()).unwrap();
        b.play(o.best).unwrap();
    }
    assert_eq!(b.result(), GameResult::Win(Color::Black));
    // Black, facing White's live four, blocks it with both stones.
    let mut s = valued_search(1.0, 300);
    let mut b = board_of(&white_live_four());
    for _ in 0..2 {
        let o = s.think(&b, &Limits::default()).unwrap();
        b.play(o.best).unwrap();
    }
    assert!(!opponent_threatens_after_turn(&b), "{:?}", b.history());
}

#[test]
fn early_stop_waits_for_its_share_of_the_budget() {
    let b = board_of(&white_live_four());
    let run = |share: f32| {
        let mut s = Search::new(
            SearchParams {
                early_stop_min_share: share,
                // The playout counts below were measured with a leaf expanded on its second
                // visit (the default until 2026-11-30).
                expand_visits: 2,
                // ... and with C 0.4 (the default until 2026-12-03).
                exploration: 0.4,
                ..settling_params(20_000)
            },
            SimpleFactory,
        );
        think(&mut s, &b).playouts
    };
    // Settled at about half the playouts (the leader's lead exceeds what is left).
    let eager = run(0.0);
    assert!(eager < 15_000, "{eager}");
    let late = run(0.75);
    assert!((15_000..20_000).contains(&late), "{late}");
    assert_eq!(run(1.0), 20_000);
}

#[test]
fn search_with_the_policy_plays_legal_stones_and_wins() {
    let mut s = Search::new(
        SearchParams {
            playouts: 200,
            max_nodes: 1 << 18,
            ..SearchParams::default()
        },
        PolicyFactory::new(std::sync::Arc::new(crate::policy::Gammas::uniform())),
    );
    let mut b = board_of(&black_four());
    for _ in 0..2 {
        let o = s.think(&b, &Limits::default()).unwrap();
        assert!(b.is_empty_at(o.best));
        b.play(o.best).unwrap();
    }
    assert!(b.is_over());
    let mut b = Board::standard();
    b.play(p(9, 9)).unwrap();
    let o = s.think(&b, &Limits::default()).unwrap();
    assert!(b.is_empty_at(o.best));
    assert!(o.playouts > 0);
}

#[test]
fn a_raised_stop_flag_ends_the_search_with_its_best_stone() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    let mut s = search(50_000_000);
    let b = board_of(&[p(9, 9), p(10, 10), p(8, 10)]);
    let stop = Arc::new(AtomicBool::new(false));
    let raiser = {
        let stop = Arc::clone(&stop);
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(100));
            stop.store(true, Ordering::Relaxed);
        })
    };
    let start = Instant::now();
    let limits = Limits {
        observer: Some(stop.clone()),
        ..Limits::default()
    };
    let o = s.think(&b, &limits).unwrap();
    raiser.join().unwrap();
    assert!(b.is_empty_at(o.best));
    assert!(o.playouts > 0 && o.playouts < 50_000_000, "{o:?}");
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn a_reused_root_expanded_deep_is_widened_when_asked() {
    // Four stones on from a search, the new root was expanded below the turn being chosen then,
    // so its children were cut to `max_children`; `widen_reused_root` gives it every candidate
    // again, keeping the visits it had.
    let run = |widen_reused_root| {
        let mut s = Search::new(
            SearchParams {
                opening_stones: 0,
                max_children: 5,
                widen_reused_root,
                // Expanded on its second visit, the root four stones on was built deep in the
                // first search (with later expansion it is first built as a root, uncut).
                expand_visits: 2,
                // With C 0.4 and C_BT 0.5 (the defaults until 2026-12-03 and 2026-12-06) the
                // first search reaches that root and both runs reach the same position; other
                // trees may not.
                exploration: 0.4,
                prior_weight: 0.5,
                // The root four stones on faces a threat; reused all the same, as this test is
                // about the widening.
                reuse_tree_under_threat: true,
                ..params(3000)
            },
            SimpleFactory,
        );
        let mut b = board_of(&[p(9, 9), p(10, 10), p(8, 10)]);
        for _ in 0..4 {
            let o = think(&mut s, &b);
            b.play(o.best).unwrap();
        }
        let o = think(&mut s, &b);
        let mut cands = Vec::new();
        SimplePosition::new(&b).candidates(&mut cands);
        // The children's visits all came through the root: none were grafted from another
        // position (the other order of a pair exists only within one side's turn).
        let below: u64 = s
            .analysis()
            .children
            .iter()
            .map(|c| u64::from(c.visits))
            .sum();
        assert!(
            below <= u64::from(o.root_visits),
            "{below} > {}",
            o.root_visits
        );
        (o.reused_visits, s.analysis().children.len(), cands.len())
    };
    let (reused, children, candidates) = run(false);
    assert!(reused > 0);
    assert_eq!(children, 5);
    let (reused, children, all) = run(true);
    assert!(reused > 0);
    assert_eq!(children, all);
    assert_eq!(all, candidates);
    assert!(all > 5);
}

/// Children of `node` with at least one visit.
fn visited_children(tree: &super::tree::Tree, node: u32) -> usize {
    tree.children(node).map_or(0, |c| {
        c.range()
            .filter(|&i| tree.edge(i).stats().visits > 0)
            .count()
    })
}

#[test]
fn the_own_second_stone_urgency_binds_only_the_roots_side() {
    // Black to move at a turn's first stone. A pessimistic urgency at Black's second stones
    // keeps each first stone on the partner it tried first; White's second stones, two plies
    // further down, still spread over many.
    let b = board_of(&[p(9, 9), p(8, 8), p(10, 8)]);
    let mut s = Search::new(
        SearchParams {
            own_second_stone_fpu_reduction: 1.0,
            ..params(4000)
        },
        SimpleFactory,
    );
    think(&mut s, &b);
    let tree = &s.tree;
    let firsts: Vec<u32> = tree
        .children(super::tree::ROOT)
        .unwrap()
        .range()
        .filter(|&i| tree.edge(i).stats().visits >= 10)
        .collect();
    assert!(!firsts.is_empty());
    assert!(firsts.iter().all(|&f| visited_children(tree, f) <= 2));
    // White's first stones below Black's pairs, and how many of their partners were tried.
    let white_spread = firsts
        .iter()
        .filter_map(|&f| tree.children(f))
        .flat_map(|c| c.range())
        .filter_map(|second| tree.children(second))
        .flat_map(|c| c.range())
        .map(|white_first| visited_children(tree, white_first))
        .max()
        .unwrap_or(0);
    assert!(white_spread >= 3, "White's partners tried: {white_spread}");
    // The default urgency spreads Black's first stones over their partners too.
    let mut d = Search::new(params(4000), SimpleFactory);
    think(&mut d, &b);
    let spread = d
        .tree
        .children(super::tree::ROOT)
        .unwrap()
        .range()
        .map(|f| visited_children(&d.tree, f))
        .max()
        .unwrap();
    assert!(spread >= 3, "Black's partners tried by default: {spread}");
}

#[test]
fn a_first_stone_under_the_opponents_vcdt_is_searched_on_a_fresh_tree() {
    // Liuzi's Black against Cloudict (experiments/cloudict/liuzi-vs-cloudict-d6-expert-s1.jsonl,
    // game 0, 11 stones): our turn is searched, the opponent answers with the pair the tree
    // expected, and at our next first stone White has a VCDT if we passed. The tree then holds
    // that position with its visits, grown below the depth of the tree's solves.
    let run = |reuse_tree_under_threat| {
        let mut s = Search::new(
            SearchParams {
                reuse_tree_under_threat,
                // The scenario was found with C_BT 0.5 (the default until 2026-12-06): the tree
                // holds the threatened position with visits only if it expected the reply.
                prior_weight: 0.5,
                ..params(2000)
            },
            SimpleFactory,
        );
        let mut b =
            crate::tactics::suite::replay("j10 h9-l11 i11-k9 l8-k10 h12-j12 g13-k12").unwrap();
        let first = think(&mut s, &b);
        b.play(first.best).unwrap();
        let second = think(&mut s, &b);
        b.play(second.best).unwrap();
        for &reply in &second.pv[1..3] {
            b.play(reply).unwrap();
        }
        let mut solver = crate::tactics::Solver::new(Default::default());
        let threat = crate::tactics::defend(&mut solver, &b, &Default::default());
        assert!(
            matches!(threat, crate::tactics::Threat::Vcdt(_)),
            "the scenario needs White's threat at our first stone: {threat:?}"
        );
        think(&mut s, &b).reused_visits
    };
    assert_eq!(run(false), 0);
    assert!(run(true) > 0);
}
