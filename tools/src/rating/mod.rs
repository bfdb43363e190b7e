//! Bradley-Terry ratings of many engines from `liuzi-match` results files.

pub mod bt;
pub mod games;
pub mod table;

pub use bt::{rate, Rating, RatingOptions};
pub use games::GameSet;
