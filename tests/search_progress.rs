//! A stone's search runs its workers several times (the search, then the rest of
//! its time after the pair check), and the live display counted each run from zero: "9287
//! playouts in 0.5 s", then "6224 playouts in 0.3 s" for the same stone. Progress counts from
//! the stone's start.

use liuzi::rules::{Board, Point};
use liuzi::search::mcts::SearchParams;
use liuzi::search::{
    proximity_gammas, ChildAnalysis, Limits, PolicyFactory, Search, ThinkObserver,
};
use parking_lot::Mutex;
use std::sync::Arc;
use std::time::Duration;

#[derive(Default)]
struct Recorder {
    seen: Mutex<Vec<(u64, Duration)>>,
}

impl ThinkObserver for Recorder {
    fn stop_requested(&self) -> bool {
        false
    }

    fn progress(&self, playouts: u64, elapsed: Duration, _children: &[ChildAnalysis]) {
        self.seen.lock().push((playouts, elapsed));
    }

    fn progress_interval(&self) -> Duration {
        Duration::from_millis(20)
    }
}

#[test]
fn progress_never_goes_back_within_a_stone() {
    let params = SearchParams {
        threads: 1,
        seed: 11,
        max_nodes: 1 << 18,
        ..SearchParams::default()
    };
    assert!(params.tactics.solver && params.tactics.solver_pair_check_share > 0.0);
    let mut search = Search::new(params, PolicyFactory::new(Arc::new(proximity_gammas())));
    let mut board = Board::standard();
    for (c, r) in [(9, 9), (10, 10), (10, 8), (8, 10), (8, 9)] {
        board.play(Point::new(c, r)).unwrap();
    }
    let recorder = Arc::new(Recorder::default());
    let limits = Limits {
        time: Some(Duration::from_millis(1200)),
        observer: Some(recorder.clone()),
        ..Limits::default()
    };
    let outcome = search.think(&board, &limits).unwrap();
    let seen = recorder.seen.lock().clone();
    assert!(seen.len() >= 10, "{seen:?}");
    for pair in seen.windows(2) {
        assert!(
            pair[0].0 <= pair[1].0 && pair[0].1 <= pair[1].1,
            "went back: {pair:?}"
        );
    }
    // The last report is of this stone's playouts so far, the resumed search's included.
    assert!(seen.last().unwrap().0 <= outcome.playouts);
    assert!(
        seen.last().unwrap().0 * 2 > outcome.playouts,
        "{seen:?} {outcome:?}"
    );
}
