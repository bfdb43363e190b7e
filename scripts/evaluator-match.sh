#!/usr/bin/env bash
# The engine of the working tree against the engine of an earlier commit (a different evaluator,
# feature set or weights file: anything a config override cannot express), at equal time: 1 s a
# turn through GTP `time_settings 0 1 2`, one thread each, colour-swapped pairs on random 3-stone
# openings. Rerun the same command to resume.
# Usage: scripts/evaluator-match.sh NAME BASE_REV [GAMES] [SEED] [CONCURRENCY]
#   NAME      names the results: experiments/evaluator/NAME-vs-BASE_REV.{jsonl,txt}
#   BASE_REV  the commit the opponent is built from (a git worktree under target/, built once)
#   OPENINGS (env): a record file whose first two turns (B, WW) open the games, shuffled by SEED.
#   ENGINE_ARGS (env): options for both engines' `gtp`, e.g. "--search alphabeta" (then also set TAG)
#   TAG (env): a suffix of the result names
#   VARIANT (env): an override file without an [engine] table (e.g.
#     experiments/tree-defence/tp8p2.toml): the working tree's engine plays the shipped settings
#     plus its keys, with the frozen weights, evaluator and book
#   EVALUATOR (env): an evaluator file frozen as the working tree's default.eval (a retrained
#     one before it is shipped), e.g. `EVALUATOR=experiments/evaluator/pattern.eval
#     OPENINGS=../shared/data/littlegolem-experts.games scripts/evaluator-match.sh pattern 9cbdfd9 400 1 2`
# Engine logs: target/evaluator-run/NAME-vs-BASE_REV/logs/.
set -euo pipefail
scripts="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$scripts/.." && pwd)"
# Results land in experiments/evaluator/.
here="$root/experiments/evaluator"
name="${1:?usage: run.sh NAME BASE_REV [GAMES] [SEED] [CONCURRENCY]}"
base="${2:?usage: run.sh NAME BASE_REV [GAMES] [SEED] [CONCURRENCY]}"
games="${3:-200}"; seed="${4:-31}"; concurrency="${5:-1}"
match="$name-vs-$base${TAG:+-$TAG}"
work="$root/target/evaluator-run/$match"
source "$scripts/players.sh"
# The variant keeps the frozen files: it may not name its own.
if [ -n "${VARIANT:-}" ] && grep -q '^\[engine\]' "$VARIANT"; then
  echo "evaluator-match.sh: VARIANT $VARIANT must not set [engine]" >&2; exit 1
fi
# The working tree's players and files, frozen once.
if freeze_players "$root" "$work"; then
  cp "$root"/engine-config/default.{toml,weights,eval,book} "$work/bin/"
  if [ -n "${EVALUATOR:-}" ]; then cp "$EVALUATOR" "$work/bin/default.eval"; fi
  if [ -n "${VARIANT:-}" ]; then
    { printf '[engine]\nweights = "default.weights"\nevaluator = "default.eval"\nbook = "default.book"\n\n'
      cat "$VARIANT"; } > "$work/bin/variant.toml"
  fi
fi
config="$work/bin/default.toml"
[ -e "$work/bin/variant.toml" ] && config="$work/bin/variant.toml"
# The base engine: its own worktree and build, with the files of that commit.
base_tree="$root/target/evaluator-run/base-$base"
if [ ! -x "$base_tree/target/release/liuzi" ]; then
  [ -d "$base_tree" ] || git -C "$root" worktree add --detach "$base_tree" "$base"
  (cd "$base_tree" && cargo build --release --quiet -p liuzi --bin liuzi)
fi
opening_flags "$seed"
results="$here/$match.jsonl"
resume_flag "$results"
"$work/bin/liuzi-match" \
  --engine "name=$name st=1 cmd='$work/bin/liuzi --config $config gtp --threads 1 -v ${ENGINE_ARGS:-}'" \
  --engine "name=$base st=1 cmd='$base_tree/target/release/liuzi --config $base_tree/engine-config/default.toml gtp --threads 1 -v ${ENGINE_ARGS:-}'" \
  --games "$games" "${openings[@]}" --concurrency "$concurrency" \
  --results "$results" --engine-logs "$work/logs" --event "$match" \
  "${resume[@]}" | tee "$here/$match.txt"
