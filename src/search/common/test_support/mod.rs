//! What the search tests share (built for tests only): the positions they start from
//! ([`fixtures`]) and [`SimplePosition`], a small self-contained search position to run both
//! searches on without trained knowledge.

pub(crate) mod fixtures;
mod simple_position;

pub(crate) use simple_position::{SimpleFactory, SimplePosition};
