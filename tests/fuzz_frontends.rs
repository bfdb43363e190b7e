//! Fuzz-style test: 100,000 random and malformed lines straight into the GTP and Connect6
//! front-ends (in process). No panic; every GTP reply is well framed; a refused command leaves
//! the position exactly as it was; the incremental state always equals a from-scratch replay;
//! the Connect6 front-end writes nothing but `move …` / `name …` lines on stdout.

use liuzi::config::EngineConfig;
use liuzi::engine::{Engine, NearestPointGenerator};
use liuzi::protocol::c6::{Output, C6};
use liuzi::protocol::gtp::{Gtp, COMMANDS};
use liuzi::protocol::line_reader::LineReader;
use liuzi::protocol::Flow;
use liuzi::rules::{Board, Point};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

const LINES: usize = 100_000;
/// GTP lines are made this many at a time from the position before them.
const BATCH: usize = 2;

fn engine(config: &EngineConfig) -> Engine {
    Engine::new(config.engine.board_size, Box::new(NearestPointGenerator)).unwrap()
}

fn pick<'a, R: Rng>(rng: &mut R, items: &[&'a str]) -> &'a str {
    items[rng.gen_range(0..items.len())]
}

/// A word that is sometimes right, sometimes nearly right, sometimes garbage.
fn word<R: Rng>(rng: &mut R, size: usize) -> String {
    match rng.gen_range(0..12) {
        0..=3 => {
            let cols = "ABCDEFGHJKLMNOPQRSTUVWXYZI";
            let c = cols.as_bytes()[rng.gen_range(0..(size + 2).min(cols.len()))] as char;
            let row = rng.gen_range(0..=size + 1);
            if rng.gen_bool(0.2) {
                format!("{}{row}", c.to_ascii_lowercase())
            } else {
                format!("{c}{row}")
            }
        }
        4 => pick(rng, &["b", "w", "B", "W", "black", "WHITE", "x", "bw"]).to_string(),
        5 => rng.gen_range(-5i64..40).to_string(),
        6 => pick(
            rng,
            &[
                "pass", "resign", "", "1.5", "-0", "nan", "inf", "1e999", "#", "\t", "\r",
            ],
        )
        .to_string(),
        7 => {
            let n = rng.gen_range(1..6);
            (0..n).map(|_| rng.gen_range(b'@'..=b'Z') as char).collect()
        }
        8 => {
            let n = rng.gen_range(1..8);
            (0..n)
                .map(|_| char::from_u32(rng.gen_range(1..0x3000)).unwrap_or('?'))
                .collect()
        }
        9 => pick(rng, COMMANDS).to_string(),
        10 => "/nonexistent/liuzi-fuzz.sgf".to_string(),
        _ => rng.gen_range(0u32..1000).to_string(),
    }
}

/// One input line as bytes: mostly plausible commands, some raw bytes, some huge lines.
fn gtp_line<R: Rng>(rng: &mut R, board: &Board) -> Vec<u8> {
    let size = board.size();
    match rng.gen_range(0..100) {
        // A stone of the side to move somewhere on the board, so real games grow.
        2..=40 => {
            let p = Point::new(rng.gen_range(0..size as u8), rng.gen_range(0..size as u8));
            let c = if rng.gen_bool(0.5) {
                board.to_move().letter().to_string()
            } else {
                board.to_move().name().to_string()
            };
            format!("play {c} {}", liuzi::notation::format_gtp(p)).into_bytes()
        }
        0 => (0..rng.gen_range(0..40))
            .map(|_| rng.gen::<u8>())
            .filter(|&b| b != b'\n')
            .collect(),
        1 => vec![b'y'; 5000],
        _ => {
            // The hot and state-changing commands most of the time.
            let command = match rng.gen_range(0..10) {
                0..=3 => "play",
                4 => "genmove",
                5 => "undo",
                6 if rng.gen_bool(0.1) => pick(rng, &["clear_board", "boardsize"]),
                7 => pick(
                    rng,
                    &[
                        "gogui-rules_side_to_move",
                        "gogui-rules_board",
                        "final_score",
                        "showboard",
                    ],
                ),
                _ => pick(rng, COMMANDS),
            };
            // Never let the fuzzer write files or quit early.
            let command = match command {
                "printsgf" | "quit" => "gogui-rules_legal_moves",
                other => other,
            };
            let mut line = String::new();
            if rng.gen_bool(0.2) {
                line.push_str(&format!("{} ", rng.gen_range(0..10_000)));
            }
            line.push_str(command);
            let args = match command {
                "play" if rng.gen_bool(0.7) => 2,
                "boardsize" if rng.gen_bool(0.5) => {
                    line.push_str(&format!(" {}", rng.gen_range(4..28)));
                    0
                }
                _ => rng.gen_range(0..3),
            };
            for _ in 0..args {
                line.push(' ');
                line.push_str(&word(rng, size));
            }
            if rng.gen_bool(0.05) {
                line.push_str(" # comment");
            }
            if rng.gen_bool(0.05) {
                line.push('\r');
            }
            line.into_bytes()
        }
    }
}

/// The board rebuilt from its history: the incremental state must equal it.
fn assert_consistent(board: &Board) {
    let mut fresh = Board::new(board.size()).unwrap();
    for &p in board.history() {
        fresh.play(p).unwrap();
    }
    assert_eq!(fresh.hash(), board.hash());
    assert_eq!(fresh.result(), board.result());
    for p in fresh.points() {
        assert_eq!(fresh.get(p), board.get(p));
    }
}

fn snapshot(board: &Board) -> (usize, Vec<Point>, u64) {
    (board.size(), board.history().to_vec(), board.hash())
}

#[test]
fn gtp_survives_random_input() {
    let config = EngineConfig::builtin();
    let mut gtp = Gtp::new(engine(&config), &config);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x6774_7066);
    let mut out = String::new();
    let (mut ok, mut refused) = (0, 0);
    let mut checked = 0;
    let mut max_stones = 0;
    // Lines are made in batches from the position at the batch's start, then read back through
    // the real line reader.
    for _ in 0..LINES / BATCH {
        let mut input = Vec::new();
        for _ in 0..BATCH {
            input.extend(gtp_line(&mut rng, gtp.engine().board()));
            input.push(b'\n');
        }
        let mut reader = LineReader::new(&input[..]);
        while let Some(line) = reader.next_line().unwrap() {
            let before = snapshot(gtp.engine().board());
            out.clear();
            let flow = gtp.handle_input(line, &mut out);
            assert_eq!(flow, Flow::Continue);
            if out.is_empty() {
                continue; // empty or comment line
            }
            assert!(
                out.ends_with("\n\n") && !out[..out.len() - 2].contains("\n\n"),
                "{out:?}"
            );
            assert!(!out.starts_with(' '));
            match out.as_bytes()[0] {
                b'=' => ok += 1,
                b'?' => {
                    refused += 1;
                    assert_eq!(
                        snapshot(gtp.engine().board()),
                        before,
                        "refused command changed the state: {out}"
                    );
                }
                _ => panic!("reply must start with = or ?: {out:?}"),
            }
            checked += 1;
            max_stones = max_stones.max(gtp.engine().board().stone_count());
            if checked % 16 == 0 {
                assert_consistent(gtp.engine().board());
            }
        }
    }
    assert_consistent(gtp.engine().board());
    eprintln!("GTP fuzz: {ok} accepted, {refused} refused, {max_stones} stones at most");
    assert!(max_stones > 60, "the fuzzer should build real positions");
    assert!(
        ok > 10_000 && refused > 10_000,
        "ok {ok}, refused {refused}"
    );
}

#[test]
fn c6_survives_random_input() {
    let config = EngineConfig::builtin();
    let mut c6 = C6::new(engine(&config), &config);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x6336_6675);
    let commands = [
        "name", "name?", "new", "move", "move", "move", "black", "white", "next", "depth", "vcf",
        "unvcf", "print", "end", "error", "help", "bogus", "MOVE", "New",
    ];
    let mut input = Vec::new();
    for _ in 0..LINES {
        match rng.gen_range(0..50) {
            0 => input.extend(
                (0..rng.gen_range(0..30))
                    .map(|_| rng.gen::<u8>())
                    .filter(|&b| b != b'\n'),
            ),
            1 => input.extend(vec![b'z'; 5000]),
            _ => {
                let mut line = pick(&mut rng, &commands).to_string();
                for _ in 0..rng.gen_range(0..3) {
                    line.push(' ');
                    line.push_str(&match rng.gen_range(0..4) {
                        0 => pick(&mut rng, &["black", "white", "xxx", "2", "0", "-1", "@@"])
                            .to_string(),
                        _ => {
                            let n = pick(&mut rng, &["2", "4", "4", "4", "3", "5", "6"])
                                .parse::<usize>()
                                .unwrap();
                            let mut t: String = (0..n)
                                .map(|_| (rng.gen_range(b'A'..b'V')) as char)
                                .collect();
                            if rng.gen_bool(0.1) {
                                t.push_str("@@");
                            }
                            t
                        }
                    });
                }
                input.extend(line.into_bytes());
            }
        }
        input.push(b'\n');
    }
    let mut reader = LineReader::new(&input[..]);
    let mut out = Output::default();
    let (mut moves, mut errors) = (0, 0);
    let mut n = 0;
    let mut max_stones = 0;
    while let Some(line) = reader.next_line().unwrap() {
        let before = snapshot(c6.engine().board());
        out.stdout.clear();
        out.stderr.clear();
        let flow = c6.handle_input(line, &mut out);
        assert_eq!(flow, Flow::Continue);
        for l in out.stdout.lines() {
            assert!(
                l.starts_with("move ") || l.starts_with("name "),
                "stdout noise: {l:?}"
            );
            moves += l.starts_with("move ") as usize;
        }
        if out.stderr.contains("error:") {
            errors += 1;
            assert!(out.stdout.is_empty());
            assert_eq!(
                snapshot(c6.engine().board()),
                before,
                "refused line changed the state: {}",
                out.stderr
            );
        }
        n += 1;
        max_stones = max_stones.max(c6.engine().board().stone_count());
        if n % 16 == 0 {
            assert_consistent(c6.engine().board());
        }
    }
    assert_consistent(c6.engine().board());
    eprintln!("C6 fuzz: {moves} engine moves, {errors} refused lines, {max_stones} stones at most");
    assert!(max_stones > 10, "the fuzzer should build real positions");
    assert!(
        moves > 1_000 && errors > 10_000,
        "moves {moves}, errors {errors}"
    );
}
