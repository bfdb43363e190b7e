#!/usr/bin/env bash
# Today's engine against the engine of an earlier commit, built from that commit as the baseline
# player: 1 s a turn through GTP `time_settings 0 1 2`, one thread each, colour-swapped pairs on
# the experts' openings (first two turns, shuffled by SEED). Rerun to resume.
# Usage: scripts/baseline-match.sh REV [GAMES] [SEED] [CONCURRENCY]
#   REV: the baseline commit (e.g. 9cbdfd9); its binary and its engine-config/ are frozen once.
#   TAG (env): a suffix for a rerun against a newer engine.
#   TURN (env): seconds a turn for both engines instead of 1 (then also set TAG).
#   VARIANT (env): an override file the new engine reads over its default (then also set TAG).
#   EVALUATOR (env): an evaluator file frozen as the new engine's default.eval (then also set
#     TAG), e.g. a retrained one before it is shipped.
# Results: experiments/baselines/now-vs-REV[-TAG].{jsonl,txt}; engine logs (for
# scripts/budget.py): target/baseline-run/now-vs-REV[-TAG]/logs/.
set -euo pipefail
scripts="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$scripts/.." && pwd)"
rev="${1:?usage: scripts/baseline-match.sh REV [GAMES] [SEED] [CONCURRENCY]}"
games="${2:-400}"; seed="${3:-1}"; concurrency="${4:-1}"
openings="${OPENINGS:-$root/../shared/data/littlegolem-experts.games}"
name="now-vs-$rev${TAG:+-$TAG}"
work="$root/target/baseline-run/$name"
source "$scripts/players.sh"
# The new engine: this tree's release binaries and shipped files, frozen once.
if freeze_players "$root" "$work/now"; then
  cp -r "$root/engine-config" "$work/now/"
  if [ -n "${EVALUATOR:-}" ]; then cp "$EVALUATOR" "$work/now/engine-config/default.eval"; fi
fi
# The baseline: REV checked out beside the tree and built there once (its own target dir, so
# the tree's build is not disturbed), then frozen the same way.
base="$work/base"
if [ ! -x "$base/bin/liuzi" ]; then
  src="$root/target/baseline-src/$rev"
  [ -d "$src" ] || git -C "$root" worktree add --detach "$src" "$rev"
  (cd "$src" && cargo build --release --quiet -p liuzi --bin liuzi) \
    || { echo "baseline-match: building $rev failed" >&2; exit 1; }
  mkdir -p "$base/bin"
  cp "$src/target/release/liuzi" "$base/bin/"
  cp -r "$src/engine-config" "$base/"
fi
variant=()
[ -z "${VARIANT:-}" ] || variant=(--config "$(cd "$(dirname "$VARIANT")" && pwd)/$(basename "$VARIANT")")
turn="${TURN:-1}"
results="$root/experiments/baselines/$name.jsonl"
resume_flag "$results"
# Each engine runs in its own frozen folder, where it finds its engine-config/ first.
"$work/now/bin/liuzi-match" \
  --engine "name=now st=$turn dir=$work/now cmd='$work/now/bin/liuzi ${variant[*]} gtp --threads 1 -v'" \
  --engine "name=$rev st=$turn dir=$base cmd='$base/bin/liuzi gtp --threads 1 -v'" \
  --games "$games" --openings "$openings" --opening-turns 2 --shuffle-openings --seed "$seed" \
  --concurrency "$concurrency" --results "$results" --engine-logs "$work/logs" --event "$name" \
  "${resume[@]}" | tee "$root/experiments/baselines/$name.txt"
