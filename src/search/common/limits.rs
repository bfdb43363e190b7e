//! What may stop one stone's search: the single limits type of both searches and of the engine
//! (which fills in the time from its clock).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Time per stone when neither the caller (clock, config) nor the search's own settings
/// (fixed playouts or nodes) limit it: a search must end.
pub const FALLBACK_STONE_TIME: Duration = Duration::from_secs(1);

/// The first limit reached ends the search; `None` everywhere leaves only the parameters' own
/// limits (fixed playouts, alpha-beta depth and nodes).
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Wall-clock time for this stone, measured from the call; `None` = no clock.
    pub time: Option<Duration>,
    /// MCTS: playouts for this stone (this search's, not counting reused ones).
    pub playouts: Option<u64>,
    /// Alpha-beta: nodes for this stone.
    pub nodes: Option<u64>,
    /// Alpha-beta: deepest iteration, overriding `alphabeta.max_depth` when smaller.
    pub depth: Option<u32>,
    /// Set from another thread to end the search at once (a protocol's `stop`, end of input);
    /// the search still answers with the best stone found so far.
    pub stop: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// Only a time limit (or none).
    pub fn with_time(time: Option<Duration>) -> Limits {
        Limits {
            time,
            ..Limits::default()
        }
    }

    /// Whether the stop flag has been raised.
    pub fn stopped(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
    }
}

/// The smaller of two optional caps (`None` = no cap).
pub(crate) fn min_cap<T: Ord>(a: Option<T>, b: Option<T>) -> Option<T> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}
