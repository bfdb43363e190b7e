//! How a descent ended (a playout, a finished game or a proof, and the leaf's value when the
//! evaluator values leaves), and the rewards it backs up.

use super::node::REWARD_UNIT;
use super::playout::PlayoutEnd;
use crate::rules::{Color, GameResult};

/// A share `score` of a win as a reward, in units of 1/[`REWARD_UNIT`].
fn reward(score: f64) -> u32 {
    (score.clamp(0.0, 1.0) * f64::from(REWARD_UNIT)).round() as u32
}

/// How one descent ended: how its playout (or the game, or a proof) ended, and the evaluator's
/// win probability for the side to move at the leaf its playout started from (when leaves are
/// valued).
pub(super) struct Ending {
    pub end: PlayoutEnd,
    pub leaf_value: Option<(Color, f64)>,
    /// The end is the game's (a finished game or a proof), not a playout's.
    pub exact: bool,
}

impl Ending {
    /// The end of a finished game, or of a descent that reached a proof.
    pub(super) fn exact(result: GameResult) -> Ending {
        Ending {
            end: PlayoutEnd::Over(result),
            leaf_value: None,
            exact: true,
        }
    }

    /// The leaf's value for `player`, the player of the descent's last edge: the evaluator's,
    /// or the exact result when the descent ended on a finished game or a proof.
    pub(super) fn value_for(&self, player: Color) -> Option<f32> {
        if !self.exact {
            let (me, v) = self.leaf_value?;
            let v = v.clamp(0.0, 1.0) as f32;
            return Some(if me == player { v } else { 1.0 - v });
        }
        self.end.score_for(player).map(|s| s as f32)
    }

    /// Rewards for Black and White: the end's, mixed with the leaf value by `lambda`, rounded
    /// to a unit for one side (the other side gets the complement).
    pub(super) fn rewards(&self, lambda: f32) -> [u32; 2] {
        let (me, mixed) = match self.leaf_value {
            None => (
                Color::Black,
                self.end.score_for(Color::Black).unwrap_or(0.5),
            ),
            Some((me, v)) => {
                let z = self.end.score_for(me).unwrap_or(0.5);
                let lambda = f64::from(lambda);
                (me, (1.0 - lambda) * z + lambda * v.clamp(0.0, 1.0))
            }
        };
        let mine = reward(mixed);
        let mut out = [REWARD_UNIT - mine; 2];
        out[me.index()] = mine;
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewards_mix_the_result_with_the_leaf_value_and_stay_complementary() {
        let win = GameResult::Win(Color::Black);
        let exact = Ending::exact(win);
        assert_eq!(exact.rewards(0.5), [REWARD_UNIT, 0]);
        let draw = Ending::exact(GameResult::Draw);
        assert_eq!(draw.rewards(0.0), [REWARD_UNIT / 2; 2]);
        // White to move at the leaf, valued 0.75 for White; Black won the playout.
        let valued = Ending {
            end: PlayoutEnd::Over(win),
            leaf_value: Some((Color::White, 0.75)),
            exact: false,
        };
        assert_eq!(valued.value_for(Color::White), Some(0.75));
        assert_eq!(valued.value_for(Color::Black), Some(0.25));
        assert_eq!(exact.value_for(Color::Black), Some(1.0));
        let unvalued = Ending {
            leaf_value: None,
            ..Ending::exact(win)
        };
        assert_eq!(
            Ending {
                exact: false,
                ..unvalued
            }
            .value_for(Color::Black),
            None,
            "a playout's result is no minimax value"
        );
        assert_eq!(valued.rewards(0.0), [REWARD_UNIT, 0]);
        assert_eq!(valued.rewards(1.0), [REWARD_UNIT / 4, 3 * REWARD_UNIT / 4]);
        // λ = 0.5: White gets (0 + 0.75) / 2 = 0.375 of a win, rounded to a unit.
        let white = (0.375 * REWARD_UNIT as f64).round() as u32;
        assert_eq!(valued.rewards(0.5), [REWARD_UNIT - white, white]);
    }

    #[test]
    fn a_cut_off_playout_is_rewarded_its_probability() {
        let cut = Ending {
            end: PlayoutEnd::CutOff { black_wins: 0.8 },
            leaf_value: None,
            exact: false,
        };
        // 0.8 of a win for Black, 0.2 for White, in units (not a coin's 0 or 1).
        let black = (0.8 * REWARD_UNIT as f64).round() as u32;
        assert_eq!(cut.rewards(0.0), [black, REWARD_UNIT - black]);
        assert_eq!(
            cut.value_for(Color::Black),
            None,
            "no leaf value without the evaluator"
        );
        // White to move at the leaf, valued 0.75 for White: λ = 0.5 mixes 0.2 and 0.75.
        let valued = Ending {
            leaf_value: Some((Color::White, 0.75)),
            ..cut
        };
        let white = (0.475 * REWARD_UNIT as f64).round() as u32;
        assert_eq!(valued.rewards(0.5), [REWARD_UNIT - white, white]);
    }
}
