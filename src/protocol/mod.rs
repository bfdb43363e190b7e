//! Protocol front-ends: GTP v2 with GoGui's `gogui-rules_*` extension ([`gtp`]) and the
//! Connect6 protocol of Cloudict, ConnectMore and the SAU platform ([`c6`]).
//!
//! Front-ends know only [`crate::engine::Engine`], the rules, notations, records and config;
//! never the search. stdout carries the protocol only; everything else goes to stderr, through
//! [`stderr_queue`] so that an unread stderr never blocks them.

pub mod c6;
pub mod gtp;
pub mod input;
pub mod line_reader;
pub mod stderr_queue;

/// Whether a front-end keeps reading after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}
