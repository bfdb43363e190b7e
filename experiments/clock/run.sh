#!/usr/bin/env bash
# The new default (early_stop_min_share = 1.0: spend the budget unless the time saved is banked)
# against the old behaviour (old.toml: 0.0), same binary, equal time: 1 s a turn through GTP
# `time_settings 0 1 2`, one thread each, colour-swapped pairs on random 3-stone openings, one
# game at a time. Rerun to resume. Results: experiments/clock/new-vs-old.{jsonl,txt}; engine
# logs (for budget.py): target/clock-run/new-vs-old.logs/.
# Usage: experiments/clock/run.sh [GAMES] [SEED]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
games="${1:-200}"; seed="${2:-17}"
work="$root/target/clock-run"
source "$root/scripts/players.sh"
freeze_players "$root" "$work" || true
results="$here/new-vs-old.jsonl"
resume_flag "$results"
"$work/bin/liuzi-match" \
  --engine "name=new st=1 cmd='$work/bin/liuzi --config $root/engine-config/default.toml gtp --threads 1 -v'" \
  --engine "name=old st=1 cmd='$work/bin/liuzi --config $here/old.toml gtp --threads 1 -v'" \
  --games "$games" --random-openings --opening-turns 2 --seed "$seed" --concurrency 1 \
  --results "$results" --engine-logs "$work/new-vs-old.logs" --event clock-new-vs-old \
  "${resume[@]}" | tee "$here/new-vs-old.txt"
