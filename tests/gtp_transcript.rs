//! GTP transcripts against the built binary over pipes: every reply is checked, and after every
//! refused command the position (board picture, side to move, hash) must be exactly as before.

mod common;

use common::{fast_config, gtp_replies, run_liuzi};

/// What a reply must be. `{vertex}` matches one GTP vertex.
enum Expect {
    Exact(&'static str),
    Owned(String),
    /// `= <vertex>` or `=id <vertex>`.
    Vertex,
    StartsWith(String),
    /// No reply (empty line or comment).
    Nothing,
}

use Expect::*;

fn is_vertex(text: &str) -> bool {
    let mut chars = text.chars();
    matches!(chars.next(), Some('A'..='H' | 'J'..='T'))
        && chars
            .as_str()
            .parse::<u32>()
            .is_ok_and(|n| (1..=19).contains(&n))
}

/// Sends every input line at once and checks the replies one by one.
fn check_transcript(args: &[&str], steps: &[(Vec<u8>, Expect)]) -> Vec<String> {
    let mut input = Vec::new();
    for (line, _) in steps {
        input.extend_from_slice(line);
        input.push(b'\n');
    }
    let run = run_liuzi(args, &input);
    assert!(run.success, "exit status; stderr: {}", run.stderr);
    let replies = gtp_replies(&run.stdout);
    let expected: Vec<(&Vec<u8>, &Expect)> = steps
        .iter()
        .filter(|(_, e)| !matches!(e, Nothing))
        .map(|(l, e)| (l, e))
        .collect();
    assert_eq!(
        replies.len(),
        expected.len(),
        "reply count; stdout:\n{}",
        run.stdout
    );
    for (reply, (line, expect)) in replies.iter().zip(&expected) {
        let line = String::from_utf8_lossy(line);
        let ok = match expect {
            Exact(text) => reply == text,
            Owned(text) => reply == text,
            Vertex => reply.strip_prefix("= ").is_some_and(is_vertex),
            StartsWith(prefix) => reply.starts_with(prefix.as_str()),
            Nothing => unreachable!(),
        };
        assert!(ok, "command {line:?} got reply {reply:?}");
    }
    replies
}

fn line(text: &str) -> Vec<u8> {
    text.as_bytes().to_vec()
}

#[test]
fn gogui_session_transcript() {
    let version = format!("=2 {}", env!("CARGO_PKG_VERSION"));
    let steps = vec![
        (line("protocol_version"), Exact("= 2")),
        (line("1 name"), Exact("=1 Liuzi")),
        (line("2 version"), Owned(version)),
        (
            line("known_command gogui-rules_side_to_move"),
            Exact("= true"),
        ),
        (line("known_command gogui-interrupt"), Exact("= true")),
        (line("gogui-rules_game_id"), Exact("= Connect6")),
        (line("boardsize 19"), Exact("=")),
        (line("clear_board"), Exact("=")),
        (line("komi 6.5"), Exact("=")),
        (line("gogui-rules_board_size"), Exact("= 19")),
        (line("gogui-rules_side_to_move"), Exact("= black")),
        (line("genmove b"), Vertex),
        (line("gogui-rules_side_to_move"), Exact("= white")),
        (line("genmove w"), Vertex),
        (line("gogui-rules_side_to_move"), Exact("= white")),
        (line("genmove W"), Vertex),
        (line("gogui-rules_side_to_move"), Exact("= black")),
        (line(""), Nothing),
        (line("   # a comment line"), Nothing),
        (line("10 play B a1 # trailing comment"), Exact("=10")),
        (line("play Black A2\r"), Exact("=")),
        (line("\tgogui-rules_side_to_move"), Exact("= white")),
        (line("undo"), Exact("=")),
        (line("gogui-rules_side_to_move"), Exact("= black")),
        (line("time_settings 300 30 5"), Exact("=")),
        (line("time_left b 120 0"), Exact("=")),
        (line("time_settings 0 1 0"), Exact("=")),
        (line("gogui-rules_captured_count"), Exact("= 0 0")),
        (
            line("gogui-rules_final_result"),
            Exact("? game is not over"),
        ),
        (line("7 final_score"), Exact("?7 game is not over")),
        (line("quit"), Exact("=")),
        (line("name"), Nothing), // after quit: never read
    ];
    check_transcript(&["--config", &fast_config()], &steps);
}

#[test]
fn refused_commands_leave_the_state_unchanged() {
    let setup = ["play b K10", "play w L11", "play w M12", "play b A1"];
    let probe = ["showboard", "gogui-rules_board", "gogui-rules_side_to_move"];
    let mut long_line = b"6 play b ".to_vec();
    long_line.extend(std::iter::repeat_n(b'x', 5000));
    let bad: Vec<(Vec<u8>, &str)> = vec![
        (line("play b K10"), "? illegal move"),
        (line("play w K10"), "? illegal move"),
        (line("play w B2"), "? illegal move: black to play"),
        (line("play x B2"), "? syntax error: invalid color `x`"),
        (line("play b I5"), "? syntax error: invalid vertex `I5`"),
        (line("play b Z99"), "? syntax error: invalid vertex `Z99`"),
        (line("play b"), "? syntax error: missing vertex"),
        (
            line("play b B2 C3"),
            "? syntax error: unexpected argument `C3`",
        ),
        (line("play b pass"), "? illegal move: Connect6 has no pass"),
        (line("boardsize 5"), "? unacceptable size"),
        (line("boardsize 26"), "? unacceptable size"),
        (
            line("boardsize nineteen"),
            "? syntax error: invalid size `nineteen`",
        ),
        (line("genmove x"), "? syntax error: invalid color `x`"),
        (line("genmove w"), "? black to play"),
        (
            line("undo now"),
            "? syntax error: unexpected argument `now`",
        ),
        (line("frobnicate"), "? unknown command"),
        (line("42 frobnicate"), "?42 unknown command"),
        (line("43"), "?43 missing command"),
        (b"5 play b \xff\xfe".to_vec(), "?5 input is not valid UTF-8"),
        (long_line, "?6 line longer than 4096 bytes"),
        (
            line("time_settings a b c"),
            "? syntax error: invalid main time `a`",
        ),
        (line("time_left b x 0"), "? syntax error: invalid time `x`"),
        (line("final_score"), "? game is not over"),
        (
            line("known_command"),
            "? syntax error: missing command name",
        ),
        (line("komi abc"), "? syntax error: invalid komi `abc`"),
        (
            line("loadsgf /nonexistent/game.sgf"),
            "? cannot load /nonexistent/game.sgf: cannot read",
        ),
        (
            line("clear_board now"),
            "? syntax error: unexpected argument `now`",
        ),
        (
            line("gogui-rules_side_to_move x"),
            "? syntax error: unexpected argument `x`",
        ),
    ];
    let mut steps: Vec<(Vec<u8>, Expect)> = setup.iter().map(|c| (line(c), Exact("="))).collect();
    for c in probe {
        steps.push((line(c), StartsWith("=".into())));
    }
    for (input, reply) in bad {
        steps.push((input, StartsWith(reply.to_string())));
        // After every refusal the position must be unchanged: probe again.
        for c in probe {
            steps.push((line(c), StartsWith("=".into())));
        }
    }
    let replies = check_transcript(&["--config", &fast_config()], &steps);
    let before = &replies[setup.len()..setup.len() + probe.len()];
    assert!(before[0].contains("black to play (second stone); 4 stones; hash"));
    let mut i = setup.len() + probe.len();
    while i < replies.len() {
        let after = &replies[i + 1..i + 1 + probe.len()];
        assert_eq!(
            after, before,
            "state changed after refused reply {:?}",
            replies[i]
        );
        i += 1 + probe.len();
    }
}

/// Black gets seven on row 10 (an overline wins) while White plays on row 1.
const BLACK_WINS: [&str; 13] = [
    "play b J10",
    "play w A1",
    "play w B1",
    "play b K10",
    "play b L10",
    "play w C1",
    "play w D1",
    "play b M10",
    "play b N10",
    "play w F1",
    "play w G1",
    "play b P10",
    "play b O10",
];

#[test]
fn game_end_score_and_undo() {
    let mut steps: Vec<(Vec<u8>, Expect)> =
        BLACK_WINS.iter().map(|c| (line(c), Exact("="))).collect();
    steps.extend([
        (line("final_score"), Exact("= B+R")),
        (line("gogui-rules_legal_moves"), Exact("=")),
        (line("gogui-rules_final_result"), Exact("= Black wins.")),
        (line("play w T19"), Exact("? illegal move: game is over")),
        (line("genmove w"), Exact("? game is over")),
        (line("undo"), Exact("=")),
        (line("final_score"), Exact("? game is not over")),
        (line("play b O10"), Exact("=")),
        (line("final_score"), Exact("= B+R")),
        (line("clear_board"), Exact("=")),
        (line("undo"), Exact("? cannot undo")),
        (line("boardsize 7"), Exact("=")),
        (line("gogui-rules_board_size"), Exact("= 7")),
        (line("play b D4"), Exact("=")),
        (line("play w H8"), Exact("? syntax error: invalid vertex `H8`")),
        (line("gogui-rules_board"), Exact("= . . . . . . .\n. . . . . . .\n. . . . . . .\n. . . X . . .\n. . . . . . .\n. . . . . . .\n. . . . . . .")),
    ]);
    let legal_7x7: Vec<String> = (1..=7)
        .flat_map(|row| "ABCDEFG".chars().map(move |c| format!("{c}{row}")))
        .filter(|v| v != "D4")
        .collect();
    steps.push((
        line("gogui-rules_legal_moves"),
        Owned(format!("= {}", legal_7x7.join(" "))),
    ));
    check_transcript(&["--config", &fast_config()], &steps);
}

#[test]
fn printsgf_and_loadsgf_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.sgf");
    let file = file.display().to_string();
    let mut steps: Vec<(Vec<u8>, Expect)> =
        BLACK_WINS.iter().map(|c| (line(c), Exact("="))).collect();
    steps.extend([
        (line("showboard"), StartsWith("= \n".into())),
        (
            line("printsgf"),
            StartsWith("= (;FF[4]CA[UTF-8]AP[Liuzi:".into()),
        ),
        (line(&format!("printsgf {file}")), Exact("=")),
        (line("clear_board"), Exact("=")),
        (line(&format!("loadsgf {file}")), Exact("=")),
        (line("showboard"), StartsWith("= \n".into())),
        (line(&format!("loadsgf {file} 3")), Exact("=")),
        (line("gogui-rules_side_to_move"), Exact("= white")),
        (
            line(&format!("loadsgf {file} 0")),
            Exact("? syntax error: invalid move number `0`"),
        ),
    ]);
    let replies = check_transcript(&["--config", &fast_config()], &steps);
    let n = BLACK_WINS.len();
    assert_eq!(replies[n], replies[n + 5], "board after loadsgf differs");
    assert!(
        replies[n + 1].contains("RE[B+];B[ij];W[as];W[bs];B[jj]"),
        "{}",
        replies[n + 1]
    );
    let written = std::fs::read_to_string(dir.path().join("game.sgf")).unwrap();
    assert_eq!(format!("= {written}"), format!("{}\n", replies[n + 1]));
}

#[test]
fn eof_without_quit_exits_cleanly() {
    let run = run_liuzi(&["gtp", "--config", &fast_config()], b"play b K10\nname");
    assert!(run.success);
    assert_eq!(run.stdout, "=\n\n= Liuzi\n\n");
    let empty = run_liuzi(&[], b"");
    assert!(empty.success);
    assert_eq!(empty.stdout, "");
}

/// GoGui analyze commands: listed, empty before any search, then drawn from the last search
/// (without the opening book, which would answer K10 without one).
#[test]
fn analyze_commands_draw_policy_visits_and_win_rates() {
    let input = b"gogui-analyze_commands\nliuzi-visits\nplay b K10\nliuzi-policy\ngenmove w\nliuzi-visits\nliuzi-winrates\n";
    let run = run_liuzi(
        &[
            "gtp",
            "--threads",
            "1",
            "--seed",
            "3",
            "--playouts",
            "300",
            "--book",
            "none",
        ],
        input,
    );
    assert!(run.success, "{}", run.stderr);
    let replies = gtp_replies(&run.stdout);
    assert_eq!(replies.len(), 7, "{replies:?}");
    assert!(
        replies[0].contains("gfx/Policy P(m) heat map/liuzi-policy"),
        "{}",
        replies[0]
    );
    // Never an error (GoGui would stop an auto-run game): an empty map with a note.
    assert!(replies[1].starts_with("= TEXT no search"), "{}", replies[1]);
    let policy = &replies[3];
    assert!(policy.starts_with("= INFLUENCE "), "{policy}");
    assert!(
        !policy.contains("K10 "),
        "the occupied point has no policy: {policy}"
    );
    let visits = &replies[5];
    assert!(
        visits.starts_with("= LABEL ") && visits.contains("visits at the root"),
        "{visits}"
    );
    // Each labelled child's visits add up to the root total the TEXT line reports.
    let words: Vec<&str> = visits
        .lines()
        .next()
        .unwrap()
        .split_whitespace()
        .skip(2)
        .collect();
    let labelled: u32 = words
        .chunks(2)
        .map(|pair| pair[1].parse::<u32>().unwrap())
        .sum();
    let total: u32 = visits
        .lines()
        .nth(1)
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(labelled, total);
    assert!(replies[6].starts_with("= INFLUENCE "), "{}", replies[6]);
}
