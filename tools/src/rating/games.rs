//! Rated games read from `liuzi-match` results files, with optional time-decay weights.

use crate::match_runner::results::read_results_text;
use serde::Deserialize;
use std::collections::{HashMap, HashSet};
use std::path::Path;

/// The fields of a results line the ratings need; the rest is ignored.
#[derive(Deserialize)]
struct ResultFields {
    black: String,
    white: String,
    result: String,
    #[serde(default)]
    finished_unix: Option<u64>,
    /// Game id in its match, and the games that match scheduled (absent in hand-written files).
    #[serde(default)]
    game: Option<usize>,
    #[serde(default)]
    match_games: Option<usize>,
}

/// One game between engine indices `black` and `white`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatedGame {
    pub black: usize,
    pub white: usize,
    /// Black's score: 1, 1/2 or 0.
    pub black_score: f64,
    pub finished_unix: Option<u64>,
    /// Weight in the fit (1 without time decay).
    pub weight: f64,
}

/// Games of many engines, engines numbered in order of first appearance.
#[derive(Clone, Debug, Default)]
pub struct GameSet {
    pub names: Vec<String>,
    pub games: Vec<RatedGame>,
}

impl GameSet {
    fn engine(&mut self, name: &str, index: &mut HashMap<String, usize>) -> usize {
        *index.entry(name.to_string()).or_insert_with(|| {
            self.names.push(name.to_string());
            self.names.len() - 1
        })
    }

    /// Reads results files (JSON Lines), one match a file. Errors name the file and line; a
    /// game recorded twice, or whose id is outside its match (the most games any line of the
    /// file says the match scheduled), is refused.
    pub fn read_files(paths: &[impl AsRef<Path>]) -> Result<GameSet, String> {
        let mut set = GameSet::default();
        let mut index = HashMap::new();
        for path in paths {
            let path = path.as_ref();
            let text = read_results_text(path)?;
            let mut lines = Vec::new();
            for (n, line) in text.lines().enumerate() {
                if line.trim().is_empty() {
                    continue;
                }
                let fields: ResultFields = serde_json::from_str(line)
                    .map_err(|e| format!("{}:{}: {e}", path.display(), n + 1))?;
                lines.push((n, fields));
            }
            let match_games = lines.iter().filter_map(|(_, f)| f.match_games).max();
            let mut ids = HashSet::new();
            for (n, fields) in lines {
                let at = || format!("{}:{}", path.display(), n + 1);
                if let Some(game) = fields.game {
                    if let Some(total) = match_games.filter(|&total| game >= total) {
                        return Err(format!(
                            "{}: game {game} is not part of the match, which has {total} games",
                            at()
                        ));
                    }
                    if !ids.insert(game) {
                        return Err(format!("{}: game {game} is recorded twice", at()));
                    }
                }
                let black_score = match fields.result.as_str() {
                    "B" => 1.0,
                    "W" => 0.0,
                    "D" => 0.5,
                    other => return Err(format!("{}: result `{other}` is not B, W or D", at())),
                };
                if fields.black == fields.white {
                    return Err(format!("{}: `{}` plays itself", at(), fields.black));
                }
                let black = set.engine(&fields.black, &mut index);
                let white = set.engine(&fields.white, &mut index);
                set.games.push(RatedGame {
                    black,
                    white,
                    black_score,
                    finished_unix: fields.finished_unix,
                    weight: 1.0,
                });
            }
        }
        Ok(set)
    }

    /// Weights every game by 0.5^(age / half_life), its age counted back from the newest game
    /// (NN-Rating's idea: older games say less about an engine's current strength).
    pub fn apply_half_life(&mut self, half_life_days: f64) -> Result<(), String> {
        if !(half_life_days > 0.0 && half_life_days.is_finite()) {
            return Err(format!(
                "half-life `{half_life_days}` must be a positive number of days"
            ));
        }
        let newest = self.games.iter().filter_map(|g| g.finished_unix).max();
        let Some(newest) = newest else {
            return Err(
                "time decay needs finished_unix times in the results, and there are none".into(),
            );
        };
        if self.games.iter().any(|g| g.finished_unix.is_none()) {
            return Err(
                "time decay needs finished_unix on every game; some results lack it".into(),
            );
        }
        let half_life_secs = half_life_days * 86_400.0;
        for g in &mut self.games {
            let age = (newest - g.finished_unix.unwrap_or(newest)) as f64;
            g.weight = 0.5f64.powf(age / half_life_secs);
        }
        Ok(())
    }

    /// Per engine: (wins, losses, draws) counted without weights.
    pub fn records(&self) -> Vec<(u64, u64, u64)> {
        let mut out = vec![(0, 0, 0); self.names.len()];
        for g in &self.games {
            for (engine, score) in [(g.black, g.black_score), (g.white, 1.0 - g.black_score)] {
                let r = &mut out[engine];
                if score == 1.0 {
                    r.0 += 1;
                } else if score == 0.0 {
                    r.1 += 1;
                } else {
                    r.2 += 1;
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_results_and_weights_by_age() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.jsonl");
        std::fs::write(
            &path,
            concat!(
                r#"{"game":0,"black":"a","white":"b","result":"B","finished_unix":864000,"extra":1}"#,
                "\n",
                r#"{"black":"b","white":"c","result":"D","finished_unix":0}"#,
                "\n\n"
            ),
        )
        .unwrap();
        let mut set = GameSet::read_files(&[&path]).unwrap();
        assert_eq!(set.names, vec!["a", "b", "c"]);
        assert_eq!(set.games.len(), 2);
        assert_eq!(set.games[1].black_score, 0.5);
        assert_eq!(set.records(), vec![(1, 0, 0), (0, 1, 1), (0, 0, 1)]);
        set.apply_half_life(5.0).unwrap();
        assert_eq!(set.games[0].weight, 1.0);
        // Ten days old with a five-day half-life: a quarter.
        assert!((set.games[1].weight - 0.25).abs() < 1e-12);
        assert!(set.apply_half_life(0.0).is_err());
    }

    #[test]
    fn errors_name_file_and_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.jsonl");
        std::fs::write(
            &path,
            "{\"black\":\"a\",\"white\":\"b\",\"result\":\"X\"}\n",
        )
        .unwrap();
        let err = GameSet::read_files(&[&path]).unwrap_err();
        assert!(err.contains("r.jsonl:1") && err.contains("`X`"), "{err}");
        std::fs::write(&path, "{\"black\":\"a\"}\n").unwrap();
        assert!(GameSet::read_files(&[&path])
            .unwrap_err()
            .contains("r.jsonl:1"));
        let mut no_times = GameSet::default();
        no_times.games.push(RatedGame {
            black: 0,
            white: 1,
            black_score: 1.0,
            finished_unix: None,
            weight: 1.0,
        });
        assert!(no_times.apply_half_life(3.0).is_err());
    }

    #[test]
    fn games_outside_their_match_and_repeated_games_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.jsonl");
        let game = |id: usize| {
            format!(
                "{{\"game\":{id},\"black\":\"a\",\"white\":\"b\",\"result\":\"B\",\"match_games\":2}}\n"
            )
        };
        std::fs::write(&path, game(0) + &game(1)).unwrap();
        assert_eq!(GameSet::read_files(&[&path]).unwrap().games.len(), 2);
        std::fs::write(&path, game(0) + &game(1) + &game(999)).unwrap();
        let err = GameSet::read_files(&[&path]).unwrap_err();
        assert!(
            err.contains("r.jsonl:3") && err.contains("game 999 is not part of the match"),
            "{err}"
        );
        std::fs::write(&path, game(0) + &game(1) + &game(1)).unwrap();
        let err = GameSet::read_files(&[&path]).unwrap_err();
        assert!(
            err.contains("r.jsonl:3") && err.contains("recorded twice"),
            "{err}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn devices_are_refused() {
        let err = GameSet::read_files(&["/dev/zero"]).unwrap_err();
        assert!(err.contains("/dev/zero: not a regular file"), "{err}");
    }
}
