//! What the clock keeps back from a stone's time: the lag margin from every deadline, and under
//! sudden death the reserve for the stones still to come.

use crate::rules::Board;
use std::time::Duration;

/// What a stone costs beyond its search (the protocol's commands, the board's update, the
/// root's forced-stone checks), kept back for every stone still to come under sudden death.
pub(super) const STONE_OVERHEAD: Duration = Duration::from_millis(2);

/// The most stones the side to move may still place: half the empty points, and this turn's
/// second stone.
pub(super) fn own_stones_left(board: &Board) -> u32 {
    let empty = (board.size() * board.size()).saturating_sub(board.stone_count()) as u32;
    empty.div_ceil(2) + 1
}

/// What sudden death keeps back for the stones the side to move may still place: each one's
/// smallest budget and its overhead.
pub(super) fn sudden_death_reserve(min_stone_time: Duration, board: &Board) -> Duration {
    (min_stone_time + STONE_OVERHEAD) * own_stones_left(board)
}

/// The lag margin kept back from `at_stake`: the configured margin, but never more than a
/// tenth of it.
pub fn lag_margin(lag: Duration, at_stake: Duration) -> Duration {
    lag.min(at_stake / 10)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::common::time_control::test_support::{board_with, clock, secs};

    #[test]
    fn the_lag_margin_is_never_more_than_a_tenth_of_the_time_at_stake() {
        assert_eq!(lag_margin(secs(0.3), secs(10.0)), secs(0.3));
        assert_eq!(lag_margin(secs(0.3), secs(0.3)), secs(0.03));
        // A 0.3 s period for one stone keeps 0.27 s, not 12 ms.
        let c = clock(0.0, 0.3, 1);
        let t = c.stone_budget(&board_with(3)).time.unwrap().as_secs_f64();
        assert!((t - 0.27).abs() < 1e-6, "{t}");
    }
}
