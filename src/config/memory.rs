//! Settings that size an allocation are checked against the machine's memory, so that a large
//! value is an error naming its key instead of an allocation that aborts the process.

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

/// Edges of a tree sized by the machine's memory: a quarter of it, within what a tree indexes.
pub fn auto_tree_edges() -> usize {
    physical_memory().map_or(FALLBACK_TREE_EDGES, |total| {
        let edges = total / AUTO_TREE_SHARE_DEN / EDGE_BYTES;
        usize::try_from(edges).map_or(MAX_TREE_EDGES, |e| e.clamp(1024, MAX_TREE_EDGES))
    })
}

/// Physical memory in bytes (Linux `/proc/meminfo`); `None` where it cannot be read.
pub fn physical_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// An error naming `key` when `bytes` exceed half of the machine's memory (or, where the
/// memory cannot be read, 64 GiB).
pub fn check_memory(key: &str, value: impl Display, bytes: u64) -> Result<(), String> {
    let total = physical_memory().unwrap_or(128 << 30);
    let limit = total / MAX_SHARE_DEN * MAX_SHARE_NUM;
    if bytes > limit {
        return Err(format!(
            "{key} = {value} needs {} of memory, more than half of this machine's {}",
            gib(bytes),
            gib(total)
        ));
    }
    Ok(())
}

fn gib(bytes: u64) -> String {
    format!("{:.1} GiB", bytes as f64 / (1u64 << 30) as f64)
}
