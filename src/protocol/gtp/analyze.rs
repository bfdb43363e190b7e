//! GoGui analyze commands (`gogui-analyze_commands`): the policy heat map and the last search's
//! visits and win rates, drawn on GoGui's board as `gfx` output.

use super::commands::push_vertex;
use crate::engine::Engine;
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
pub fn policy(engine: &Engine, out: &mut String) -> Result<(), String> {
    let mut policy = engine
        .policy()
        .ok_or("no policy for this position (game over or no search loaded)")?;
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
    Ok(())
}

/// Visit counts of the last search's root children, labelled on the board.
pub fn visits(engine: &Engine, out: &mut String) -> Result<(), String> {
    let analysis = last_search(engine)?;
    let total: u64 = analysis.children.iter().map(|c| c.visits as u64).sum();
    out.push_str("LABEL");
    for child in analysis.children.iter().filter(|c| c.visits > 0) {
        out.push(' ');
        push_vertex(out, child.point);
        let _ = write!(out, " {}", compact(child.visits));
    }
    let _ = write!(out, "\nTEXT {total} visits at the root");
    Ok(())
}

/// Win rates (for the side that was to move) of the visited root children; shading from -1
/// (sure loss) to +1 (sure win).
pub fn win_rates(engine: &Engine, out: &mut String) -> Result<(), String> {
    let analysis = last_search(engine)?;
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
    Ok(())
}

fn last_search(engine: &Engine) -> Result<crate::engine::Analysis, String> {
    engine
        .analysis()
        .filter(|a| !a.children.is_empty())
        .ok_or_else(|| "no search yet (genmove first; forced stones skip the search)".to_string())
}

/// Short labels fit GoGui's cells: 1234, 12k, 1.2M.
fn compact(n: u32) -> String {
    match n {
        0..=9_999 => n.to_string(),
        10_000..=999_999 => format!("{}k", n / 1000),
        _ => format!("{:.1}M", n as f64 / 1e6),
    }
}

#[cfg(test)]
mod tests {
    use super::compact;

    #[test]
    fn labels_stay_short() {
        assert_eq!(compact(999), "999");
        assert_eq!(compact(12_345), "12k");
        assert_eq!(compact(2_500_000), "2.5M");
    }
}
