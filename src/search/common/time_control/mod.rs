//! Time control (docs/time-control.md), one module from the controller's clock to the stone's
//! deadline and back:
//!
//! * [`clock`]: the game clocks as the protocols report them, turned into each stone's budget
//!   by the time policy (the turn's plan, the first stone's share, the lag margin);
//! * [`limits`]: what one stone's search may spend ([`Limits`]) and the observer that may stop it;
//! * [`time_use`]: how a game's stones used their time, logged at its end.
//!
//! The one piece of time policy outside this module is the MCTS's extension of a stone still
//! unsettled at its planned time (`search::mcts::extension`): it reads the tree, so it lives
//! with it, and takes its allowance from [`Limits`].

mod clock;
mod limits;
mod time_use;

pub use clock::{Clock, TimeLeft, TimePolicy, TimeSettings};
pub(crate) use limits::min_cap;
pub use limits::{Limits, ThinkObserver, FALLBACK_STONE_TIME, PROGRESS_INTERVAL};
pub use time_use::{StoneTime, TimeUse};
