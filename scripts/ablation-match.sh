#!/usr/bin/env bash
# One row of the ablation table (docs/results.md): the default engine against itself with one
# part removed (experiments/ablation/VARIANT.toml), one thread each, a fixed number of playouts
# a stone for both (so the result does not depend on the machine's load), colour-swapped pairs
# on the experts' openings (first two turns, shuffled by SEED). Rerun to resume.
# Usage: scripts/ablation-match.sh VARIANT [GAMES] [SEED] [CONCURRENCY]
#   PLAYOUTS (env): playouts a stone for both engines, default 1500.
#   DIR (env): the folder of VARIANT.toml and of the results, default experiments/ablation; e.g.
#     DIR=experiments/tuning/selection for a setting's screen rather than an ablation.
# Results: DIR/default-vs-VARIANT.{jsonl,txt}.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
variant="${1:?usage: scripts/ablation-match.sh VARIANT [GAMES] [SEED] [CONCURRENCY]}"
games="${2:-200}"; seed="${3:-1}"; concurrency="${4:-1}"; playouts="${PLAYOUTS:-1500}"
openings="${OPENINGS:-$root/../shared/data/littlegolem-experts.games}"
here="$root/${DIR:-experiments/ablation}"
work="$root/target/ablation-match"
# The players are frozen once, binaries and shipped files together, so that rebuilding or
# retraining during a long run does not change them: the engines run in $work, where the
# engine finds the frozen engine-config/ (the working directory is looked in first).
if [ ! -x "$work/bin/liuzi" ]; then
  (cd "$root" && cargo build --release --quiet -p liuzi --bin liuzi -p liuzi-tools --bin liuzi-match)
  mkdir -p "$work/bin"
  cp "$root/target/release/liuzi" "$root/target/release/liuzi-match" "$work/bin/"
  cp -r "$root/engine-config" "$work/"
fi
name="default-vs-$variant"
results="$here/$name.jsonl"
resume=(); [ -s "$results" ] && resume=(--resume)
engine="$work/bin/liuzi"
"$work/bin/liuzi-match" \
  --engine "name=default st=60 dir=$work cmd='$engine gtp --threads 1 --playouts $playouts'" \
  --engine "name=$variant st=60 dir=$work cmd='$engine --config $here/$variant.toml gtp --threads 1 --playouts $playouts'" \
  --games "$games" --openings "$openings" --opening-turns 2 --shuffle-openings --seed "$seed" \
  --concurrency "$concurrency" --results "$results" --event "$name" \
  "${resume[@]}" | tee "$here/$name.txt"
