#!/usr/bin/env bash
# A variant against the default at equal time: 1 s a turn through GTP `time_settings 0 1 2`, one
# thread each, colour-swapped pairs on random 3-stone openings. Rerun to resume.
# Usage: scripts/variant-match.sh VARIANT [GAMES] [SEED] [CONCURRENCY]
#   VARIANT: an override file experiments/tree-defence/VARIANT.toml (the default engine plus its
#     keys).
#   TAG (env): a suffix for a rerun of the same variant against a newer default.
#   OPENINGS (env): a record file whose first two turns (B, WW) open the games, shuffled by
#     SEED, instead of the random 3-stone openings (then also set TAG).
#   BASE (env): another variant of experiments/tree-defence/ in the default's place (e.g.
#     BASE=c025 with VARIANT alphabeta); the names become BASE-vs-VARIANT.
#   EVALUATOR (env): an evaluator file the variant reads instead of the default's (frozen beside
#     the players when the run starts; then also set TAG), e.g. a retrained one: VARIANT can be
#     a file that changes nothing (`same`).
#   WEIGHTS (env): a weights file the variant reads instead of the default's (frozen like
#     EVALUATOR; then also set TAG), e.g. retrained gammas with VARIANT `same`.
#   TURN (env): both engines' seconds a turn instead of 1 (then also set TAG).
#   VARIANT_TURN (env): the variant's seconds a turn instead of TURN (then also set TAG), e.g.
#     `TAG=turn2 VARIANT_TURN=2 scripts/variant-match.sh same`: what twice the time is worth to the same engine.
#   VARIANT_THREADS (env): the variant's search threads instead of 1 (then also set TAG), e.g.
#     `TAG=threads2 VARIANT_THREADS=2 scripts/variant-match.sh same`: what a second core is worth at equal time.
#     Run it alone with CONCURRENCY 1 on a machine with that many cores.
#   BASE_THREADS (env): the default's (or BASE's) search threads instead of 1 (then also set
#     TAG), e.g. `TAG=t2 BASE_THREADS=2 VARIANT_THREADS=2 scripts/variant-match.sh vl1`: a knob of threaded search.
#   TC (env): a game clock for both engines instead of 1 s a turn, MAIN seconds a game (GTP
#     `time_settings MAIN 0 0` and `time_left`; then also set TAG), e.g. `TAG=tc30 TC=30`.
# Results: experiments/tree-defence/default-vs-VARIANT.{jsonl,txt} (BASE-vs-...); engine logs (for
# scripts/budget.py): target/tree-defence-run/default-vs-VARIANT.logs/.
set -euo pipefail
scripts="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$scripts/.." && pwd)"
# The variants and the results live beside each other in experiments/tree-defence/.
here="$root/experiments/tree-defence"
variant="${1:?usage: scripts/variant-match.sh VARIANT [GAMES] [SEED] [CONCURRENCY]}"
games="${2:-200}"; seed="${3:-31}"; concurrency="${4:-1}"
base="${BASE:-default}"
name="$base-vs-$variant${TAG:+-$TAG}"
work="$root/target/tree-defence-run/$name"
source "$scripts/players.sh"
# Release binaries, config, weights and evaluator, copied once so that rebuilding or retraining
# during a long run does not change the players (the variant's config names no files: it gets
# the frozen weights and evaluator by option; before 2026-11-25 it read the repository's).
if freeze_players "$root" "$work"; then
  cp "$root/engine-config/default.toml" "$work/default.toml"
  cp "$root/engine-config/default.weights" "$root/engine-config/default.eval" "$root/engine-config/default.book" "$work/"
fi
variant_eval="$work/default.eval"
if [ -n "${EVALUATOR:-}" ]; then
  # Frozen at the run's first start; a resume keeps that copy.
  [ -e "$work/variant.eval" ] || cp "$EVALUATOR" "$work/variant.eval"
  variant_eval="$work/variant.eval"
fi
variant_weights="$work/default.weights"
if [ -n "${WEIGHTS:-}" ]; then
  [ -e "$work/variant.weights" ] || cp "$WEIGHTS" "$work/variant.weights"
  variant_weights="$work/variant.weights"
fi
# The frozen book unless the variant names its own (e.g. `book = "none"`): an option would
# override the variant's file.
book=(--book "$work/default.book")
grep -q '^book *=' "$here/$variant.toml" && book=()
# The first player: the frozen default, or the BASE variant over it.
first="--config $work/default.toml"
if [ -n "${BASE:-}" ]; then
  first="--config $here/$BASE.toml --weights $work/default.weights --evaluator $work/default.eval --book $work/default.book"
fi
opening_flags "$seed"
turn="${TURN:-1}"
time_base="st=$turn"; time_variant="st=${VARIANT_TURN:-$turn}"
if [ -n "${TC:-}" ]; then time_base="tc=$TC"; time_variant="tc=$TC"; fi
results="$here/$name.jsonl"
resume_flag "$results"
"$work/bin/liuzi-match" \
  --engine "name=$base $time_base cmd='$work/bin/liuzi $first gtp --threads ${BASE_THREADS:-1} -v'" \
  --engine "name=$variant $time_variant cmd='$work/bin/liuzi --config $here/$variant.toml --weights $variant_weights --evaluator $variant_eval ${book[*]} gtp --threads ${VARIANT_THREADS:-1} -v'" \
  --games "$games" "${openings[@]}" --concurrency "$concurrency" \
  --results "$results" --engine-logs "$work/logs" --event "$name" \
  "${resume[@]}" | tee "$here/$name.txt"
