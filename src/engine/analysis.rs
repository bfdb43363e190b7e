//! Search statistics for front-ends (GoGui analyze commands: policy heat map, visits and win
//! rates on the board). The searches fill them in; protocol-free: the front-end formats them.

pub use crate::search::{Analysis, ChildAnalysis};
