//! liuzi-rate: Bradley-Terry ratings (Elo scale, 95% intervals) of many engines from
//! liuzi-match results files. See docs/matches.md, rating.

use clap::Parser;
use liuzi_tools::rating::{rate, table, GameSet, RatingOptions};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    version,
    about = "Bradley-Terry ratings of engines from liuzi-match results files"
)]
struct Args {
    /// Results files (JSON Lines) written by liuzi-match.
    #[arg(required = true, value_name = "RESULTS")]
    results: Vec<PathBuf>,
    /// Weight each game by 0.5^(age / DAYS), age counted back from the newest game.
    #[arg(long, value_name = "DAYS")]
    half_life: Option<f64>,
    /// Virtual games per engine against a 0-Elo opponent, half won (regularisation); 0 = none.
    #[arg(long, default_value_t = 2.0, value_name = "GAMES")]
    prior_games: f64,
    /// Give this engine a fixed rating (default: ratings average 0).
    #[arg(long, value_name = "NAME")]
    anchor: Option<String>,
    /// The anchor's rating.
    #[arg(long, default_value_t = 0.0, value_name = "ELO", requires = "anchor")]
    anchor_elo: f64,
}

fn run(args: &Args) -> Result<String, String> {
    let mut set = GameSet::read_files(&args.results)?;
    if let Some(days) = args.half_life {
        set.apply_half_life(days)
            .map_err(|e| format!("--half-life: {e}"))?;
    }
    let anchor = match &args.anchor {
        None => None,
        Some(name) => Some(
            set.names
                .iter()
                .position(|n| n == name)
                .ok_or_else(|| format!("--anchor {name}: no such engine in the results"))?,
        ),
    };
    let options = RatingOptions {
        prior_games: args.prior_games,
        anchor,
        anchor_elo: args.anchor_elo,
    };
    let ratings = rate(&set, &options)?;
    let mut out = table::render(&ratings);
    out.push_str(&format!(
        "{} games, {} engines; Bradley-Terry by MM, prior {} game(s){}; ratings {}\n",
        set.games.len(),
        set.names.len(),
        args.prior_games,
        args.half_life
            .map(|d| format!(", half-life {d} days"))
            .unwrap_or_default(),
        match &args.anchor {
            Some(name) => format!("relative to {name} = {}", args.anchor_elo),
            None => "average 0".to_string(),
        }
    ));
    Ok(out)
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("liuzi-rate: {e}");
            ExitCode::FAILURE
        }
    }
}
