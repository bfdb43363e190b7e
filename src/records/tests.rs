use super::*;
use crate::notation::parse_gtp;

/// A short game in which Black makes six on row 10 (K10 ... with stones on F..L... ).
/// Black: K10 (opening), then pairs; White plays far away on row 1.
const BLACK_SIX_GAMES_LINE: &str = "B\tj10 a1-b1 k10-l10 c1-d1 m10-n10 f1-g1 h10-o10";
const EXAMPLE_LINE: &str = "W\tj10 i9-j11 h12-h10 i11-g10 h11-h9";

fn record(line: &str) -> GameRecord {
    games::parse_line(line).unwrap()
}

#[test]
fn turns_group_the_opening_stone_then_pairs() {
    let r = record(EXAMPLE_LINE);
    let turns: Vec<usize> = r.turns().map(|t| t.len()).collect();
    assert_eq!(turns, vec![1, 2, 2, 2, 2]);
    assert_eq!(GameRecord::new(19).turns().count(), 0);
    let colours: Vec<char> = r.colored_stones().map(|(c, _)| c.letter()).collect();
    assert_eq!(colours.iter().collect::<String>(), "BWWBBWWBB");
}

#[test]
fn games_lines_round_trip() {
    for line in [
        EXAMPLE_LINE,
        BLACK_SIX_GAMES_LINE,
        "?\tj10",
        "D\tj10 k11-k12",
    ] {
        assert_eq!(games::format_line(&record(line)), line);
    }
    let r = record(BLACK_SIX_GAMES_LINE);
    assert_eq!(r.result, RecordResult::BlackWins);
    assert_eq!(r.stones[0], Point::new(9, 9));
    assert!(r.replay().unwrap().is_over());
}

#[test]
fn games_lines_refuse_bad_input() {
    let cases = [
        ("B j10", "result<TAB>moves"),
        ("X\tj10", "result `X`"),
        ("B\tj10-k10", "turn 1 `j10-k10` has 2 stones, expected 1"),
        ("B\tj10 a1-b1-c1", "turn 2 `a1-b1-c1` has 3 stones"),
        ("B\tj10 a1 b1-c1", "turn 2 `a1` has 1 stones"),
        ("B\tj10 a1-z1", "bad point `z1`"),
        ("B\tj10 a1-j10", "stone 3 (K10) is on an occupied point"),
        (
            "?\tj10 a1-b1 c1",
            "the last turn has one stone but it makes no six",
        ),
        (
            "W\tj10 a1-b1 k10-l10 c1-d1 m10-n10 f1-g1 h10-o10",
            "the record says white wins but the board shows black wins",
        ),
        (
            "B\tj10 a1-b1 k10-l10 c1-d1 m10-n10 f1-g1 h10-o10 s19-s18",
            "stone 14 (T19) comes after black made six",
        ),
    ];
    for (line, expected) in cases {
        let err = games::parse_line(line).unwrap_err();
        assert!(err.contains(expected), "{line:?}: {err}");
    }
}

#[test]
fn a_moot_second_stone_after_a_winning_first_stone_is_dropped() {
    let r = record("B\tj10 a1-b1 k10-l10 c1-d1 m10-n10 f1-g1 o10-s19");
    assert_eq!(r.stones.len(), 12);
    assert_eq!(
        games::format_line(&r),
        "B\tj10 a1-b1 k10-l10 c1-d1 m10-n10 f1-g1 o10"
    );
    let sgf_text =
        "(;B[jj];W[as];W[bs];B[kj];B[lj];W[cs];W[ds];B[mj];B[nj];W[fs];W[gs];B[oj];B[sa])";
    assert_eq!(sgf::read_str(sgf_text).unwrap()[0].stones, r.stones);
    // Only the second stone of the winning turn is moot; a third is an error.
    assert!(games::parse_line("B\tj10 a1-b1 k10-l10 c1-d1 m10-n10 f1-g1 o10-s19 s18-s17").is_err());
}

#[test]
fn games_reader_names_the_line() {
    let text = format!("{EXAMPLE_LINE}\n\n{EXAMPLE_LINE}\r\nB\tj10 j10-a1\n");
    let err = games::read_str(&text).unwrap_err();
    assert_eq!(err.line, Some(4));
    assert_eq!(
        err.to_string(),
        "line 4: stone 2 (K10) is on an occupied point"
    );
    let ok = games::read_str(&format!("{EXAMPLE_LINE}\n\n{EXAMPLE_LINE}\r\n")).unwrap();
    assert_eq!(ok.len(), 2);
}

#[test]
fn replay_names_stone_and_problem() {
    let mut r = GameRecord::new(19);
    r.stones = vec![Point::new(9, 9), Point::new(30, 2)];
    assert_eq!(
        r.replay().unwrap_err().problem,
        "stone 2 (column 31, row 3) is off the 19x19 board"
    );
    r.size = 5;
    assert!(r.replay().unwrap_err().problem.contains("board size 5"));
}

#[test]
fn sgf_reads_gogui_style_one_stone_per_node() {
    let text = "(;FF[4]CA[UTF-8]AP[gogui]KM[6.5]PB[Alpha]PW[Beta]DT[2024-01-02]RE[W+R]\n\
                ;B[jj];W[ki]\n;W[ik];B[KK];B[lj])";
    let games = sgf::read_str(text).unwrap();
    assert_eq!(games.len(), 1);
    let g = &games[0];
    assert_eq!(g.size, 19);
    assert_eq!(g.black.as_deref(), Some("Alpha"));
    assert_eq!(g.white.as_deref(), Some("Beta"));
    assert_eq!(g.date.as_deref(), Some("2024-01-02"));
    assert_eq!(g.result, RecordResult::WhiteWins);
    let expected: Vec<Point> = ["K10", "L11", "J9", "L9", "M10"]
        .iter()
        .map(|v| parse_gtp(v, 19).unwrap())
        .collect();
    assert_eq!(g.stones, expected);
}

#[test]
fn sgf_tolerates_two_stone_nodes_variations_any_gm_and_small_boards() {
    let text = "(;GM[511]SZ[9]RE[0];B[ee];W[ff][dd];B[aa]B[bb](;W[cc];W[gg])(;W[ii]))";
    let g = &sgf::read_str(text).unwrap()[0];
    assert_eq!(g.size, 9);
    assert_eq!(g.result, RecordResult::Draw);
    assert_eq!(g.stones.len(), 7);
    assert_eq!(g.stones[5], Point::new(2, 6));
    // Several games in one file.
    let two = sgf::read_str("(;B[jj])\n(;GaMe[1]SZ[13:13];B[gg];W[aa])").unwrap();
    assert_eq!(two.len(), 2);
    assert_eq!(two[1].size, 13);
}

#[test]
fn sgf_errors_name_the_line_and_problem() {
    let cases = [
        (
            "(;FF[4]\n;B[jj]\n;W[jj])",
            3,
            "stone 2 (K10) is on an occupied point",
        ),
        (
            "(;FF[4]\n;B[jj]\n;B[kk])",
            3,
            "stone 2: B[kk] should be white",
        ),
        ("(;FF[4]\n;B[jj]\n;W[tt])", 3, "W[tt] is a pass"),
        ("(;FF[4]AB[aa]\n;B[jj])", 1, "setup property AB"),
        ("(;FF[4]\n;B[jj]\n;W[kk", 3, "never closed"),
        ("(;SZ[40];B[aa])", 1, "board size 40"),
        ("(;SZ[9:7];B[aa])", 1, "SZ[9:7]"),
        ("\n\nxyz", 3, "unexpected `x`"),
    ];
    for (text, line, expected) in cases {
        let err = sgf::read_str(text).unwrap_err();
        assert_eq!(err.line, Some(line), "{text:?}: {err}");
        assert!(err.problem.contains(expected), "{text:?}: {err}");
    }
    assert!(sgf::read_str("  ").unwrap_err().problem.contains("no game"));
}

#[test]
fn sgf_round_trips_with_and_without_gm() {
    let mut r = record(BLACK_SIX_GAMES_LINE);
    r.black = Some("Liuzi [dev] \\ x".into());
    r.white = Some("白方".into());
    r.event = Some("Test".into());
    r.place = Some("Here".into());
    r.date = Some("2025-01-01".into());
    for gm in [false, true] {
        let text = sgf::format(&r, sgf::SgfOptions { write_gm511: gm });
        assert_eq!(text.contains("GM[511]"), gm);
        assert!(text.contains("SZ[19]") && text.contains("RE[B+]"));
        assert!(text.contains(";B[jj];W[as];W[bs]"), "{text}");
        assert_eq!(sgf::read_str(&text).unwrap(), vec![r.clone()]);
    }
    for (result, re) in [(RecordResult::Draw, "RE[0]"), (RecordResult::Unknown, "")] {
        let small = GameRecord {
            result,
            stones: vec![Point::new(3, 3)],
            ..GameRecord::new(7)
        };
        let text = sgf::format(&small, sgf::SgfOptions::default());
        assert_eq!(text.contains("RE["), !re.is_empty());
        assert_eq!(sgf::read_str(&text).unwrap(), vec![small]);
    }
}

const CCGC_EXAMPLE: &str = "{[C6][Team A B][Team B W][先手胜][2017.07.29 14:00 重庆][2017 CCGC];B(J,10);W(I,11);W(I,12);B(K,11)MARK[1]}";

#[test]
fn ccgc_reads_the_competition_example() {
    let g = &ccgc::read_str(CCGC_EXAMPLE).unwrap()[0];
    assert_eq!(g.black.as_deref(), Some("Team A"));
    assert_eq!(g.white.as_deref(), Some("Team B"));
    assert_eq!(g.result, RecordResult::BlackWins);
    assert_eq!(g.date.as_deref(), Some("2017.07.29 14:00"));
    assert_eq!(g.place.as_deref(), Some("重庆"));
    assert_eq!(g.event.as_deref(), Some("2017 CCGC"));
    assert_eq!(
        g.stones,
        vec![
            Point::new(9, 9),
            Point::new(8, 10),
            Point::new(8, 11),
            Point::new(10, 10)
        ]
    );
    let empty = &ccgc::read_str("{[C6][][][][2017-12-12 14:26 ][];B(J,10)}").unwrap()[0];
    assert_eq!(empty.black, None);
    assert_eq!(empty.result, RecordResult::Unknown);
    assert_eq!(empty.date.as_deref(), Some("2017-12-12 14:26"));
    assert_eq!(empty.place, None);
}

#[test]
fn ccgc_round_trips_in_utf8_and_gb18030() {
    let g = ccgc::read_str(CCGC_EXAMPLE).unwrap().remove(0);
    let text = ccgc::format(&g);
    assert_eq!(
        text,
        "{[C6][Team A B][Team B W][先手胜][2017.07.29 14:00 重庆][2017 CCGC];B(J,10);W(I,11);W(I,12);B(K,11)}"
    );
    for encoding in [ccgc::CcgcEncoding::Utf8, ccgc::CcgcEncoding::Gb18030] {
        let bytes = ccgc::encode(&text, encoding);
        assert_eq!(
            std::str::from_utf8(&bytes).is_ok(),
            encoding == ccgc::CcgcEncoding::Utf8
        );
        assert_eq!(read_bytes(&bytes, None).unwrap(), vec![g.clone()]);
    }
    let mut six = record(BLACK_SIX_GAMES_LINE);
    for result in [RecordResult::BlackWins, RecordResult::Unknown] {
        six.result = result;
        assert_eq!(
            ccgc::read_str(&ccgc::format(&six)).unwrap(),
            vec![six.clone()]
        );
    }
}

#[test]
fn ccgc_errors_name_the_line_and_problem() {
    let cases = [
        ("{[C6][][][][][]\n;B(J,10)\n;W(J,10)}", 3, "stone 2 (K10) is on an occupied point"),
        ("{[C6][][][][][]\n;B(J,10)\n;B(K,10)}", 3, "should be white"),
        ("{[C6][][][][][];B(Z,10)}", 1, "not a point"),
        ("{[C6][][][][][];B J10}", 1, "expected B(col,row)"),
        ("{[C5][][][][][];B(J,10)}", 1, "not C6"),
        ("{[C6][][][];B(J,10)}", 1, "4 fields"),
        ("\n{[C6][][][][][];B(J,10)", 2, "never closed"),
        ("{[C6][][][后手胜][][];B(J,10);W(A,1);W(A,2);B(K,10);B(L,10);W(A,3);W(A,4);B(M,10);B(N,10);W(A,5);W(A,7);B(O,10)}", 1, "the record says white wins but the board shows black wins"),
    ];
    for (text, line, expected) in cases {
        let err = ccgc::read_str(text).unwrap_err();
        assert_eq!(err.line, Some(line), "{text:?}: {err}");
        assert!(err.problem.contains(expected), "{text:?}: {err}");
    }
    assert!(ccgc::decode(b"\xff\xff\xff").is_err());
}

#[test]
fn read_file_dispatches_and_names_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let r = record(BLACK_SIX_GAMES_LINE);
    for (name, format) in [
        ("a.sgf", RecordFormat::Sgf),
        ("a.games", RecordFormat::Games),
        ("a.txt", RecordFormat::Ccgc),
        ("no-extension", RecordFormat::Games),
    ] {
        let path = dir.path().join(name);
        write_file(&path, &[r.clone(), r.clone()], format).unwrap();
        assert_eq!(
            read_file(&path).unwrap(),
            vec![r.clone(), r.clone()],
            "{name}"
        );
    }
    let bad = dir.path().join("games.sgf");
    std::fs::write(&bad, "(;FF[4]\n;B[jj]\n;W[jj])").unwrap();
    let err = read_file(&bad).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("{}:3: stone 2 (K10) is on an occupied point", bad.display())
    );
    let missing = dir.path().join("missing.sgf");
    assert!(read_file(&missing)
        .unwrap_err()
        .to_string()
        .starts_with(&format!("{}: cannot read", missing.display())));
    let unknown = dir.path().join("x.dat");
    std::fs::write(&unknown, "hello").unwrap();
    assert!(read_file(&unknown)
        .unwrap_err()
        .to_string()
        .contains("unknown record format"));
}

#[test]
fn from_board_keeps_stones_and_result() {
    let r = record(BLACK_SIX_GAMES_LINE);
    let board = r.replay().unwrap();
    let back = GameRecord::from_board(&board);
    assert_eq!(back.stones, r.stones);
    assert_eq!(back.result, RecordResult::BlackWins);
    assert_eq!(RecordResult::BlackWins.winner(), Some(Color::Black));
}

mod never_panic {
    use super::super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

        /// Readers answer any text with records or an error, never a panic.
        #[test]
        fn readers_survive_arbitrary_text(text in "[();\\[\\]{}BWSZCRE6a-tA-T0-9,:+\\\\ \\n\\t先手胜]{0,80}") {
            let _ = sgf::read_str(&text);
            let _ = ccgc::read_str(&text);
            let _ = games::parse_line(&text);
            let _ = read_bytes(text.as_bytes(), None);
        }

        /// Any legal game written in any format reads back the same.
        #[test]
        fn random_games_round_trip(seed in any::<u64>(), len in 0usize..80, size in 6usize..=25) {
            let mut board = crate::rules::Board::new(size).unwrap();
            let mut state = seed | 1;
            while board.stone_count() < len && !board.is_over() {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let p = crate::rules::Point::from_index((state % board.area() as u64) as usize, size);
                let _ = board.play(p);
            }
            // A game that ends on a turn's first stone is fine; one cut mid-turn is not a .games line.
            let mut record = GameRecord::from_board(&board);
            record.black = Some("B [x]".into());
            prop_assert_eq!(&sgf::read_str(&sgf::format(&record, sgf::SgfOptions::default())).unwrap()[0], &record);
            if size == 19 {
                let mut ccgc_record = record.clone();
                ccgc_record.black = Some("B (x)".into()); // CCGC writes brackets as parentheses
                prop_assert_eq!(&ccgc::read_str(&ccgc::format(&record)).unwrap()[0], &ccgc_record);
                let whole_turns = board.is_over() || board.stage() == crate::rules::Stage::First;
                if whole_turns {
                    let mut plain = record.clone();
                    plain.black = None;
                    prop_assert_eq!(games::parse_line(&games::format_line(&plain)).unwrap(), plain);
                }
            }
        }

        #[test]
        fn readers_survive_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..120)) {
            let _ = read_bytes(&bytes, Some(RecordFormat::Sgf));
            let _ = read_bytes(&bytes, Some(RecordFormat::Ccgc));
            let _ = read_bytes(&bytes, Some(RecordFormat::Games));
        }

        /// Damaged records (#18): a valid file of each format, cut short or with a few bytes
        /// changed, inserted or removed, is read into records or an error, and every record
        /// read replays or is refused by `validate`, never a panic.
        #[test]
        fn damaged_records_never_panic(
            seed in any::<u64>(),
            len in 0usize..60,
            cut in any::<prop::sample::Index>(),
            edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..3), 0..6),
        ) {
            let mut board = crate::rules::Board::new(19).unwrap();
            let mut state = seed | 1;
            while board.stone_count() < len && !board.is_over() {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let p = crate::rules::Point::from_index((state % board.area() as u64) as usize, 19);
                let _ = board.play(p);
            }
            let record = GameRecord::from_board(&board);
            let mut files = vec![
                (RecordFormat::Sgf, sgf::format(&record, sgf::SgfOptions::default()).into_bytes()),
                (RecordFormat::Ccgc, ccgc::format(&record).into_bytes()),
            ];
            if board.is_over() || board.stage() == crate::rules::Stage::First {
                let line = games::format_line(&record);
                files.push((RecordFormat::Games, format!("{line}\n{line}\n").into_bytes()));
            }
            for (format, mut bytes) in files {
                for &(at, byte, kind) in &edits {
                    let i = at.index(bytes.len() + 1);
                    match kind {
                        0 if i < bytes.len() => bytes[i] = byte,
                        1 => bytes.insert(i, byte),
                        _ if i < bytes.len() => { bytes.remove(i); }
                        _ => {}
                    }
                }
                let whole = bytes.clone();
                bytes.truncate(cut.index(bytes.len() + 1));
                for damaged in [&whole, &bytes, &Vec::new()] {
                    for hint in [Some(format), None] {
                        if let Ok(records) = read_bytes(damaged, hint) {
                            for r in &records {
                                let _ = r.validate();
                            }
                        }
                    }
                }
            }
        }
    }
}
