//! What may stop one stone's search: the single limits type of both searches and of the engine
//! (which fills in the time from its clock).

use crate::search::common::ChildAnalysis;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Time per stone when neither the caller (clock, config) nor the search's own settings
/// (fixed playouts or nodes) limit it: a search must end.
pub const FALLBACK_STONE_TIME: Duration = Duration::from_secs(1);

/// How often a running MCTS shows its root to [`ThinkObserver::progress`].
pub const PROGRESS_INTERVAL: Duration = Duration::from_millis(250);

/// A front-end's hold on a running search: it may stop it (the best stone so far is played)
/// and is shown the root's statistics now and then (live display).
pub trait ThinkObserver: Send + Sync {
    /// Polled often during a search: true ends it within milliseconds.
    fn stop_requested(&self) -> bool;
    /// The root's children so far, about every [`ThinkObserver::progress_interval`] (MCTS
    /// only); `playouts` and `elapsed` count from the start of the stone's search.
    fn progress(&self, _playouts: u64, _elapsed: Duration, _children: &[ChildAnalysis]) {}
    /// How often the search calls [`ThinkObserver::progress`].
    fn progress_interval(&self) -> Duration {
        PROGRESS_INTERVAL
    }
}

/// A plain flag is the simplest observer: raised from another thread, it stops the search.
impl ThinkObserver for AtomicBool {
    fn stop_requested(&self) -> bool {
        self.load(Ordering::Relaxed)
    }
}

/// The first limit reached ends the search; `None` everywhere leaves only the parameters' own
/// limits (fixed playouts, alpha-beta depth and nodes).
#[derive(Clone, Default)]
pub struct Limits {
    /// Wall-clock time for this stone, measured from the call; `None` = no clock.
    pub time: Option<Duration>,
    /// Time this stone leaves unused is not lost: a later stone gets it (the turn's second
    /// stone, or later turns of a game clock). The MCTS early stop then ends a settled search
    /// at once; otherwise it waits for `search.early_stop_min_share` of the budget.
    pub banked: bool,
    /// MCTS: how far past `time` the search may run while its choice is still close (a game
    /// clock's main time lends it from later turns); `None` = `time` is the deadline.
    /// Alpha-beta ignores it.
    pub extension: Option<Duration>,
    /// MCTS: playouts for this stone (this search's, not counting reused ones).
    pub playouts: Option<u64>,
    /// Alpha-beta: nodes for this stone.
    pub nodes: Option<u64>,
    /// Alpha-beta: deepest iteration, overriding `alphabeta.max_depth` when smaller.
    pub depth: Option<u32>,
    /// Ends the search from another thread (protocol interrupts, end of input, pondering) and
    /// watches it (live display); the search still answers with the best stone found so far.
    /// `None` changes nothing, so fixed-playout searches stay reproducible.
    pub observer: Option<Arc<dyn ThinkObserver>>,
}

impl fmt::Debug for Limits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Limits")
            .field("time", &self.time)
            .field("banked", &self.banked)
            .field("extension", &self.extension)
            .field("playouts", &self.playouts)
            .field("nodes", &self.nodes)
            .field("depth", &self.depth)
            .field("observer", &self.observer.is_some())
            .finish()
    }
}

impl Limits {
    /// Only a time limit (or none).
    pub fn with_time(time: Option<Duration>) -> Limits {
        Limits {
            time,
            ..Limits::default()
        }
    }

    /// Whether the observer asks the search to stop.
    pub fn stopped(&self) -> bool {
        self.observer.as_ref().is_some_and(|o| o.stop_requested())
    }
}

/// The smaller of two optional caps (`None` = no cap).
pub(crate) fn min_cap<T: Ord>(a: Option<T>, b: Option<T>) -> Option<T> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}
