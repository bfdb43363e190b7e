//! Time controls: a limit per turn, or a game clock with an increment per turn.
//!
//! A Connect6 turn is both stones of a side (one stone for Black's opening turn). The referee
//! measures the wall time from sending the request to receiving the last stone of the turn.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum TimeControl {
    /// Every turn must finish within this time.
    PerTurn(Duration),
    /// A game clock of `main`; `increment` is added after every completed turn (Fischer).
    Clock { main: Duration, increment: Duration },
}

fn parse_seconds(text: &str) -> Result<Duration, String> {
    let value: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if !(0.0..=1e7).contains(&value) {
        return Err(format!("`{text}` is not a sensible number of seconds"));
    }
    Ok(Duration::from_secs_f64(value))
}

impl TimeControl {
    /// Parses a clock `MAIN[+INC]` in seconds, e.g. `60+0.5` or `300`.
    pub fn parse_clock(text: &str) -> Result<TimeControl, String> {
        let (main, increment) = match text.split_once('+') {
            Some((m, i)) => (parse_seconds(m)?, parse_seconds(i)?),
            None => (parse_seconds(text)?, Duration::ZERO),
        };
        if main.is_zero() {
            return Err(format!("time control `{text}`: main time must be positive"));
        }
        Ok(TimeControl::Clock { main, increment })
    }

    /// The command line's `--tc MAIN[+INC]` or `--st SECONDS` (`--tc` wins), errors naming
    /// the flag; `None` when neither is given.
    pub fn from_flags(tc: Option<&str>, st: Option<&str>) -> Result<Option<TimeControl>, String> {
        match (tc, st) {
            (Some(tc), _) => TimeControl::parse_clock(tc)
                .map(Some)
                .map_err(|e| format!("--tc: {e}")),
            (None, Some(st)) => TimeControl::parse_per_turn(st)
                .map(Some)
                .map_err(|e| format!("--st: {e}")),
            (None, None) => Ok(None),
        }
    }

    /// Parses a per-turn limit in seconds, e.g. `5` or `0.5`.
    pub fn parse_per_turn(text: &str) -> Result<TimeControl, String> {
        let limit = parse_seconds(text)?;
        if limit.is_zero() {
            return Err(format!("per-turn limit `{text}` must be positive"));
        }
        Ok(TimeControl::PerTurn(limit))
    }
}

/// `st=5` or `tc=60+0.5`: the same spelling the CLI and the TOML file accept.
impl FromStr for TimeControl {
    type Err = String;
    fn from_str(text: &str) -> Result<TimeControl, String> {
        match text.split_once('=') {
            Some(("st", v)) => TimeControl::parse_per_turn(v),
            Some(("tc", v)) => TimeControl::parse_clock(v),
            _ => Err(format!(
                "time control `{text}`: expected st=SECONDS or tc=MAIN[+INC]"
            )),
        }
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::PerTurn(t) => write!(f, "st={}", t.as_secs_f64()),
            TimeControl::Clock { main, increment } if increment.is_zero() => {
                write!(f, "tc={}", main.as_secs_f64())
            }
            TimeControl::Clock { main, increment } => {
                write!(f, "tc={}+{}", main.as_secs_f64(), increment.as_secs_f64())
            }
        }
    }
}

/// One side's clock during a game.
#[derive(Clone, Debug)]
pub struct SideClock {
    control: Option<TimeControl>,
    remaining: Duration,
    used: Duration,
    /// A clock's time spent beyond zero, over the whole game: the margin forgives latency
    /// once, not a game played on an empty clock one margin a turn.
    overdrawn: Duration,
}

impl SideClock {
    pub fn new(control: Option<TimeControl>) -> SideClock {
        let remaining = match control {
            Some(TimeControl::Clock { main, .. }) => main,
            _ => Duration::ZERO,
        };
        SideClock {
            control,
            remaining,
            used: Duration::ZERO,
            overdrawn: Duration::ZERO,
        }
    }

    pub fn control(&self) -> Option<TimeControl> {
        self.control
    }

    /// Time the next turn may take; `None` without a time control.
    pub fn allowed(&self) -> Option<Duration> {
        match self.control? {
            TimeControl::PerTurn(limit) => Some(limit),
            TimeControl::Clock { .. } => Some(self.remaining),
        }
    }

    /// Total thinking time so far.
    pub fn used(&self) -> Duration {
        self.used
    }

    /// Books a finished turn. `Err` with a description when it went over `allowed + margin`,
    /// or, with a game clock, when the time spent past an empty clock adds up to more than
    /// `margin` over the game.
    pub fn charge(&mut self, spent: Duration, margin: Duration) -> Result<(), String> {
        self.used += spent;
        let Some(control) = self.control else {
            return Ok(());
        };
        let allowed = self.allowed().unwrap_or_default();
        if let TimeControl::Clock { .. } = control {
            self.overdrawn += spent.saturating_sub(allowed);
        }
        if spent > allowed + margin || self.overdrawn > margin {
            return Err(match control {
                TimeControl::PerTurn(_) => format!(
                    "turn took {:.3} s, limit {:.3} s",
                    spent.as_secs_f64(),
                    allowed.as_secs_f64()
                ),
                TimeControl::Clock { .. } => format!(
                    "turn took {:.3} s with {:.3} s left on the clock ({:.3} s past it this game)",
                    spent.as_secs_f64(),
                    allowed.as_secs_f64(),
                    self.overdrawn.as_secs_f64()
                ),
            });
        }
        if let TimeControl::Clock { increment, .. } = control {
            self.remaining = self.remaining.saturating_sub(spent) + increment;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: f64) -> Duration {
        Duration::from_secs_f64(s)
    }

    #[test]
    fn parses_and_prints() {
        assert_eq!(
            "tc=60+0.5".parse::<TimeControl>(),
            Ok(TimeControl::Clock {
                main: secs(60.0),
                increment: secs(0.5)
            })
        );
        assert_eq!(
            "st=5".parse::<TimeControl>(),
            Ok(TimeControl::PerTurn(secs(5.0)))
        );
        assert_eq!(
            "st=2.5".parse::<TimeControl>().unwrap().to_string(),
            "st=2.5"
        );
        assert_eq!(
            "tc=300".parse::<TimeControl>().unwrap().to_string(),
            "tc=300"
        );
        assert_eq!(
            "tc=10+1".parse::<TimeControl>().unwrap().to_string(),
            "tc=10+1"
        );
        for bad in ["st=0", "st=-1", "tc=abc", "tc=0+1", "5", "xx=5", "st=NaN"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }

    #[test]
    fn clock_counts_down_and_adds_increment() {
        let mut c = SideClock::new(Some(TimeControl::Clock {
            main: secs(10.0),
            increment: secs(1.0),
        }));
        assert_eq!(c.allowed(), Some(secs(10.0)));
        c.charge(secs(4.0), Duration::ZERO).unwrap();
        assert_eq!(c.allowed(), Some(secs(7.0)));
        // Within the margin: allowed, the clock stops at zero.
        c.charge(secs(7.05), secs(0.1)).unwrap();
        assert_eq!(c.allowed(), Some(secs(1.0)));
        let err = c.charge(secs(1.5), secs(0.1)).unwrap_err();
        assert!(err.contains("left on the clock"), "{err}");
        assert_eq!(c.used(), secs(12.55));
    }

    #[test]
    fn the_margin_forgives_a_game_once_not_every_turn() {
        // Sudden death: each turn over an empty clock by less than the margin, as an engine
        // that plays on a 10 ms floor does, runs out once the overdraft passes the margin.
        let mut c = SideClock::new(Some(TimeControl::Clock {
            main: secs(1.0),
            increment: Duration::ZERO,
        }));
        let margin = secs(0.2);
        c.charge(secs(1.05), margin).unwrap();
        assert_eq!(c.allowed(), Some(Duration::ZERO));
        // 0.05 s past it, then 15 turns of 10 ms: 0.2 s, the margin.
        for _ in 0..15 {
            c.charge(secs(0.01), margin).unwrap();
        }
        let err = c.charge(secs(0.01), margin).unwrap_err();
        assert!(err.contains("past it this game"), "{err}");
        // A per-turn limit knows no overdraft: every turn has its own margin.
        let mut t = SideClock::new(Some(TimeControl::PerTurn(secs(1.0))));
        for _ in 0..100 {
            t.charge(secs(1.1), margin).unwrap();
        }
    }

    #[test]
    fn per_turn_limit_is_the_same_every_turn() {
        let mut c = SideClock::new(Some(TimeControl::PerTurn(secs(2.0))));
        c.charge(secs(1.9), Duration::ZERO).unwrap();
        assert_eq!(c.allowed(), Some(secs(2.0)));
        assert!(c.charge(secs(2.2), secs(0.1)).is_err());
        let mut free = SideClock::new(None);
        assert_eq!(free.allowed(), None);
        free.charge(secs(1000.0), Duration::ZERO).unwrap();
    }
}
