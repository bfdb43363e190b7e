//! A scripted Connect6 engine for testing the match runner (and for trying it out): speaks GTP
//! or the Connect6 protocol (Cloudict or SAU dialect) and misbehaves on request.
//!
//!     fake-engine --protocol gtp --behaviour random --seed 3
//!     fake-engine --protocol cloudict --noise --behaviour crash --after 4
//!
//! `--after N` lets the engine play N stones normally before the behaviour starts.

use clap::{Parser, ValueEnum};
use liuzi::notation::{format_c6_stone, format_gtp, parse_c6_stone, parse_gtp, LetterOrder};
use liuzi::rules::{Board, Color, Point};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::io::{BufRead, Write};
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Protocol {
    Gtp,
    Cloudict,
    Sau,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Behaviour {
    /// Legal random stones.
    Random,
    /// Always the empty point with the lowest index (two of these fill a 6x6 board with no six).
    FirstEmpty,
    /// Builds a row of its own along the bottom (Black) or top (White) edge.
    Line,
    /// Plays on an occupied point.
    Illegal,
    /// Exits instead of answering.
    Crash,
    /// Answers after `--delay-ms`.
    Slow,
    /// Never answers again.
    Hang,
    /// Answers something that is not a move.
    Garbage,
    /// GTP: resigns.
    Resign,
    /// Connect6 protocol: one stone where two are due.
    WrongCount,
    /// GTP: refuses the opponent's stones.
    Refuse,
    /// Prints `--flood-mb` megabytes of chatter before every move reply.
    Flood,
}

#[derive(Parser, Debug)]
#[command(about = "Scripted Connect6 engine for match-runner tests")]
struct Args {
    #[arg(long, value_enum, default_value = "gtp")]
    protocol: Protocol,
    #[arg(long, value_enum, default_value = "random")]
    behaviour: Behaviour,
    /// Stones played normally before the behaviour starts.
    #[arg(long, default_value_t = 0)]
    after: usize,
    #[arg(long, default_value_t = 0)]
    delay_ms: u64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print non-protocol lines (help text, search info) on stdout.
    #[arg(long)]
    noise: bool,
    /// Append every received line to this file.
    #[arg(long)]
    transcript: Option<std::path::PathBuf>,
    /// Refuse `boardsize` for any size but this one (GTP).
    #[arg(long)]
    only_size: Option<usize>,
    /// Megabytes of chatter a flooding engine prints before each reply.
    #[arg(long, default_value_t = 64)]
    flood_mb: usize,
    /// Refuse `time_left` with a fractional time, as GTP's whole seconds allow.
    #[arg(long)]
    whole_seconds: bool,
    /// Board size for the Connect6 protocol, which has no command for it.
    #[arg(long, default_value_t = 19)]
    size: usize,
}

struct Fake {
    args: Args,
    board: Board,
    rng: Xoshiro256PlusPlus,
    /// Stones this engine has chosen so far (all games).
    played: usize,
    out: std::io::Stdout,
    transcript: Option<std::fs::File>,
}

impl Fake {
    fn misbehaving(&self) -> bool {
        self.played >= self.args.after
    }

    fn say(&mut self, line: &str) {
        let mut out = self.out.lock();
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    }

    fn noise(&mut self, line: &str) {
        if self.args.noise {
            self.say(line);
        }
    }

    /// Waits as the behaviour says before answering a move request; may not return.
    fn before_move(&mut self) {
        if !self.misbehaving() {
            return;
        }
        match self.args.behaviour {
            Behaviour::Crash => std::process::exit(3),
            Behaviour::Hang => loop {
                std::thread::sleep(Duration::from_secs(3600));
            },
            Behaviour::Slow => std::thread::sleep(Duration::from_millis(self.args.delay_ms)),
            Behaviour::Flood => {
                let line = "info: flooding the pipe with chatter ............................\n";
                let mut out = self.out.lock();
                for _ in 0..(self.args.flood_mb << 20) / line.len() {
                    if out.write_all(line.as_bytes()).is_err() {
                        std::process::exit(4); // the reader gave up on us
                    }
                }
                let _ = out.flush();
            }
            _ => {}
        }
    }

    /// Chooses and plays the next stone for the side to move.
    fn choose(&mut self) -> Point {
        let legal: Vec<Point> = self.board.legal_points().collect();
        let p = if self.misbehaving() && self.args.behaviour == Behaviour::Illegal {
            self.board.last_stone().unwrap_or(Point::new(0, 0))
        } else {
            match self.args.behaviour {
                Behaviour::FirstEmpty => legal[0],
                Behaviour::Line => {
                    let row = if self.board.to_move() == Color::Black {
                        0
                    } else {
                        self.board.size() - 1
                    };
                    legal
                        .iter()
                        .copied()
                        .find(|p| p.row as usize == row)
                        .unwrap_or(legal[0])
                }
                _ => *legal
                    .choose(&mut self.rng)
                    .expect("asked to move on a full board"),
            }
        };
        let _ = self.board.play(p);
        self.played += 1;
        p
    }

    fn log(&mut self, line: &str) {
        if let Some(f) = &mut self.transcript {
            let _ = writeln!(f, "{line}");
        }
    }
}

fn main() {
    let args = Args::parse();
    let transcript = args.transcript.as_ref().map(|p| {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(p)
            .expect("transcript file")
    });
    let rng = Xoshiro256PlusPlus::seed_from_u64(args.seed);
    let protocol = args.protocol;
    let mut fake = Fake {
        args,
        board: Board::standard(),
        rng,
        played: 0,
        out: std::io::stdout(),
        transcript,
    };
    if protocol != Protocol::Gtp {
        // Cloudict's help text has lines like these: indented, and not replies.
        fake.noise("On help for GameEngine fake");
        fake.noise("            name        - print the name of the Game Engine.");
        fake.noise(
            "            move XXXX   - tell the engine that the opponent take the move XXXX,",
        );
    }
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        fake.log(&line);
        let keep_going = match protocol {
            Protocol::Gtp => gtp(&mut fake, line.trim()),
            Protocol::Cloudict => c6(&mut fake, line.trim(), LetterOrder::Cloudict),
            Protocol::Sau => c6(&mut fake, line.trim(), LetterOrder::Sau),
        };
        if !keep_going {
            break;
        }
    }
}

fn gtp(fake: &mut Fake, line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(&command) = words.first() else {
        return true;
    };
    let reply: Result<String, String> = match command {
        "protocol_version" => Ok("2".into()),
        "name" => Ok("fake".into()),
        "version" => Ok("1".into()),
        "list_commands" => Ok(
            "protocol_version\nname\nversion\nlist_commands\nboardsize\nclear_board\nkomi\nplay\ngenmove\ntime_settings\ntime_left\nquit"
                .into(),
        ),
        "boardsize" => {
            let size: usize = words.get(1).and_then(|s| s.parse().ok()).unwrap_or(0);
            match Board::new(size) {
                Some(b) if fake.args.only_size.is_none_or(|only| only == size) => {
                    fake.board = b;
                    Ok(String::new())
                }
                _ => Err("unacceptable size".into()),
            }
        }
        "clear_board" => {
            fake.board.clear();
            Ok(String::new())
        }
        "time_left"
            if fake.args.whole_seconds
                && words.get(2).is_some_and(|t| t.parse::<u64>().is_err()) =>
        {
            Err("syntax error: time must be whole seconds".into())
        }
        "komi" | "time_settings" | "time_left" => Ok(String::new()),
        "play" => {
            let size = fake.board.size();
            if fake.misbehaving() && fake.args.behaviour == Behaviour::Refuse {
                Err("illegal move".into())
            } else {
                match words.get(2).and_then(|v| parse_gtp(v, size)) {
                    Some(p) if fake.board.play(p).is_ok() => Ok(String::new()),
                    _ => Err("illegal move".into()),
                }
            }
        }
        "genmove" => {
            fake.before_move();
            if fake.misbehaving() && fake.args.behaviour == Behaviour::Garbage {
                fake.played += 1;
                Ok("banana".into())
            } else if fake.misbehaving() && fake.args.behaviour == Behaviour::Resign {
                Ok("resign".into())
            } else {
                let p = fake.choose();
                Ok(format_gtp(p))
            }
        }
        "quit" => {
            fake.say("=\n");
            return false;
        }
        _ => Err("unknown command".into()),
    };
    if fake.args.noise {
        fake.say("debug: thinking about it");
    }
    match reply {
        Ok(text) if text.is_empty() => fake.say("=\n"),
        Ok(text) => fake.say(&format!("= {text}\n")),
        Err(text) => fake.say(&format!("? {text}\n")),
    }
    true
}

/// Parses a `move`/placement token of 2 or 4 letters (or 2 + `@@`) and plays its stones.
fn place_token(fake: &mut Fake, token: &str, order: LetterOrder) {
    let size = fake.board.size();
    let token = token.strip_suffix("@@").unwrap_or(token);
    let mut stones: Vec<Point> = token
        .as_bytes()
        .chunks(2)
        .filter_map(|c| {
            std::str::from_utf8(c)
                .ok()
                .and_then(|s| parse_c6_stone(s, size, order))
        })
        .collect();
    stones.dedup();
    for p in stones {
        let _ = fake.board.play(p);
    }
}

fn c6_reply(fake: &mut Fake, order: LetterOrder) {
    fake.before_move();
    fake.noise("VCF time : 0.001");
    fake.noise("Searching 1/3");
    let size = fake.board.size();
    if fake.misbehaving() && fake.args.behaviour == Behaviour::Garbage {
        fake.played += 1;
        fake.say("move 12");
        return;
    }
    let due = if fake.board.stone_count() == 0 { 1 } else { 2 };
    let wanted = if fake.misbehaving() && fake.args.behaviour == Behaviour::WrongCount {
        1
    } else {
        due
    };
    let mut token = String::new();
    for _ in 0..wanted {
        if fake.board.is_over() || fake.board.legal_points().next().is_none() {
            break;
        }
        token.push_str(&format_c6_stone(fake.choose(), size, order));
    }
    if due == 1 && order == LetterOrder::Sau {
        token.push_str("@@");
    }
    fake.noise("Score : 0.0");
    fake.say(&format!("move {token}"));
}

fn c6(fake: &mut Fake, line: &str, order: LetterOrder) -> bool {
    let (command, rest) = line.split_once(' ').unwrap_or((line, ""));
    match command {
        "name" | "name?" => fake.say("name fake"),
        "new" => {
            fake.board = Board::new(fake.args.size).expect("--size out of range");
            if rest == "black" {
                c6_reply(fake, order);
            }
        }
        "move" => {
            place_token(fake, rest, order);
            c6_reply(fake, order);
        }
        "black" | "white" => place_token(fake, rest, order),
        "next" => c6_reply(fake, order),
        "depth" => fake.noise(&format!("Set the search depth to {rest}.")),
        "quit" | "exit" => return false,
        _ => {}
    }
    true
}
