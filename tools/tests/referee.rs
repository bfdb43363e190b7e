//! Every adjudication path of the referee, exercised with the scripted `fake-engine`.

use liuzi::rules::{Board, Color, GameResult};
use liuzi_tools::match_runner::engine_spec::{EngineSpec, Protocol};
use liuzi_tools::match_runner::game::{play_game, GameOutcome, GameSetup};
use liuzi_tools::match_runner::launch::start_player;
use liuzi_tools::match_runner::outcome::{EndReason, Winner};
use liuzi_tools::match_runner::player::{PlayerContext, Timeouts};
use liuzi_tools::match_runner::process::CancelToken;
use liuzi_tools::match_runner::time_control::TimeControl;
use std::time::{Duration, Instant};

fn fake(name: &str, protocol: Protocol, args: &[&str]) -> EngineSpec {
    let proto_arg = match protocol {
        Protocol::Gtp => "gtp",
        Protocol::Cloudict => "cloudict",
        Protocol::Sau => "sau",
    };
    let mut command = vec![
        env!("CARGO_BIN_EXE_fake-engine").to_string(),
        "--protocol".into(),
        proto_arg.into(),
    ];
    command.extend(args.iter().map(|s| s.to_string()));
    EngineSpec {
        name: name.into(),
        command,
        dir: None,
        protocol,
        init: vec![],
        time: None,
        env: vec![],
        placements: protocol != Protocol::Sau,
    }
}

fn gtp(name: &str, args: &[&str]) -> EngineSpec {
    fake(name, Protocol::Gtp, args)
}

fn setup(size: usize) -> GameSetup {
    GameSetup {
        size,
        opening: vec![],
        time: [None, None],
        margin: Duration::from_millis(100),
        untimed_turn: Duration::from_secs(20),
    }
}

fn context() -> PlayerContext {
    PlayerContext {
        cancel: CancelToken::default(),
        timeouts: Timeouts {
            startup: Duration::from_secs(10),
            command: Duration::from_secs(5),
            untimed_turn: Duration::from_secs(20),
            quit: Duration::from_millis(500),
        },
        stderr_dir: None,
        stderr_worker: None,
    }
}

fn play(black: &EngineSpec, white: &EngineSpec, setup: &GameSetup) -> GameOutcome {
    let ctx = context();
    let mut b = start_player(black, &ctx).expect("black starts");
    let mut w = start_player(white, &ctx).expect("white starts");
    let outcome = play_game(setup, [b.as_mut(), w.as_mut()]).expect("not cancelled");
    b.shut_down();
    w.shut_down();
    outcome
}

/// The recorded stones replay legally and agree with the recorded result when it is a six or a draw.
fn check_record(outcome: &GameOutcome, size: usize) {
    let mut board = Board::new(size).unwrap();
    for &p in &outcome.stones {
        board.play(p).expect("recorded stones are legal");
    }
    match outcome.reason {
        EndReason::Six => {
            let GameResult::Win(c) = board.result() else {
                panic!("no six on the board")
            };
            assert_eq!(outcome.winner, Winner::of(c));
        }
        EndReason::FullBoard => assert_eq!(board.result(), GameResult::Draw),
        _ => assert_eq!(board.result(), GameResult::Ongoing),
    }
}

#[test]
fn random_gtp_engines_finish_a_legal_game() {
    let out = play(
        &gtp("a", &["--seed", "1"]),
        &gtp("b", &["--seed", "2"]),
        &setup(9),
    );
    assert!(
        matches!(out.reason, EndReason::Six | EndReason::FullBoard),
        "{out:?}"
    );
    assert_eq!(out.at_fault, None);
    check_record(&out, 9);
}

#[test]
fn six_in_a_row_wins() {
    // Two row builders: White completes six on its third turn (stone 11), Black has five.
    let out = play(
        &gtp("a", &["--behaviour", "line"]),
        &gtp("b", &["--behaviour", "line"]),
        &setup(9),
    );
    assert_eq!((out.winner, out.reason), (Winner::White, EndReason::Six));
    assert_eq!(out.stones.len(), 11);
    check_record(&out, 9);
}

#[test]
fn full_board_is_a_draw() {
    let first = gtp("a", &["--behaviour", "first-empty"]);
    let out = play(
        &first,
        &gtp("b", &["--behaviour", "first-empty"]),
        &setup(6),
    );
    assert_eq!(
        (out.winner, out.reason),
        (Winner::Draw, EndReason::FullBoard)
    );
    assert_eq!(out.stones.len(), 36);
    check_record(&out, 6);
}

#[test]
fn illegal_stone_loses() {
    let out = play(
        &gtp("a", &[]),
        &gtp("b", &["--behaviour", "illegal", "--after", "2"]),
        &setup(9),
    );
    assert_eq!(
        (out.winner, out.reason, out.at_fault),
        (Winner::Black, EndReason::Illegal, Some(Color::White))
    );
    assert!(out.detail.contains("occupied"), "{}", out.detail);
    check_record(&out, 9);
}

#[test]
fn crash_loses() {
    let out = play(
        &gtp("a", &["--behaviour", "crash", "--after", "3"]),
        &gtp("b", &[]),
        &setup(9),
    );
    assert_eq!((out.winner, out.reason), (Winner::White, EndReason::Crash));
    assert!(out.detail.contains("exited with code 3"), "{}", out.detail);
    check_record(&out, 9);
}

#[test]
fn a_crash_is_a_crash_while_a_grandchild_holds_the_output() {
    // A wrapper that leaves a process holding the engine's stdout, then becomes the engine,
    // which exits when asked for its fourth stone: scored at once as a crash, not after the
    // 20 s turn limit as a loss on time.
    let engine = format!(
        "sleep 60 & exec {} --protocol gtp --behaviour crash --after 3",
        env!("CARGO_BIN_EXE_fake-engine")
    );
    let mut wrapped = gtp("a", &[]);
    wrapped.command = vec!["sh".into(), "-c".into(), engine];
    let start = Instant::now();
    let out = play(&wrapped, &gtp("b", &[]), &setup(9));
    assert_eq!((out.winner, out.reason), (Winner::White, EndReason::Crash));
    assert!(out.detail.contains("exited with code 3"), "{}", out.detail);
    assert!(start.elapsed() < Duration::from_secs(10));
}

#[test]
fn garbage_output_loses() {
    let out = play(
        &gtp("a", &[]),
        &gtp("b", &["--behaviour", "garbage", "--noise"]),
        &setup(9),
    );
    assert_eq!(
        (out.winner, out.reason),
        (Winner::Black, EndReason::BadOutput)
    );
    assert!(out.detail.contains("banana"), "{}", out.detail);
    let c6 = fake(
        "c",
        Protocol::Cloudict,
        &["--behaviour", "garbage", "--after", "1", "--noise"],
    );
    let out = play(&c6, &gtp("d", &[]), &setup(19));
    assert_eq!(
        (out.winner, out.reason),
        (Winner::White, EndReason::BadOutput)
    );
    assert!(out.detail.contains("move 12"), "{}", out.detail);
}

#[test]
fn resignation_loses() {
    let out = play(
        &gtp("a", &["--behaviour", "resign", "--after", "3"]),
        &gtp("b", &[]),
        &setup(9),
    );
    assert_eq!(
        (out.winner, out.reason, out.at_fault),
        (Winner::White, EndReason::Resign, None)
    );
}

#[test]
fn refusing_a_legal_stone_loses() {
    let out = play(
        &gtp("a", &[]),
        &gtp("b", &["--behaviour", "refuse", "--after", "0"]),
        &setup(9),
    );
    assert_eq!(
        (out.winner, out.reason),
        (Winner::Black, EndReason::Refused)
    );
    assert!(out.detail.contains("play B"), "{}", out.detail);
}

#[test]
fn unsupported_board_size_is_refused() {
    let out = play(&gtp("a", &["--only-size", "19"]), &gtp("b", &[]), &setup(9));
    assert_eq!(
        (out.winner, out.reason),
        (Winner::White, EndReason::Refused)
    );
    assert!(out.detail.contains("boardsize 9"), "{}", out.detail);
}

#[test]
fn wrong_stone_count_loses() {
    let black = fake(
        "a",
        Protocol::Cloudict,
        &["--behaviour", "wrong-count", "--after", "1", "--size", "9"],
    );
    let out = play(&black, &gtp("b", &[]), &setup(9));
    assert_eq!(
        (out.winner, out.reason),
        (Winner::White, EndReason::WrongCount)
    );
    assert!(out.detail.contains("1 stone(s), 2 due"), "{}", out.detail);
    check_record(&out, 9);
}

#[test]
fn slow_engine_loses_on_the_per_turn_limit() {
    let mut s = setup(9);
    s.time = [Some(TimeControl::PerTurn(Duration::from_millis(300))); 2];
    let slow = gtp(
        "b",
        &["--behaviour", "slow", "--after", "2", "--delay-ms", "700"],
    );
    let start = Instant::now();
    let out = play(&gtp("a", &[]), &slow, &s);
    assert_eq!(
        (out.winner, out.reason),
        (Winner::Black, EndReason::TimeOver)
    );
    // The referee does not wait for the late reply.
    assert!(start.elapsed() < Duration::from_secs(5));
}

#[test]
fn clock_runs_out_and_gtp_hears_the_time() {
    let dir = tempfile::tempdir().unwrap();
    let transcript = dir.path().join("white.txt");
    let mut s = setup(9);
    s.time = [Some(TimeControl::Clock {
        main: Duration::from_millis(1500),
        increment: Duration::from_millis(100),
    }); 2];
    let slow = gtp(
        "b",
        &[
            "--behaviour",
            "slow",
            "--delay-ms",
            "400",
            "--transcript",
            transcript.to_str().unwrap(),
        ],
    );
    let out = play(&gtp("a", &[]), &slow, &s);
    assert_eq!(
        (out.winner, out.reason),
        (Winner::Black, EndReason::TimeOver)
    );
    assert!(
        out.detail.contains("left on the clock") || out.detail.contains("no reply"),
        "{}",
        out.detail
    );
    let heard = std::fs::read_to_string(&transcript).unwrap();
    assert!(heard.contains("time_settings 1 0 0"), "{heard}");
    assert!(heard.contains("time_left w 1."), "{heard}");
}

#[test]
fn a_one_second_turn_is_told_as_most_of_a_second_not_zero() {
    // Whole seconds would read `time_left b 0 2` all turn long: the engine would play at once.
    let dir = tempfile::tempdir().unwrap();
    let mut s = setup(9);
    s.time = [Some(TimeControl::PerTurn(Duration::from_secs(1))); 2];
    let heard_by = |args: &[&str]| {
        let transcript = dir.path().join(format!("{}.txt", args.len()));
        let mut all = vec!["--seed", "5", "--transcript", transcript.to_str().unwrap()];
        all.extend(args);
        let out = play(&gtp("a", &[]), &gtp("b", &all), &s);
        assert!(
            matches!(out.reason, EndReason::Six | EndReason::FullBoard),
            "{out:?}"
        );
        std::fs::read_to_string(&transcript).unwrap()
    };
    let heard = heard_by(&[]);
    assert!(heard.contains("time_settings 0 1 2"), "{heard}");
    let lefts: Vec<f64> = heard
        .lines()
        .filter_map(|l| l.strip_prefix("time_left w "))
        .map(|rest| rest.split(' ').next().unwrap().parse().unwrap())
        .collect();
    assert!(!lefts.is_empty());
    assert!(lefts.iter().all(|&t| t > 0.5 && t <= 1.0), "{lefts:?}");
    // An engine that takes whole seconds only gets them after its first refusal.
    let heard = heard_by(&["--whole-seconds"]);
    let lefts: Vec<&str> = heard
        .lines()
        .filter(|l| l.starts_with("time_left w "))
        .collect();
    assert!(lefts[1..].iter().all(|l| !l.contains('.')), "{lefts:?}");
}

#[test]
#[cfg(target_os = "linux")]
fn hung_engine_times_out_and_is_killed() {
    let marker = format!("{}", 900_000 + std::process::id());
    let mut s = setup(9);
    s.untimed_turn = Duration::from_millis(500);
    let hang = gtp(
        "b",
        &["--behaviour", "hang", "--after", "2", "--seed", &marker],
    );
    let out = play(&gtp("a", &[]), &hang, &s);
    assert_eq!(
        (out.winner, out.reason),
        (Winner::Black, EndReason::TimeOver)
    );
    assert!(
        out.detail.contains("no reply to `genmove w`"),
        "{}",
        out.detail
    );
    // No process with our marker is left.
    std::thread::sleep(Duration::from_millis(100));
    let survivors: Vec<_> = std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| std::fs::read(e.ok()?.path().join("cmdline")).ok())
        .filter(|cmd| String::from_utf8_lossy(cmd).contains(&marker))
        .collect();
    assert!(survivors.is_empty(), "hung engine still running");
}

#[test]
fn connect6_dialects_with_noise_play_against_gtp() {
    for protocol in [Protocol::Cloudict, Protocol::Sau] {
        let c6 = fake("c6", protocol, &["--noise", "--size", "9", "--seed", "5"]);
        let out = play(&c6, &gtp("g", &["--seed", "6"]), &setup(9));
        assert!(
            matches!(out.reason, EndReason::Six | EndReason::FullBoard),
            "{protocol:?}: {out:?}"
        );
        check_record(&out, 9);
        let out = play(&gtp("g", &["--seed", "7"]), &c6, &setup(9));
        assert!(
            matches!(out.reason, EndReason::Six | EndReason::FullBoard),
            "{protocol:?}: {out:?}"
        );
        check_record(&out, 9);
    }
}

#[test]
fn cloudict_sets_up_an_opening_with_placements() {
    let mut s = setup(9);
    s.opening = vec![
        liuzi::rules::Point::new(4, 4),
        liuzi::rules::Point::new(5, 5),
        liuzi::rules::Point::new(3, 5),
    ];
    let c6 = fake("c6", Protocol::Cloudict, &["--noise", "--size", "9"]);
    for (black, white) in [(&c6, &gtp("g", &[])), (&gtp("g", &[]), &c6)] {
        let out = play(black, white, &s);
        assert!(
            matches!(out.reason, EndReason::Six | EndReason::FullBoard),
            "{out:?}"
        );
        assert_eq!(&out.stones[..3], &s.opening[..]);
        check_record(&out, 9);
    }
    // SAU engines have no placements: the game cannot be set up, and that engine is blamed.
    let sau = fake("sau", Protocol::Sau, &["--size", "9"]);
    let out = play(&gtp("g", &[]), &sau, &s);
    assert_eq!(
        (out.winner, out.reason),
        (Winner::Black, EndReason::Refused)
    );
}

#[test]
fn flooding_engine_loses_with_its_output_cut_off() {
    // 64 MiB of chatter before every reply (four times the bound): the flooding side loses as
    // misbehaving, in both protocols, instead of the runner buffering it all.
    for (flooder, flood_protocol) in [("gtp", Protocol::Gtp), ("cloudict", Protocol::Cloudict)] {
        let out = play(
            &gtp("a", &["--seed", "1"]),
            &fake(
                flooder,
                flood_protocol,
                &["--behaviour", "flood", "--flood-mb", "64", "--after", "2"],
            ),
            &setup(19),
        );
        assert_eq!(
            (out.winner, out.reason, out.at_fault),
            (Winner::Black, EndReason::Flood, Some(Color::White)),
            "{flooder}: {out:?}"
        );
        assert!(out.detail.contains("flooded its output"), "{}", out.detail);
        check_record(&out, 19);
    }
}
