//! The live analysis stream of Leela Zero and KataGo (`lz-analyze`, `kata-analyze`,
//! `genmove_analyze`), adapted to Connect6: what GUIs, web boards and scripts already parse.
//!
//! Each report is one line of `info` groups, one per root stone, most visited first:
//! `info move K11 visits 812 winrate 5423 prior 1210 lcb 5301 order 0 player W stone 1 pv K11
//! L12 J9 ...`. `lz-` reports give win rates, priors and bounds as integers in 0..=10000, `kata-`
//! ones as decimals in 0..=1. A move is one stone; `player` (B or W, the side to move) and
//! `stone` (1 or 2: which stone of its turn; Black's opening stone is 1) are Connect6's
//! additions, placed before `pv`, which runs to the end of the group: the stones in the order
//! they would be placed, both stones of every turn. docs/analysis.md has a transcript.

use super::board_text::push_vertex;
use crate::engine::{ChildAnalysis, Decision, NoSearch};
use crate::rules::{Board, Color, Point, Stage};
use std::fmt::Write as _;
use std::time::{Duration, Instant};

/// Shortest report interval: a smaller one would flood the pipe.
const MIN_INTERVAL: Duration = Duration::from_millis(10);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Format {
    /// Leela Zero's: integers in 0..=10000.
    Lz,
    /// KataGo's: decimals in 0..=1.
    Kata,
}

/// What an analysis command asked for.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Request {
    pub format: Format,
    /// `None`: no periodic reports, only the last one.
    pub interval: Option<Duration>,
    /// Report at least this many stones (unvisited ones by prior), at most `max_moves`.
    pub min_moves: usize,
    pub max_moves: Option<usize>,
}

impl Request {
    /// Reads `[colour] [interval] [key value]...`; the colour, when given, must be the side to
    /// move (Connect6's turn order cannot be changed).
    pub fn parse(format: Format, words: &[&str], board: &Board) -> Result<Request, String> {
        let mut request = Request {
            format,
            interval: None,
            min_moves: 0,
            max_moves: None,
        };
        let mut rest = words;
        if let Some((first, tail)) = rest.split_first() {
            if let Some(colour) = Color::parse(first) {
                if colour != board.to_move() {
                    return Err(format!(
                        "{} is to play (Connect6's turn order: B, WW, BB, ...)",
                        board.to_move()
                    ));
                }
                rest = tail;
            }
        }
        if let Some((first, tail)) = rest.split_first() {
            if first.bytes().all(|b| b.is_ascii_digit()) {
                request.interval = centiseconds(first)?;
                rest = tail;
            }
        }
        while let Some((key, tail)) = rest.split_first() {
            let value = tail
                .first()
                .ok_or_else(|| format!("syntax error: `{key}` needs a value"))?;
            let count = || {
                value
                    .parse::<usize>()
                    .map_err(|_| format!("syntax error: invalid {key} `{value}`"))
            };
            match *key {
                "interval" => request.interval = centiseconds(value)?,
                "minmoves" => request.min_moves = count()?,
                "maxmoves" => request.max_moves = Some(count()?),
                other => return Err(format!("syntax error: unknown key `{other}`")),
            }
            rest = &tail[1..];
        }
        Ok(request)
    }
}

fn centiseconds(word: &str) -> Result<Option<Duration>, String> {
    let cs = word
        .parse::<u64>()
        .map_err(|_| format!("syntax error: invalid interval `{word}`"))?;
    Ok((cs > 0).then(|| Duration::from_millis(cs.saturating_mul(10)).max(MIN_INTERVAL)))
}

/// A running stream: its request, whose turn the position is, and when the next report is due.
pub(super) struct Stream {
    pub request: Request,
    player: Color,
    stone: u8,
    next_due: Option<Instant>,
}

impl Stream {
    pub fn new(request: Request, board: &Board) -> Stream {
        let stone = if board.stone_count() > 0 && board.stage() == Stage::Second {
            2
        } else {
            1
        };
        Stream {
            next_due: request.interval.map(|i| Instant::now() + i),
            request,
            player: board.to_move(),
            stone,
        }
    }

    /// The report for `children` if one is due now (advancing the due time).
    pub fn due_report(&mut self, children: &[ChildAnalysis]) -> Option<String> {
        let (due, interval) = (self.next_due?, self.request.interval?);
        let now = Instant::now();
        if now < due {
            return None;
        }
        self.next_due = Some(now + interval);
        self.report(children)
    }

    /// One line of `info` groups for `children`; `None` when nothing was searched.
    pub fn report(&self, children: &[ChildAnalysis]) -> Option<String> {
        let mut ranked: Vec<&ChildAnalysis> = children.iter().collect();
        ranked.sort_by(|a, b| {
            b.visits
                .cmp(&a.visits)
                .then(rate(b.win_rate).total_cmp(&rate(a.win_rate)))
                .then(b.prior.total_cmp(&a.prior))
        });
        let visited = ranked.iter().take_while(|c| c.visits > 0).count();
        if visited == 0 {
            return None;
        }
        let shown = visited
            .max(self.request.min_moves)
            .min(self.request.max_moves.unwrap_or(usize::MAX))
            .min(ranked.len());
        let mut line = String::new();
        for (order, child) in ranked.iter().take(shown).enumerate() {
            let win = rate(child.win_rate);
            let lcb = if child.visits > 0 {
                wilson_lower_bound(win, child.visits)
            } else {
                0.0
            };
            self.group(
                &mut line,
                child.point,
                child.visits,
                win,
                child.prior,
                lcb,
                order,
            );
            line.push_str(" pv");
            let pv: &[Point] = if child.pv.is_empty() {
                std::slice::from_ref(&child.point)
            } else {
                &child.pv
            };
            for &p in pv {
                line.push(' ');
                push_vertex(&mut line, p);
            }
        }
        line.push('\n');
        Some(line)
    }

    /// The report for a stone chosen without a search: one group with no visits, its win rate
    /// and bound known only for a sure win (else 0.5 and 0: unknown), and `reason` saying why
    /// (`opening`, `book`, `win`, `forced`, `proven`).
    pub fn unsearched_report(&self, p: Point, why: NoSearch) -> String {
        let (win, reason) = match why {
            NoSearch::Opening => (0.5, "opening"),
            NoSearch::Book => (0.5, "book"),
            NoSearch::Decided(Decision::Win) => (1.0, "win"),
            NoSearch::Decided(Decision::ForcedBlock) => (0.5, "forced"),
            NoSearch::Decided(_) => (1.0, "proven"),
        };
        // Only a sure win has a bound; otherwise nothing is known.
        let lcb = if win >= 1.0 { 1.0 } else { 0.0 };
        let mut line = String::new();
        self.group(&mut line, p, 0, win, 1.0, lcb, 0);
        let _ = write!(line, " reason {reason} pv ");
        push_vertex(&mut line, p);
        line.push('\n');
        line
    }

    /// `info move X visits N winrate W prior P lcb L order K player C stone S` (the pv
    /// follows).
    #[allow(clippy::too_many_arguments)]
    fn group(
        &self,
        line: &mut String,
        p: Point,
        visits: u32,
        win: f32,
        prior: f32,
        lcb: f32,
        order: usize,
    ) {
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str("info move ");
        push_vertex(line, p);
        let _ = write!(line, " visits {visits} winrate ");
        self.number(line, win);
        line.push_str(" prior ");
        self.number(line, prior);
        line.push_str(" lcb ");
        self.number(line, lcb);
        let _ = write!(
            line,
            " order {order} player {} stone {}",
            self.player.letter().to_ascii_uppercase(),
            self.stone
        );
    }

    fn number(&self, line: &mut String, x: f32) {
        let x = x.clamp(0.0, 1.0);
        let _ = match self.request.format {
            Format::Lz => write!(line, "{}", (x * 10000.0).round() as u32),
            Format::Kata => write!(line, "{x:.6}"),
        };
    }
}

fn rate(win_rate: Option<f32>) -> f32 {
    win_rate.unwrap_or(0.0)
}

/// The Wilson score lower bound (z = 1.96) of a win rate measured over `n` playouts.
fn wilson_lower_bound(p: f32, n: u32) -> f32 {
    const Z: f64 = 1.96;
    let (p, n) = (f64::from(p.clamp(0.0, 1.0)), f64::from(n.max(1)));
    let z2 = Z * Z;
    let centre = p + z2 / (2.0 * n);
    let spread = Z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - spread) / (1.0 + z2 / n)).max(0.0) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn child(col: u8, visits: u32, win: f32, prior: f32, pv: &[Point]) -> ChildAnalysis {
        ChildAnalysis {
            point: Point::new(col, 9),
            prior,
            visits,
            win_rate: (visits > 0).then_some(win),
            pv: pv.to_vec(),
        }
    }

    #[test]
    fn requests_read_like_leela_zero_and_katago() {
        let mut board = Board::standard();
        board.play(Point::new(9, 9)).unwrap();
        let r = Request::parse(Format::Lz, &["w", "50"], &board).unwrap();
        assert_eq!(r.interval, Some(Duration::from_millis(500)));
        let r = Request::parse(Format::Kata, &["interval", "20", "maxmoves", "3"], &board);
        let r = r.unwrap();
        assert_eq!(
            (r.interval, r.max_moves),
            (Some(Duration::from_millis(200)), Some(3))
        );
        assert_eq!(
            Request::parse(Format::Lz, &[], &board).unwrap().interval,
            None
        );
        assert!(Request::parse(Format::Lz, &["b", "50"], &board)
            .unwrap_err()
            .contains("white is to play"));
        assert!(Request::parse(Format::Lz, &["50", "speed", "1"], &board).is_err());
        assert!(Request::parse(Format::Lz, &["interval"], &board).is_err());
    }

    #[test]
    fn reports_rank_by_visits_and_say_whose_stone_it_is() {
        let mut board = Board::standard();
        board.play(Point::new(9, 9)).unwrap();
        let request = Request::parse(Format::Lz, &["10"], &board).unwrap();
        let stream = Stream::new(request, &board);
        let second = Point::new(3, 3);
        let children = [
            child(1, 10, 0.25, 0.5, &[Point::new(1, 9), second]),
            child(2, 90, 0.75, 0.25, &[Point::new(2, 9)]),
            child(4, 0, 0.0, 0.25, &[]),
        ];
        let line = stream.report(&children).unwrap();
        assert!(line.ends_with('\n') && !line.trim_end().contains('\n'));
        let groups: Vec<&str> = line.trim_end().split("info ").skip(1).collect();
        assert_eq!(groups.len(), 2, "unvisited stones are left out: {line}");
        assert!(groups[0].starts_with("move C10 visits 90 winrate 7500 prior 2500 lcb "));
        assert!(
            groups[0].contains(" order 0 player W stone 1 pv C10"),
            "{line}"
        );
        assert!(groups[1]
            .trim_end()
            .ends_with("order 1 player W stone 1 pv B10 D4"));
        let kata = Stream::new(Request::parse(Format::Kata, &[], &board).unwrap(), &board);
        let line = kata.report(&children).unwrap();
        assert!(
            line.contains("winrate 0.750000 prior 0.250000 lcb 0.6"),
            "{line}"
        );
        assert_eq!(stream.report(&children[2..]), None);
    }

    #[test]
    fn the_lower_bound_is_below_the_rate_and_tightens_with_visits() {
        let loose = wilson_lower_bound(0.6, 10);
        let tight = wilson_lower_bound(0.6, 10_000);
        assert!(
            loose < tight && tight < 0.6 && tight > 0.58,
            "{loose} {tight}"
        );
        assert_eq!(wilson_lower_bound(0.0, 5), 0.0);
    }
}
