#!/usr/bin/env bash
# The two-section weights (tree priors from the groups + raw length-6 line patterns,
# playouts from the seven groups; engine-config/tree.weights until c237e53, the shipped
# engine-config/default.weights since) against the one-section weights they extend
# (engine-config/default.weights of commit 7c91927), same binary,
# equal time: 0.9 s a turn (0.45 s a stone) through GTP, one thread each, colour-swapped pairs
# on random 3-turn openings, one game at a time. Rerun to resume.
# Results: experiments/knowledge/tree-vs-playout.{jsonl,txt}.
# Usage: experiments/knowledge/tree-run.sh [GAMES] [SEED] [CONCURRENCY]
#   TAG (env): a suffix of the result and work names, for a rerun on a newer engine.
#   TREE_CONFIG (env): a config file with the keys that change for the tree-weights player
#     (e.g. experiments/knowledge/tree-plies4.toml), frozen like the rest; then also set TAG.
#     Without it the tree player gets default.toml, where tree_prior_plies = 4 since c237e53:
#     the earlier runs (tree priors at every depth) need a TREE_CONFIG with
#     tree_prior_plies = 0 to be repeated (the old weights have no tree section to limit).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
games="${1:-200}"; seed="${2:-15}"; concurrency="${3:-1}"
work="$root/target/tree-run${TAG:+-$TAG}"
source "$root/scripts/players.sh"
# Release binaries and both weights, copied once so that rebuilding or retraining during a long
# run does not change the players.
if freeze_players "$root" "$work"; then
  cp "$root/engine-config/default.weights" "$work/new.weights"
  cp "$root/engine-config/default.toml" "$root/engine-config/default.eval" "$work/"
  (cd "$root" && git show 7c91927:engine-config/default.weights) > "$work/old.weights"
  cp "${TREE_CONFIG:-$root/engine-config/default.toml}" "$work/tree.toml"
fi
name="tree-vs-playout${TAG:+-$TAG}"
results="$here/$name.jsonl"
resume_flag "$results"
"$work/bin/liuzi-match" \
  --engine "name=tree-weights st=0.9 cmd='$work/bin/liuzi --config $work/tree.toml --weights $work/new.weights --evaluator $work/default.eval gtp --threads 1'" \
  --engine "name=old-weights st=0.9 cmd='$work/bin/liuzi --config $work/default.toml --weights $work/old.weights gtp --threads 1'" \
  --games "$games" --random-openings --seed "$seed" --concurrency "$concurrency" \
  --results "$results" --event "$name" \
  "${resume[@]}" | tee -a "$here/$name.txt"
