//! The generator's promises, on real games at a few playouts a stone: a resumed file ends up
//! the file of an uninterrupted run, a file of other settings is refused, and a recorded value
//! is the mover's, and so are the root stones recorded beside it.

use super::play::{game_seed, play_game, recorded_children, root_value, ChildRecording, GameJob};
use super::record::{parse_contents, Header, How, Line, Mover, FORMAT};
use super::runner::{run_selfplay, RunPlan};
use super::settings::run_settings;
use super::training::read_selfplay;
use crate::match_runner::openings::{make_openings, OpeningSource};
use crate::match_runner::outcome::Winner;
use liuzi::config::EngineConfig;
use liuzi::engine::{Analysis, ChildAnalysis};
use liuzi::rules::Point;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// The shipped engine at `playouts` a stone, one thread.
fn config(playouts: u64) -> EngineConfig {
    let mut config = EngineConfig::builtin();
    config.engine.threads = 1;
    config.search.playouts = playouts;
    config.search.max_nodes = 1 << 16;
    config
}

fn plan(config: &EngineConfig, games: usize) -> RunPlan<'_> {
    let source = OpeningSource::Random {
        turns: 3,
        radius: 3,
        seed: 5,
    };
    RunPlan {
        config,
        settings: run_settings(config, "random, 3 turns, radius 3", 5).unwrap(),
        openings: make_openings(&source, 19, games).unwrap(),
        seed: 5,
        concurrency: 1,
        children: ChildRecording::default(),
    }
}

#[test]
fn a_resumed_file_plays_only_the_missing_games_and_is_the_uninterrupted_file() {
    let dir = tempfile::tempdir().unwrap();
    let config = config(24);
    let plan = plan(&config, 3);
    let never = AtomicBool::new(false);
    let whole = dir.path().join("whole.jsonl");
    let summary = run_selfplay(&plan, &whole, &never).unwrap();
    assert_eq!((summary.already, summary.played), (0, 3));
    assert!(!summary.stopped);
    let text = std::fs::read_to_string(&whole).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "a header and three games");

    // A run killed while writing its third game: the header, two games and half a line.
    let torn = dir.path().join("torn.jsonl");
    let mut file = std::fs::File::create(&torn).unwrap();
    for line in &lines[..3] {
        writeln!(file, "{line}").unwrap();
    }
    file.write_all(&lines[3].as_bytes()[..lines[3].len() / 2])
        .unwrap();
    drop(file);
    let summary = run_selfplay(&plan, &torn, &never).unwrap();
    assert_eq!((summary.already, summary.played), (2, 1));
    assert_eq!(std::fs::read_to_string(&torn).unwrap(), text);

    // Two games at once give the same games, perhaps in another order.
    let parallel = dir.path().join("parallel.jsonl");
    let two_threads = RunPlan {
        concurrency: 2,
        ..self::plan(&config, 3)
    };
    run_selfplay(&two_threads, &parallel, &never).unwrap();
    let mut sorted: Vec<String> = std::fs::read_to_string(&parallel)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    sorted[1..].sort();
    assert_eq!(sorted.join("\n") + "\n", text);

    // Run again, nothing is left to play; the games are each game's seed.
    let summary = run_selfplay(&plan, &torn, &never).unwrap();
    assert_eq!((summary.already, summary.played), (3, 0));
    let contents = parse_contents(&text, Path::new("whole.jsonl")).unwrap();
    for (i, game) in contents.games.iter().enumerate() {
        assert_eq!((game.game, game.seed), (i, game_seed(5, i)));
        assert_eq!(game.opening_stones, 5);
        assert!(game.stones.iter().any(|s| s.how == How::Searched));
    }
}

#[test]
fn a_file_of_other_settings_is_refused_naming_the_file_and_the_setting() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("games.jsonl");
    let (config, stopped) = (config(24), AtomicBool::new(true));
    // A stopped run writes the header and no game.
    run_selfplay(&plan(&config, 2), &out, &stopped).unwrap();
    let other = self::config(48);
    let err = run_selfplay(&plan(&other, 2), &out, &stopped).unwrap_err();
    assert!(
        err.contains("games.jsonl") && err.contains("playouts = 24") && err.contains("48"),
        "{err}"
    );
    let mut no_evaluator = config.clone();
    no_evaluator.engine.evaluator = "none".into();
    let err = run_selfplay(&plan(&no_evaluator, 2), &out, &stopped).unwrap_err();
    assert!(err.contains("evaluator = default.eval"), "{err}");
    // The file is as it was: the header alone.
    let text = std::fs::read_to_string(&out).unwrap();
    assert_eq!(text.lines().count(), 1);
}

/// A position after `turns` opening turns where the side that just moved has two open fours
/// (each needs two stones to stop, and the side to move has two): the side to move is lost.
fn two_open_fours(winner_is_black: bool) -> Vec<Point> {
    let fours: Vec<Point> = [3u8, 12]
        .iter()
        .flat_map(|&row| (4u8..8).map(move |c| Point::new(c, row)))
        .collect();
    let far: Vec<Point> = (0u8..9).map(|k| Point::new(2 * k, 18)).collect();
    let (mut winner, mut loser) = (fours.into_iter(), far.into_iter());
    let mut stones = Vec::new();
    // B, WW, BB, ...: nine turns end on Black's, eight on White's.
    let turns = if winner_is_black { 9 } else { 8 };
    for turn in 0..turns {
        let black = turn % 2 == 0;
        let count = if turn == 0 { 1 } else { 2 };
        for _ in 0..count {
            let own = if black == winner_is_black {
                winner.next().unwrap_or(Point::new(15, 15))
            } else {
                loser.next().unwrap()
            };
            stones.push(own);
        }
    }
    stones
}

#[test]
fn a_recorded_value_is_the_movers() {
    let config = config(64);
    for winner_is_black in [true, false] {
        let job = GameJob {
            index: 0,
            seed: 3,
            opening: two_open_fours(winner_is_black),
        };
        let recording = ChildRecording {
            count: 3,
            min_visits: 1,
        };
        let game = play_game(&config, &job, recording, &|| false)
            .unwrap()
            .unwrap();
        let (winner, loser) = match winner_is_black {
            true => (Winner::Black, Mover::White),
            false => (Winner::White, Mover::Black),
        };
        assert_eq!(game.result, winner, "{game:?}");
        let first = &game.stones[0];
        assert_eq!(first.mover, loser, "{game:?}");
        let searched: Vec<_> = game
            .stones
            .iter()
            .filter(|s| s.how == How::Searched)
            .collect();
        assert!(!searched.is_empty(), "{game:?}");
        for s in searched {
            assert_eq!(s.mover, loser, "only the lost side searches: {game:?}");
            assert!(s.value.unwrap() < 0.2, "the loser's value: {game:?}");
            assert!(s.visits.unwrap() > 0);
            assert!((1..=3).contains(&s.children.len()), "{game:?}");
            for pair in s.children.windows(2) {
                assert!(
                    pair[0].visits >= pair[1].visits,
                    "most visited first: {game:?}"
                );
            }
            // Every stone of a lost position loses: the children's values are the loser's.
            assert!(s.children.iter().all(|c| c.value < 0.3), "{game:?}");
        }

        // Read back for training: the recorded stones, each before its stone, with its value,
        // the one played marked.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.jsonl");
        let header = Line::Header(Header {
            selfplay_format: FORMAT,
            settings: Default::default(),
        });
        let text = [header, Line::Game(game.clone())]
            .iter()
            .map(|line| serde_json::to_string(line).unwrap() + "\n")
            .collect::<String>();
        std::fs::write(&path, text).unwrap();
        let read = read_selfplay(&path, None).unwrap();
        let stones = &read[0].record.stones;
        let mut expected = Vec::new();
        for (k, entry) in game.stones.iter().enumerate() {
            let before = game.opening_stones + k;
            for c in &entry.children {
                let p = liuzi::notation::parse_games(&c.stone, 19).unwrap();
                expected.push((before, p, c.value, p == stones[before]));
            }
        }
        let got: Vec<_> = read[0]
            .siblings
            .iter()
            .map(|s| (s.before, s.stone, s.value, s.played))
            .collect();
        assert_eq!(got, expected);
        assert!(
            got.iter().any(|s| s.3) && got.iter().any(|s| !s.3),
            "{got:?}"
        );
    }
}

#[test]
fn recorded_children_are_the_most_visited_with_enough_visits() {
    let child = |col, visits, win_rate| ChildAnalysis {
        point: Point::new(col, 0),
        prior: 0.1,
        visits,
        win_rate,
        pv: Vec::new(),
    };
    let analysis = Analysis {
        children: vec![
            child(0, 5, Some(0.9)),
            child(1, 40, Some(0.6)),
            child(2, 0, None),
            child(3, 90, Some(0.7)),
            child(4, 12, Some(0.2)),
        ],
        ..Analysis::default()
    };
    let recording = |count, min_visits| ChildRecording { count, min_visits };
    let stones = |count, min_visits| {
        recorded_children(&analysis, recording(count, min_visits))
            .iter()
            .map(|c| (c.stone.clone(), c.visits, c.value))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        stones(8, 10),
        vec![
            ("d1".into(), 90, 0.7),
            ("b1".into(), 40, 0.6),
            ("e1".into(), 12, 0.2)
        ]
    );
    assert_eq!(stones(1, 10), vec![("d1".into(), 90, 0.7)]);
    assert_eq!(stones(8, 0).len(), 4, "never a stone without a value");
    assert!(stones(0, 1).is_empty());
}

#[test]
fn the_root_value_is_the_visit_weighted_mean_of_the_children() {
    let child = |visits, win_rate| ChildAnalysis {
        point: Point::new(0, 0),
        prior: 0.1,
        visits,
        win_rate,
        pv: Vec::new(),
    };
    let analysis = Analysis {
        children: vec![child(30, Some(0.8)), child(10, Some(0.4)), child(0, None)],
        ..Analysis::default()
    };
    let (value, visits) = root_value(&analysis).unwrap();
    assert!((value - 0.7).abs() < 1e-6, "{value}");
    assert_eq!(visits, 40);
    assert_eq!(root_value(&Analysis::default()), None);
}
