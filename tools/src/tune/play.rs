//! The games of one iteration: the plus and minus engines against each other on one opening
//! (a colour-swapped pair), or each against the reference with both colours on it (four games,
//! paired by opening and colour).

use super::state::{IterationGame, Side};
use crate::match_runner::engine_spec::EngineSpec;
use crate::match_runner::game::{play_game, GameSetup};
use crate::match_runner::launch::start_player;
use crate::match_runner::player::PlayerContext;
use crate::match_runner::results::format_moves;
use crate::match_runner::time_control::TimeControl;
use liuzi::rules::Color;

/// The engines of an iteration and how their games are played.
pub struct IterationPlayers<'a> {
    pub plus: &'a EngineSpec,
    pub minus: &'a EngineSpec,
    pub reference: Option<&'a EngineSpec>,
    pub context: &'a PlayerContext,
}

/// Which sides play Black and White, game by game.
pub fn schedule(with_reference: bool) -> Vec<(Side, Side)> {
    use Side::{Minus, Plus, Reference};
    if with_reference {
        vec![
            (Plus, Reference),
            (Minus, Reference),
            (Reference, Plus),
            (Reference, Minus),
        ]
    } else {
        vec![(Plus, Minus), (Minus, Plus)]
    }
}

/// The plus side's score minus the minus side's over `games` (a win 1, a draw ½): between
/// plus and minus a game moves it by +1, 0 or −1, wins minus losses.
pub fn score_difference(games: &[IterationGame]) -> f64 {
    let mut diff = 0.0;
    for g in games {
        for (side, colour) in [(g.black, Color::Black), (g.white, Color::White)] {
            let score = g.result.score_for(colour);
            match side {
                Side::Plus => diff += score,
                Side::Minus => diff -= score,
                Side::Reference => {}
            }
        }
    }
    diff
}

/// Black's and White's time controls: each engine's own, else `default` (as in a match).
pub fn game_times(
    black: &EngineSpec,
    white: &EngineSpec,
    default: Option<TimeControl>,
) -> [Option<TimeControl>; 2] {
    [black.time.or(default), white.time.or(default)]
}

/// Plays the iteration's games from `setup`'s opening; `setup.time` is the time control of
/// engines without their own (the same for both colours). `Err` when interrupted or when an
/// engine cannot start.
pub fn play_iteration(
    players: &IterationPlayers,
    setup: &GameSetup,
) -> Result<Vec<IterationGame>, String> {
    let spec_of = |side| match side {
        Side::Plus => Some(players.plus),
        Side::Minus => Some(players.minus),
        Side::Reference => players.reference,
    };
    let mut games = Vec::new();
    for (black, white) in schedule(players.reference.is_some()) {
        let (Some(b), Some(w)) = (spec_of(black), spec_of(white)) else {
            return Err("the schedule names a reference the run has not".into());
        };
        let setup = GameSetup {
            time: game_times(b, w, setup.time[0]),
            ..setup.clone()
        };
        let mut bp = start_player(b, players.context)?;
        let mut wp = start_player(w, players.context)?;
        let outcome =
            play_game(&setup, [bp.as_mut(), wp.as_mut()]).map_err(|_| "interrupted".to_string())?;
        for (colour, p) in [(Color::Black, bp), (Color::White, wp)] {
            if outcome.at_fault == Some(colour) || players.context.cancel.is_cancelled() {
                drop(p);
            } else {
                p.shut_down();
            }
        }
        let reason = if outcome.detail.is_empty() {
            outcome.reason.as_str().to_string()
        } else {
            format!("{}: {}", outcome.reason.as_str(), outcome.detail)
        };
        games.push(IterationGame {
            black,
            white,
            result: outcome.winner,
            reason,
            moves: format_moves(&outcome.stones, setup.size),
        });
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::match_runner::outcome::Winner;

    fn game(black: Side, white: Side, result: Winner) -> IterationGame {
        IterationGame {
            black,
            white,
            result,
            reason: "six".into(),
            moves: String::new(),
        }
    }

    #[test]
    fn an_engines_own_time_control_wins_over_the_default() {
        use crate::match_runner::engine_spec::parse_engine_flag;
        let timed = parse_engine_flag("name=a cmd=x st=1").unwrap();
        let untimed = parse_engine_flag("name=b cmd=y").unwrap();
        let one = TimeControl::parse_per_turn("1").unwrap();
        let five = TimeControl::parse_per_turn("5").unwrap();
        assert_eq!(game_times(&timed, &untimed, None), [Some(one), None]);
        assert_eq!(
            game_times(&untimed, &timed, Some(five)),
            [Some(five), Some(one)]
        );
    }

    #[test]
    fn the_score_difference_counts_wins_minus_losses() {
        use Side::{Minus, Plus, Reference};
        use Winner::{Black, Draw, White};
        // Direct pair: plus wins both, draws both, splits.
        assert_eq!(
            score_difference(&[game(Plus, Minus, Black), game(Minus, Plus, White)]),
            2.0
        );
        assert_eq!(
            score_difference(&[game(Plus, Minus, Draw), game(Minus, Plus, Draw)]),
            0.0
        );
        assert_eq!(
            score_difference(&[game(Plus, Minus, Black), game(Minus, Plus, Black)]),
            0.0
        );
        // Against a reference: plus wins as Black, minus loses as Black, both lose as White.
        let games = [
            game(Plus, Reference, Black),
            game(Minus, Reference, White),
            game(Reference, Plus, Black),
            game(Reference, Minus, Black),
        ];
        assert_eq!(score_difference(&games), 1.0);
        assert_eq!(schedule(true).len(), 4);
        assert_eq!(schedule(false), vec![(Plus, Minus), (Minus, Plus)]);
    }
}
