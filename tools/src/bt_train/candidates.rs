//! Candidate feature groups measured next to the engine's (`liuzi-train paper --set
//! ours+NAME`), before any of them is built into the engine's incremental boards. Each is
//! computed here from scratch, for the trainer only.

use super::feature_set::FeatureSet;
use liuzi::policy::features::cross_value;
use liuzi::policy::{FeatureBoard, TurnContext};
use liuzi::rules::{Board, Point};

/// One candidate group.
#[derive(Clone, Copy, Debug)]
pub enum Candidate {
    /// Highest own line class of the four directions x highest opponent class it spoils
    /// (15 x 14): attack and defence in one stone.
    Cross,
    /// Chebyshev distance to the own stones of the side's previous turn: 1, 2, 3, farther.
    LastOwn,
    /// Own and opponent stones within Chebyshev distance 2, each 0, 1, 2, 3+ (4 x 4).
    Crowd,
    /// The opponent's current threat count (0, 1, 2, 3+) x whether the stone is a blocking
    /// point (x2).
    Pressure,
}

impl Candidate {
    pub fn named(name: &str) -> Option<Candidate> {
        Some(match name {
            "cross" => Candidate::Cross,
            "lastown" => Candidate::LastOwn,
            "crowd" => Candidate::Crowd,
            "pressure" => Candidate::Pressure,
            _ => return None,
        })
    }

    pub const NAMES: [&'static str; 4] = ["cross", "lastown", "crowd", "pressure"];
}

fn last_own(board: &Board, ctx: &TurnContext) -> [Option<Point>; 2] {
    let history = board.history();
    let pending = usize::from(ctx.first.is_some());
    let before = &history[..history.len() - pending];
    // Skip the opponent's last turn, then take the own stones of the turn before.
    let mut it = before
        .iter()
        .enumerate()
        .rev()
        .skip_while(|(n, _)| Board::color_of_stone(*n) != ctx.to_move)
        .take_while(|(n, _)| Board::color_of_stone(*n) == ctx.to_move)
        .map(|(_, &p)| p);
    [it.next(), it.next()]
}

impl FeatureSet for Candidate {
    fn id(&self) -> String {
        format!("{self:?}").to_lowercase()
    }

    fn sizes(&self) -> Vec<usize> {
        vec![match self {
            Candidate::Cross => liuzi::policy::Group::Cross.size(),
            Candidate::LastOwn => 4,
            Candidate::Crowd => 16,
            Candidate::Pressure => 8,
        }]
    }

    fn team(&self, fb: &FeatureBoard, ctx: &TurnContext, cell: usize, out: &mut [u32]) {
        let board = fb.board();
        let size = board.size();
        let p = Point::from_index(cell, size);
        out[0] = match self {
            // Measured here first; now the engine's `cross` group, computed by the same code.
            Candidate::Cross => cross_value(fb.direction_classes(cell, ctx.to_move)) as u32,
            Candidate::LastOwn => last_own(board, ctx)
                .iter()
                .flatten()
                .map(|s| s.distance(p))
                .filter(|&d| (1..=3).contains(&d))
                .min()
                .map_or(3, |d| d - 1),
            Candidate::Crowd => {
                let (mut own, mut opp) = (0u32, 0u32);
                for dr in -2i32..=2 {
                    for dc in -2i32..=2 {
                        let (c, r) = (p.col as i32 + dc, p.row as i32 + dr);
                        if c < 0 || r < 0 || c >= size as i32 || r >= size as i32 {
                            continue;
                        }
                        match board.get(Point::new(c as u8, r as u8)) {
                            Some(colour) if colour == ctx.to_move => own += 1,
                            Some(_) => opp += 1,
                            None => {}
                        }
                    }
                }
                own.min(3) * 4 + opp.min(3)
            }
            Candidate::Pressure => {
                // The same for every candidate of a position: computed once per position.
                thread_local! {
                    static LAST: std::cell::Cell<(u64, u32)> =
                        const { std::cell::Cell::new((u64::MAX, 0)) };
                }
                let hash = board.hash() ^ board.stone_count() as u64;
                let threats = LAST.with(|last| {
                    let (h, t) = last.get();
                    if h == hash {
                        return t;
                    }
                    let t = fb.patterns().threat_count(ctx.to_move.opponent()).min(3);
                    last.set((hash, t));
                    t
                });
                threats * 2 + u32::from(ctx.blocks.contains(cell))
            }
        };
    }
}
