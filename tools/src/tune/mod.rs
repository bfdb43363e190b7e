//! SPSA tuning of engine settings by games (Spall 1992; the Fishtest flavour of Stockfish).
//!
//! Every iteration perturbs all tuned settings at once by ±c_k, plays the two perturbed
//! engines (directly against each other, or each against one fixed reference on the same
//! opening and colour, which pairs the games when the reference is deterministic), and moves
//! the settings along the score difference. Iterations are appended to a state file, so a run
//! resumes where it stopped and is reproducible from it.
//!
//! * [`spec`]: the tuned settings, their ranges and step sizes, read from a TOML file.
//! * [`spsa`]: the gains, the perturbation and the update (pure, tested on known objectives).
//! * [`play`]: the games of one iteration and their score difference.
//! * [`state`]: the state file, one JSON line per iteration.

pub mod play;
pub mod spec;
pub mod spsa;
pub mod state;
