//! Settings that size an allocation are checked against the memory this process may use (the
//! machine's, and the limits of [`super::memory_limits`]), so that a large value is an error
//! naming its key instead of an allocation that aborts the process.

use super::memory_limits::{process_limits, Limit};
use std::fmt::Display;

/// Bytes of one MCTS tree edge (`search.max_nodes` counts edges; `search::mcts::node` checks
/// that the edge has this size).
pub const EDGE_BYTES: u64 = 32;

/// The largest share of the machine's memory one setting may ask for: the engine shares the
/// machine with its opponent and the controller.
const MAX_SHARE_NUM: u64 = 1;
const MAX_SHARE_DEN: u64 = 2;

/// The share of the machine's memory a tree sized by it takes (`search.max_nodes = 0`): the
/// engine shares the machine with its opponent and the controller, and a game's trees are
/// only as large as its longest search makes them (the operating system commits the pages a
/// tree touches, no more).
const AUTO_TREE_SHARE_DEN: u64 = 4;

/// The most edges a tree can index (`search.max_nodes`' upper bound).
pub const MAX_TREE_EDGES: usize = (u32::MAX / 2) as usize;

/// Edges of a tree sized by the machine's memory where it cannot be read (256 MiB).
#[cfg(not(target_arch = "wasm32"))]
const FALLBACK_TREE_EDGES: usize = 1 << 23;
/// In WebAssembly the memory cannot be read and the engine shares a browser tab: 64 MiB, which
/// the tree's allocation takes from the tab at once (docs/web.md, the tree size).
#[cfg(target_arch = "wasm32")]
const FALLBACK_TREE_EDGES: usize = 1 << 21;

/// Edges of a tree sized by the machine's memory: a quarter of it, within what a tree indexes
/// and half of what a process limit leaves.
pub fn auto_tree_edges() -> usize {
    let machine = physical_memory().map(|total| total / AUTO_TREE_SHARE_DEN);
    let limited = process_limits(physical_memory())
        .iter()
        .map(|l| l.free_bytes / 2)
        .min();
    let bytes = match (machine, limited) {
        (Some(m), Some(l)) => m.min(l),
        (one, other) => match one.or(other) {
            Some(bytes) => bytes,
            None => return FALLBACK_TREE_EDGES,
        },
    };
    let edges = bytes / EDGE_BYTES;
    usize::try_from(edges).map_or(MAX_TREE_EDGES, |e| e.clamp(1024, MAX_TREE_EDGES))
}

/// Physical memory in bytes (Linux `/proc/meminfo`); `None` where it cannot be read.
pub fn physical_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// An error naming `key` when `bytes` exceed half of the machine's memory (or, where the
/// memory cannot be read, 64 GiB) or what a limit on this process leaves.
pub fn check_memory(key: &str, value: impl Display, bytes: u64) -> Result<(), String> {
    check_within(key, value, bytes, process_limits(physical_memory()))
}

fn check_within(
    key: &str,
    value: impl Display,
    bytes: u64,
    limits: Vec<Limit>,
) -> Result<(), String> {
    let allowed = allowed_memory(limits);
    if bytes > allowed.free_bytes {
        return Err(format!(
            "{key} = {value} needs {} of memory, more than {}",
            gib(bytes),
            allowed.what
        ));
    }
    Ok(())
}

/// The tightest of half the machine's memory and `limits`.
fn allowed_memory(limits: Vec<Limit>) -> Limit {
    let total = physical_memory().unwrap_or(128 << 30);
    let machine = Limit {
        free_bytes: total / MAX_SHARE_DEN * MAX_SHARE_NUM,
        what: format!("half of this machine's {}", gib(total)),
    };
    limits
        .into_iter()
        .chain([machine])
        .min_by_key(|l| l.free_bytes)
        .expect("the machine's share is always there")
}

fn gib(bytes: u64) -> String {
    format!("{:.1} GiB", bytes as f64 / (1u64 << 30) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tightest_limit_decides_and_is_named() {
        let address_space = Limit {
            free_bytes: 1 << 30,
            what: "the 1.0 GiB left under this process's address-space limit (RLIMIT_AS)".into(),
        };
        let err = check_within(
            "alphabeta.hash_mb",
            2048,
            2 << 30,
            vec![address_space.clone()],
        )
        .unwrap_err();
        assert!(
            err.starts_with("alphabeta.hash_mb = 2048 needs 2.0 GiB"),
            "{err}"
        );
        assert!(err.contains("RLIMIT_AS"), "{err}");
        assert!(check_within("alphabeta.hash_mb", 512, 512 << 20, vec![address_space]).is_ok());
        let err = check_within("search.max_nodes", 1, u64::MAX, Vec::new()).unwrap_err();
        assert!(err.contains("half of this machine's"), "{err}");
    }
}
