//! GoGui analyze commands (`gogui-analyze_commands`): the policy heat map and the last search's
//! visits and win rates, drawn on GoGui's board as `gfx` output.
//!
//! They never fail: GoGui stops a game with auto-run on when an analyze command answers with
//! an error, so with nothing to show (no search since the position changed, a stone that
//! needed no search, a finished game) they answer success with an empty map and a TEXT line.

use super::board_text::push_vertex;
use crate::engine::{Analysis, ChildAnalysis, Decision, Engine, NoAnalysis, NoSearch};
use crate::rules::Point;
use std::fmt::Write as _;

/// `type/label/command` lines, as GoGui reads them from `gogui-analyze_commands`.
pub const ANALYZE_COMMANDS: &[&str] = &[
    "gfx/Policy P(m) heat map/liuzi-policy",
    "gfx/Search visits/liuzi-visits",
    "gfx/Search win rates/liuzi-winrates",
];

/// Labels on the few most likely stones; the rest show only as shading.
const LABELLED: usize = 8;

/// The BT policy of the current position: INFLUENCE shading scaled to the best stone, and
/// percentages on the most likely stones.
pub fn policy(engine: &Engine, out: &mut String) {
    let Some(mut policy) = engine.policy().filter(|p| !p.is_empty()) else {
        out.push_str("TEXT no policy (game over or no pattern knowledge)");
        return;
    };
    policy.sort_by(|a, b| b.1.total_cmp(&a.1));
    let best = policy
        .first()
        .map_or(1.0, |&(_, p)| p.max(f32::MIN_POSITIVE));
    out.push_str("INFLUENCE");
    for &(p, prob) in &policy {
        out.push(' ');
        push_vertex(out, p);
        let _ = write!(out, " {:.3}", prob / best);
    }
    for &(p, prob) in policy.iter().take(LABELLED) {
        out.push_str("\nLABEL ");
        push_vertex(out, p);
        let _ = write!(out, " {:.0}", prob * 100.0);
    }
}

/// Visit counts of the last search's root children, labelled on the board.
pub fn visits(engine: &Engine, out: &mut String) {
    let Some(analysis) = last_search(engine, out) else {
        return;
    };
    let total: u64 = analysis.children.iter().map(|c| c.visits as u64).sum();
    out.push_str("LABEL");
    for child in analysis.children.iter().filter(|c| c.visits > 0) {
        out.push(' ');
        push_vertex(out, child.point);
        let _ = write!(out, " {}", compact(child.visits));
    }
    let _ = write!(out, "\nTEXT {total} visits at the root");
}

/// Win rates (for the side that was to move) of the visited root children; shading from -1
/// (sure loss) to +1 (sure win).
pub fn win_rates(engine: &Engine, out: &mut String) {
    let Some(analysis) = last_search(engine, out) else {
        return;
    };
    let rated: Vec<_> = analysis
        .children
        .iter()
        .filter_map(|c| c.win_rate.map(|w| (c.point, w)))
        .collect();
    out.push_str("INFLUENCE");
    for &(p, w) in &rated {
        out.push(' ');
        push_vertex(out, p);
        let _ = write!(out, " {:.3}", 2.0 * w - 1.0);
    }
    out.push_str("\nLABEL");
    for &(p, w) in &rated {
        out.push(' ');
        push_vertex(out, p);
        let _ = write!(out, " {:.0}", w * 100.0);
    }
}

/// The last search while it still describes this position; else a TEXT note in `out` that
/// says why there is none.
fn last_search<'a>(engine: &'a Engine, out: &mut String) -> Option<&'a Analysis> {
    let analysis = engine.analysis();
    if analysis.is_none() {
        out.push_str("TEXT ");
        no_search_note(engine.no_analysis(), out);
    }
    analysis
}

/// Why there are no search statistics to show, in a few words.
fn no_search_note(why: NoAnalysis, out: &mut String) {
    let stone = |p: Point, out: &mut String| push_vertex(out, p);
    match why {
        NoAnalysis::NotSearched => out.push_str("no search of this position yet"),
        NoAnalysis::StonePlayed(p) => {
            out.push_str("no search since ");
            stone(p, out);
            out.push_str(" was played");
        }
        NoAnalysis::Undone => out.push_str("no search since the undo"),
        NoAnalysis::Unsearched(p, how) => {
            out.push_str("no search: ");
            stone(p, out);
            out.push_str(match how {
                NoSearch::Opening => " is Black's opening stone (the centre)",
                NoSearch::Book => " came from the opening book",
                NoSearch::Decided(Decision::Win) => " wins at once",
                NoSearch::Decided(Decision::ForcedBlock) => " is the only block of a six",
                NoSearch::Decided(_) => " starts a proven threat sequence",
            });
        }
    }
}

/// The root's visits as a live-graphics block for GoGui (`gogui-gfx:` on stderr): shading by
/// share of the visits, labels on the most visited stones.
pub fn live_gfx(children: &[ChildAnalysis], playouts: u64, elapsed_seconds: f64, out: &mut String) {
    let visited = visits_gfx(children, out);
    let _ = write!(out, "\nTEXT {playouts} playouts in {elapsed_seconds:.1} s");
    if let Some(best) = visited.first() {
        out.push_str(", best ");
        push_vertex(out, best.point);
        if let Some(w) = best.win_rate {
            let _ = write!(out, " ({:.0}%)", w * 100.0);
        }
    }
    out.push_str("\n\n");
}

/// The last live-graphics block of a search: the root's visits as in [`live_gfx`], and the
/// stone played marked and named (it may differ from the last block's best).
pub fn final_gfx(
    children: &[ChildAnalysis],
    played: Point,
    elapsed_seconds: f64,
    out: &mut String,
) {
    let _ = visits_gfx(children, out);
    out.push_str("\nSQUARE ");
    push_vertex(out, played);
    out.push_str("\nTEXT played ");
    push_vertex(out, played);
    match children.iter().find(|c| c.point == played) {
        Some(c) if c.visits > 0 => {
            if let Some(w) = c.win_rate {
                let _ = write!(out, " ({:.0}%)", w * 100.0);
            }
            let total: u64 = children.iter().map(|c| u64::from(c.visits)).sum();
            let _ = write!(out, ", {total} visits at the root");
        }
        _ => out.push_str(" without a search"),
    }
    let _ = write!(out, " in {elapsed_seconds:.1} s\n\n");
}

/// `gogui-gfx:` with INFLUENCE shading by share of the visits and LABELs on the most visited
/// stones; returns those stones, most visited first.
fn visits_gfx<'a>(children: &'a [ChildAnalysis], out: &mut String) -> Vec<&'a ChildAnalysis> {
    let mut visited: Vec<&ChildAnalysis> = children.iter().filter(|c| c.visits > 0).collect();
    visited.sort_by_key(|c| std::cmp::Reverse(c.visits));
    let most = visited.first().map_or(1, |c| c.visits.max(1));
    out.push_str("gogui-gfx:\nINFLUENCE");
    for c in &visited {
        out.push(' ');
        push_vertex(out, c.point);
        let _ = write!(out, " {:.3}", c.visits as f32 / most as f32);
    }
    out.push_str("\nLABEL");
    for c in visited.iter().take(LABELLED) {
        out.push(' ');
        push_vertex(out, c.point);
        let _ = write!(out, " {}", compact(c.visits));
    }
    visited
}

/// Labels of at most three characters and a unit, so that neighbours on GoGui's board do not
/// run together: 999, 7.2k, 12k, 1.2M, 34M (rounded down, so a label never overstates).
pub(super) fn compact(n: u32) -> String {
    match n {
        0..=999 => n.to_string(),
        1_000..=9_999 => format!("{}.{}k", n / 1000, n % 1000 / 100),
        10_000..=999_999 => format!("{}k", n / 1000),
        1_000_000..=9_999_999 => format!("{}.{}M", n / 1_000_000, n % 1_000_000 / 100_000),
        10_000_000..=999_999_999 => format!("{}M", n / 1_000_000),
        _ => format!("{}.{}G", n / 1_000_000_000, n % 1_000_000_000 / 100_000_000),
    }
}

#[cfg(test)]
mod tests {
    use super::compact;

    #[test]
    fn labels_stay_short() {
        assert_eq!(compact(999), "999");
        assert_eq!(compact(1_000), "1.0k");
        assert_eq!(compact(7_233), "7.2k");
        assert_eq!(compact(9_999), "9.9k");
        assert_eq!(compact(12_345), "12k");
        assert_eq!(compact(2_500_000), "2.5M");
        for n in [
            0,
            5,
            999,
            1_000,
            7_299,
            10_000,
            999_999,
            1_000_000,
            u32::MAX,
        ] {
            assert!(compact(n).len() <= 4, "{n}: {}", compact(n));
        }
    }
}
