//! The games of one iteration: the plus and minus engines against each other on one opening
//! (a colour-swapped pair), or each against the reference with both colours on it (four games,
//! paired by opening and colour).

use super::state::IterationGame;
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

/// Which sides play which colours, by the names the state file records.
pub fn schedule(with_reference: bool) -> Vec<(&'static str, &'static str)> {
    if with_reference {
        vec![
            ("plus", "reference"),
            ("minus", "reference"),
            ("reference", "plus"),
            ("reference", "minus"),
        ]
    } else {
        vec![("plus", "minus"), ("minus", "plus")]
    }
}

/// The plus side's score minus the minus side's over `games` (a win 1, a draw ½).
pub fn score_difference(games: &[IterationGame]) -> f64 {
    let mut diff = 0.0;
    for g in games {
        for (side, colour) in [(&g.black, Color::Black), (&g.white, Color::White)] {
            let score = match (g.result.as_str(), colour) {
                ("D", _) => 0.5,
                ("B", Color::Black) | ("W", Color::White) => 1.0,
                _ => 0.0,
            };
            match side.as_str() {
                "plus" => diff += score,
                "minus" => diff -= score,
                _ => {}
            }
        }
    }
    // A game between plus and minus moves it by +1, 0 (a draw) or -1: wins minus losses.
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
    let spec_of = |side: &str| match side {
        "plus" => Some(players.plus),
        "minus" => Some(players.minus),
        _ => players.reference,
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
        let result = match outcome.winner {
            crate::match_runner::outcome::Winner::Black => "B",
            crate::match_runner::outcome::Winner::White => "W",
            crate::match_runner::outcome::Winner::Draw => "D",
        };
        let reason = if outcome.detail.is_empty() {
            outcome.reason.as_str().to_string()
        } else {
            format!("{}: {}", outcome.reason.as_str(), outcome.detail)
        };
        games.push(IterationGame {
            black: black.into(),
            white: white.into(),
            result: result.into(),
            reason,
            moves: format_moves(&outcome.stones, setup.size),
        });
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(black: &str, white: &str, result: &str) -> IterationGame {
        IterationGame {
            black: black.into(),
            white: white.into(),
            result: result.into(),
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
        // Direct pair: plus wins both, draws both, splits.
        assert_eq!(
            score_difference(&[game("plus", "minus", "B"), game("minus", "plus", "W")]),
            2.0
        );
        assert_eq!(
            score_difference(&[game("plus", "minus", "D"), game("minus", "plus", "D")]),
            0.0
        );
        assert_eq!(
            score_difference(&[game("plus", "minus", "B"), game("minus", "plus", "B")]),
            0.0
        );
        // Against a reference: plus wins as Black, minus loses as Black, both lose as White.
        let games = [
            game("plus", "reference", "B"),
            game("minus", "reference", "W"),
            game("reference", "plus", "B"),
            game("reference", "minus", "B"),
        ];
        assert_eq!(score_difference(&games), 1.0);
        assert_eq!(schedule(true).len(), 4);
        assert_eq!(schedule(false), vec![("plus", "minus"), ("minus", "plus")]);
    }
}
