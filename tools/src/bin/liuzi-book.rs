//! `liuzi-book`: builds the opening book (`engine.book`) from game records: the turns played in
//! each position of the first turns, counted over all eight board symmetries, kept where played
//! often enough.

use clap::Parser;
use liuzi::book::{build, BuildOptions, OpeningBook};
use liuzi::records::GameRecord;
use std::path::PathBuf;

#[derive(Parser)]
#[command(
    name = "liuzi-book",
    version,
    about = "Build Liuzi's opening book from game records"
)]
struct Cli {
    /// Game records (.games, SGF or CCGC); repeat for several files.
    #[arg(long = "games", required = true)]
    games: Vec<PathBuf>,
    /// Book file to write.
    #[arg(long)]
    out: PathBuf,
    /// Turns after Black's opening stone: 1 = White's first pair, 2 = and Black's reply, ...
    #[arg(long, default_value_t = 4)]
    turns: usize,
    /// A turn is kept when played in at least this many games of its position.
    #[arg(long, default_value_t = 10)]
    min_games: u32,
    /// Board size of the book; records of other sizes are skipped.
    #[arg(long, default_value_t = 19)]
    size: usize,
}

fn main() {
    if let Err(e) = run(Cli::parse()) {
        eprintln!("liuzi-book: {e}");
        std::process::exit(1);
    }
}

fn run(cli: Cli) -> Result<(), String> {
    if cli.turns == 0 {
        return Err("--turns must be at least 1".into());
    }
    if !(liuzi::rules::MIN_SIZE..=liuzi::rules::MAX_SIZE).contains(&cli.size) {
        return Err(format!("--size {} is not a supported board size", cli.size));
    }
    let mut records: Vec<GameRecord> = Vec::new();
    for path in &cli.games {
        let games = liuzi::records::read_file(path).map_err(|e| e.to_string())?;
        records.extend(games);
    }
    let files: Vec<String> = cli.games.iter().map(|p| p.display().to_string()).collect();
    let source = format!(
        "liuzi-book --games {} --turns {} --min-games {} --size {}",
        files.join(" --games "),
        cli.turns,
        cli.min_games,
        cli.size
    );
    let options = BuildOptions {
        size: cli.size,
        turns: cli.turns,
        min_games: cli.min_games,
    };
    let (book, stats) = build(&records, options, &source);
    book.save(&cli.out).map_err(|e| e.to_string())?;
    // Read back: what was written is what the engine will load.
    let back = OpeningBook::load(&cli.out).map_err(|e| e.to_string())?;
    if back != book {
        return Err(format!("{}: reads back different", cli.out.display()));
    }
    eprintln!(
        "{}: {} positions, {} turns, from {} games ({} skipped: another size or stones that do not replay)",
        cli.out.display(),
        book.position_count(),
        book.move_count(),
        stats.games_used,
        stats.games_skipped
    );
    Ok(())
}
