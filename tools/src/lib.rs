//! Shared code of the offline tools: the generic MM core (trainer and ratings), the trainer's
//! position extraction and reports.

pub mod extract;
pub mod mm;
pub mod report;
