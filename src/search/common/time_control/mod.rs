//! Time control (docs/time-control.md), one module from the controller's clock to the stone's
//! deadline and back:
//!
//! * [`settings`]: the clock's settings, what a side has left, and the time policy;
//! * [`clock`]: the game clocks as the protocols report them, and their bookkeeping;
//! * [`stone_budget`]: each stone's budget, its turn's plan split between the turn's stones;
//!   [`clock_budget`]: a stone's time from a running clock (byo-yomi, main time);
//!   [`margins`]: the lag margin and the sudden-death reserve kept back;
//! * [`limits`]: what one stone's search may spend ([`Limits`]) and the observer that may stop it;
//! * [`time_use`]: how a game's stones used their time, logged at its end.
//!
//! The one piece of time policy outside this module is the MCTS's extension of a stone still
//! unsettled at its planned time (`search::mcts::extension`): it reads the tree, so it lives
//! with it, and takes its allowance from [`Limits`].

mod clock;
mod clock_budget;
mod limits;
mod margins;
mod settings;
mod stone_budget;
#[cfg(test)]
mod test_support;
mod time_use;

pub use clock::Clock;
pub(crate) use limits::min_cap;
pub use limits::{Limits, ThinkObserver, FALLBACK_STONE_TIME, PROGRESS_INTERVAL};
pub use settings::{TimeLeft, TimePolicy, TimeSettings};
pub use time_use::{StoneTime, TimeUse};
