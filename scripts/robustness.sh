#!/usr/bin/env bash
# The shipped engine under conditions the strength matches never use: other board sizes, a
# sudden-death game clock, a very short turn, the empty board. Each condition is a short match
# of the default MCTS against alpha-beta, both as a user starts them (shipped config, one search
# thread per core), colour-swapped pairs. What it checks is not the score but that every game
# ends on the board (a six or a full board: no time loss, illegal stone, crash or bad answer)
# and that neither engine logs a warning or an error: `scripts/robustness_check.py` says so and
# fails otherwise.
# Rerun to resume. Usage: scripts/robustness.sh [CONDITION...] (default: all)
# THREADS (env): each engine's search threads (default: the shipped 0, one per core); 1 when
#   another run shares the machine.
# Results: experiments/robustness/CONDITION.{jsonl,txt}; engine logs:
# target/robustness-run/logs-CONDITION/.
set -euo pipefail
scripts="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$scripts/.." && pwd)"
# Results land in experiments/robustness/.
here="$root/experiments/robustness"
work="$root/target/robustness-run"
source "$scripts/players.sh"
# The shipped files beside the frozen binary, where an installed engine finds them (the engines
# run in that folder, so the repository's copy, which may change during a run, is not read).
if freeze_players "$root" "$work"; then
  mkdir -p "$work/bin/engine-config"
  cp "$root"/engine-config/default.{toml,weights,eval,book} "$work/bin/engine-config/"
fi

# name: games, then liuzi-match's options for the condition.
declare -A conditions=(
  [size7]="10 --size 7 --st 0.2 --random-openings --opening-radius 1"
  [size13]="10 --size 13 --st 0.3 --random-openings"
  [size25]="6 --size 25 --tc 20+0.2 --random-openings"
  [sudden6]="10 --tc 6 --random-openings"
  [turn005]="10 --st 0.05 --random-openings"
  [empty]="6 --st 0.5"
)
order=(size7 size13 size25 sudden6 turn005 empty)
[ $# -gt 0 ] && order=("$@")
for name in "${order[@]}"; do
  spec="${conditions[$name]:-}"
  [ -n "$spec" ] || { echo "robustness.sh: unknown condition '$name' (${!conditions[*]})" >&2; exit 2; }
  read -r games options <<<"$spec"
  results="$here/$name.jsonl"
  resume_flag "$results"
  # -v: the engines' info lines too, so that a warning or error cannot hide below the level.
  # shellcheck disable=SC2086 # $options is a list of options
  "$work/bin/liuzi-match" \
    --engine "name=mcts dir=$work/bin cmd='$work/bin/liuzi gtp --threads ${THREADS:-0} -v'" \
    --engine "name=alphabeta dir=$work/bin cmd='$work/bin/liuzi gtp --search alphabeta --threads ${THREADS:-0} -v'" \
    --games "$games" $options --seed 1 \
    --results "$results" --engine-logs "$work/logs-$name" --event "robustness-$name" \
    "${resume[@]}" | tee "$here/$name.txt"
done
python3 "$scripts/robustness_check.py" "$here" "$work"
