//! The seam where the configuration meets the searches: which search, with which knowledge
//! (weights, evaluator) and parameters. A file that is missing or cannot be used is an error
//! naming it; `"none"` asks for the built-in fallback on purpose.

use super::alphabeta_generator::AlphaBetaGenerator;
use super::book::BookPlayer;
use super::mcts_generator::MctsGenerator;
use super::MoveGenerator;
use crate::book::OpeningBook;
use crate::config::{EngineConfig, SearchKind};
use crate::eval::Evaluator;
use crate::policy::Gammas;
use crate::search::alphabeta::{AlphaBeta, LeafEvaluator};
use crate::search::{proximity_gammas, PolicyFactory, PositionJudge};
use std::sync::Arc;

/// The `engine.weights` value that selects the fallback knowledge instead of a file.
pub const NO_WEIGHTS: &str = "none";

/// `engine.evaluator = "none"` (or empty): no learned evaluator.
pub const NO_EVALUATOR: &str = "none";

/// `engine.book = "none"` (or empty): no opening book.
pub const NO_BOOK: &str = "none";

/// The opening book `engine.book` names, ready to play (seeded by `engine.seed`); `None` for
/// `"none"`. (On a board of another size than the book's it has nothing to say.) A file that
/// is missing or cannot be used is an error naming it.
pub fn load_book(config: &EngineConfig) -> Result<Option<BookPlayer>, String> {
    let path = &config.engine.book;
    if path.as_os_str().is_empty() || path.as_os_str() == NO_BOOK {
        tracing::info!("no opening book (engine.book = \"none\")");
        return Ok(None);
    }
    let book = OpeningBook::load(path).map_err(|e| e.to_string())?;
    tracing::info!(
        book = %path.display(),
        positions = book.position_count(),
        turns = book.move_count(),
        "opening book loaded"
    );
    Ok(Some(BookPlayer::new(
        Arc::new(book),
        config.engine.book_min_games,
        config.engine.book_shift,
        config.engine.seed,
    )))
}

/// The move generator `engine.search` asks for, from a configuration that `config` has checked
/// ([`EngineConfig::validate`]); a knowledge file that cannot be used is an error naming it.
pub fn build_generator(config: &EngineConfig) -> Result<Box<dyn MoveGenerator>, String> {
    match config.engine.search {
        SearchKind::Mcts => build_mcts(config),
        SearchKind::AlphaBeta => build_alphabeta(config),
    }
}

/// The Bradley-Terry gammas of `engine.weights`, or the built-in proximity gammas for
/// `"none"`.
fn load_gammas(config: &EngineConfig) -> Result<Arc<Gammas>, String> {
    let path = &config.engine.weights;
    if path.as_os_str() == NO_WEIGHTS {
        tracing::info!("search knowledge: built-in proximity gammas (weights = \"none\")");
        return Ok(Arc::new(proximity_gammas()));
    }
    let gammas = Gammas::load(path).map_err(|e| e.to_string())?;
    tracing::info!(weights = %path.display(), "search knowledge: Bradley-Terry gammas");
    Ok(Arc::new(gammas))
}

/// The MCTS: priors and playouts from `engine.weights`. With `search.playout_cutoff > 0`,
/// `search.eval_prior_plies > 0` or `search.value_mix > 0` (and trained weights), it reads the
/// evaluator of `engine.evaluator` (cut-off playouts, priors near the root, leaf values).
fn build_mcts(config: &EngineConfig) -> Result<Box<dyn MoveGenerator>, String> {
    let params = config.search_params();
    let trained = config.engine.weights.as_os_str() != NO_WEIGHTS;
    let evaluator = if params.playout_cutoff > 0
        || params.eval_prior_plies > 0
        || (params.value_mix > 0.0 && trained)
    {
        load_evaluator(
            config,
            "playouts run to the end (no cut-off), alone give the reward (no value_mix), and \
             the priors are the weights' alone (no eval_prior_plies)",
        )?
    } else {
        None
    };
    let gammas = load_gammas(config)?;
    // The pair verification's judge: alpha-beta with its own settings and no root plan (the
    // MCTS's pair check already looks for the opponent's threat wins).
    let judge = if params.verify_depth > 0 {
        let leaf = match &evaluator {
            Some(e) => LeafEvaluator::Learned(Arc::clone(e)),
            None => match load_evaluator(config, "the verification scores by a fixed formula")? {
                Some(e) => LeafEvaluator::Learned(e),
                None => LeafEvaluator::Heuristic,
            },
        };
        let judge = AlphaBeta::new(config.alphabeta.clone(), Arc::clone(&gammas), leaf)?;
        Some(Box::new(judge) as Box<dyn PositionJudge>)
    } else {
        None
    };
    let factory = PolicyFactory::new(gammas)
        .with_playout_policy(params.playout_policy)
        .with_tree_prior_plies(params.tree_prior_plies);
    Ok(Box::new(
        MctsGenerator::new(params, factory)
            .with_evaluator(evaluator)
            .with_judge(judge),
    ))
}

/// The alpha-beta search: move ordering from `engine.weights` (`"none"` = the built-in
/// proximity ordering), leaves scored by `engine.evaluator` (`"none"` = the built-in formula).
fn build_alphabeta(config: &EngineConfig) -> Result<Box<dyn MoveGenerator>, String> {
    let params = config.alphabeta.clone();
    let solver = config.search.tactics.clone();
    let gammas = load_gammas(config)?;
    let leaf = match load_evaluator(config, "alpha-beta scores leaves by a fixed formula")? {
        Some(e) => LeafEvaluator::Learned(e),
        None => LeafEvaluator::Heuristic,
    };
    Ok(Box::new(AlphaBetaGenerator::new(
        params, solver, gammas, leaf,
    )?))
}

/// The evaluator `engine.evaluator` names; `None` when the key is `"none"` or empty (then
/// `without` says what the search does instead). A file that is missing or cannot be used is an
/// error naming the file, as for the weights.
pub fn load_evaluator(
    config: &EngineConfig,
    without: &str,
) -> Result<Option<Arc<Evaluator>>, String> {
    let path = &config.engine.evaluator;
    if path.as_os_str().is_empty() || path.as_os_str() == NO_EVALUATOR {
        tracing::info!("no evaluator (engine.evaluator = \"none\"): {without}");
        return Ok(None);
    }
    let evaluator = Evaluator::load(path).map_err(|e| e.to_string())?;
    tracing::info!(evaluator = %path.display(), "learned evaluator loaded");
    Ok(Some(Arc::new(evaluator)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Engine;

    fn alphabeta_config() -> EngineConfig {
        let mut c = EngineConfig::builtin();
        c.engine.search = SearchKind::AlphaBeta;
        c.engine.threads = 1;
        c.engine.weights = NO_WEIGHTS.into();
        c.engine.evaluator = NO_EVALUATOR.into();
        c.alphabeta.max_nodes = 2000;
        c.alphabeta.hash_mb = 2;
        c
    }

    #[test]
    fn builds_from_config_with_fallback_and_clear_errors() {
        let mut config = EngineConfig::builtin();
        config.engine.threads = 1;
        // A missing file is an error like a broken one; "none" asks for the fallback.
        config.engine.weights = "/nonexistent/liuzi.weights".into();
        let err = build_generator(&config).err().unwrap();
        assert!(
            err.contains("/nonexistent/liuzi.weights") && err.contains("missing"),
            "{err}"
        );
        config.engine.weights = NO_WEIGHTS.into();
        assert!(build_generator(&config).is_ok());
        let dir = std::env::temp_dir().join(format!("liuzi-gen-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let bad = dir.join("bad.weights");
        std::fs::write(&bad, "not weights").unwrap();
        config.engine.weights = bad.clone();
        let err = build_generator(&config).err().unwrap();
        assert!(err.contains("bad.weights"), "{err}");
        let good = dir.join("good.weights");
        crate::policy::Gammas::uniform().save(&good).unwrap();
        config.engine.weights = good;
        assert!(build_generator(&config).is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn builds_from_config_with_fallbacks_and_clear_errors() {
        let dir = tempfile::tempdir().unwrap();
        let mut c = alphabeta_config();
        // A missing weights file is an error naming it, as for the MCTS.
        let mut missing = c.clone();
        missing.engine.weights = dir.path().join("absent.weights");
        let err = build_generator(&missing).err().unwrap();
        assert!(
            err.contains("absent.weights") && err.contains("missing"),
            "{err}"
        );
        // So is a missing evaluator.
        let mut missing = c.clone();
        missing.engine.evaluator = dir.path().join("absent.eval");
        let err = build_generator(&missing).err().unwrap();
        assert!(
            err.contains("absent.eval") && err.contains("missing"),
            "{err}"
        );
        // weights = "none", evaluator = "none": proximity ordering and the fixed formula.
        let mut e = Engine::new(19, build_generator(&c).unwrap()).unwrap();
        for _ in 0..3 {
            let colour = e.board().to_move();
            let before = e.board().clone();
            let p = e.genmove(colour).unwrap();
            assert!(before.is_empty_at(p));
        }
        assert!(!e.analysis().unwrap().children.is_empty());
        assert_eq!(e.analysis().unwrap().stone_count, 2);
        let policy = e.policy().unwrap();
        assert!((policy.iter().map(|x| x.1).sum::<f32>() - 1.0).abs() < 1e-3);

        // Both files present and good.
        let eval_path = dir.path().join("good.eval");
        crate::eval::testing::sample_evaluator()
            .save(&eval_path)
            .unwrap();
        let weights = dir.path().join("good.weights");
        Gammas::uniform().save(&weights).unwrap();
        c.engine.evaluator = eval_path;
        c.engine.weights = weights;
        assert!(build_generator(&c).is_ok());

        // A damaged evaluator is an error naming the file, for alpha-beta, for leaf values and
        // for cut-offs.
        let bad = dir.path().join("bad.eval");
        std::fs::write(&bad, "liuzi-eval 1\n").unwrap();
        c.engine.evaluator = bad;
        let err = build_generator(&c).err().unwrap();
        assert!(err.contains("bad.eval"), "{err}");
        c.engine.search = SearchKind::Mcts;
        assert!(c.search.value_mix > 0.0, "leaf values are on by default");
        let err = build_generator(&c).err().unwrap();
        assert!(err.contains("bad.eval"), "{err}");
        c.search.value_mix = 0.0;
        c.search.playout_cutoff = 0;
        assert!(
            build_generator(&c).is_ok(),
            "no cut-off, no leaf values: the evaluator is not read"
        );
        c.search.playout_cutoff = 20;
        let err = build_generator(&c).err().unwrap();
        assert!(err.contains("bad.eval"), "{err}");
        // No evaluator with a cut-off: full playouts.
        c.engine.evaluator = NO_EVALUATOR.into();
        assert!(build_generator(&c).is_ok());
        // Bad alpha-beta parameters name the key.
        c.engine.search = SearchKind::AlphaBeta;
        c.alphabeta.width = 0;
        let err = c.validate().unwrap_err();
        assert!(err.contains("alphabeta.width"), "{err}");
    }

    #[test]
    fn the_book_loads_or_names_its_file_and_key() {
        let dir = tempfile::tempdir().unwrap();
        let mut c = EngineConfig::builtin();
        assert!(load_book(&c).unwrap().is_some(), "the shipped book");
        c.engine.book = NO_BOOK.into();
        assert!(load_book(&c).unwrap().is_none());
        c.engine.book = dir.path().join("absent.book");
        let err = load_book(&c).err().unwrap();
        assert!(
            err.contains("absent.book") && err.contains("missing"),
            "{err}"
        );
        let bad = dir.path().join("bad.book");
        std::fs::write(&bad, "liuzi-book 1\nspec liuzi-book:v1\n").unwrap();
        c.engine.book = bad;
        let err = load_book(&c).err().unwrap();
        assert!(err.contains("bad.book"), "{err}");
        c.engine.book_min_games = 0;
        let err = c.validate().unwrap_err();
        assert!(err.contains("engine.book_min_games"), "{err}");
    }
}
