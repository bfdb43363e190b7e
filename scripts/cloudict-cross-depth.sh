#!/usr/bin/env bash
# Cloudict at one depth against Cloudict at another on the random 3-stone openings: what one more ply
# of the champion's own search is worth on the yardstick's openings (no Liuzi in these games).
#
# Usage: scripts/cloudict-cross-depth.sh DEEP SHALLOW [GAMES]   e.g. cloudict-cross-depth.sh 5 4 200
# Environment: SEED (random openings, default 1: the openings of scripts/cloudict-match.sh's), CONCURRENCY.
# Results: experiments/cloudict/cloudict-d<DEEP>-vs-d<SHALLOW>.jsonl and .txt; resumable.
set -euo pipefail
scripts="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$scripts/.." && pwd)"
# Results land in experiments/cloudict/.
here="$root/experiments/cloudict"
deep="${1:?usage: cross-depth.sh DEEP SHALLOW [GAMES]}"; shallow="${2:?usage: cross-depth.sh DEEP SHALLOW [GAMES]}"
games="${3:-200}"
name="cloudict-d$deep-vs-d$shallow"
work="$root/target/cloudict-runs"
(cd "$root" && cargo build --release --quiet -p liuzi-tools --bin liuzi-match)
target_dir="$(cd "$root" && cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')"
mkdir -p "$work/bin-$name" && cp "$target_dir/release/liuzi-match" "$work/bin-$name/"
# Each side runs in a build folder of its own: Cloudict writes engine.log where it runs, and two
# processes sharing a folder have crashed it.
for side in deep shallow; do
  [ -x "$work/$name-$side/gameEngine" ] || "$root/../shared/peers/cloudict/build.sh" "$work/$name-$side"
done
guard=""
if command -v setpriv >/dev/null && setpriv --pdeathsig KILL true 2>/dev/null; then
  guard="setpriv --pdeathsig KILL "
fi
results="$here/$name.jsonl"
source "$scripts/players.sh"
resume_flag "$results"
"$work/bin-$name/liuzi-match" \
  --engine "name=cloudict-d$deep proto=cloudict dir=$work/$name-deep cmd='$guard$work/$name-deep/gameEngine' init='depth $deep'" \
  --engine "name=cloudict-d$shallow proto=cloudict dir=$work/$name-shallow cmd='$guard$work/$name-shallow/gameEngine' init='depth $shallow'" \
  --games "$games" --random-openings --opening-turns 2 --seed "${SEED:-1}" --concurrency "${CONCURRENCY:-1}" \
  --results "$results" --engine-logs "$work/$name.logs" --event "$name" \
  "${resume[@]}" | tee "$here/$name.txt"
