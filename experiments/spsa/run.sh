#!/usr/bin/env bash
# SPSA tuning runs of liuzi-tune (docs/README-match.md, "Tuning by SPSA"), resumable: rerun the
# same command to go on from the state file's last iteration.
#
# Usage: experiments/spsa/run.sh SPEC [ITERATIONS]
#   SPEC        a spec of this folder without .toml, e.g. cloudict-d4 (its name says the opponent)
#   ITERATIONS  iterations to play in this run (default: to the spec's planned number)
# SPEC names starting with `cloudict-d4` play against Cloudict depth 4 as the reference (four
# games an iteration, paired by opening and colour), others the engine against itself.
# Liuzi: one thread, 1 s a turn (`time_settings 0 1 2`); Cloudict untimed, as in
# experiments/cloudict/run.sh. State: experiments/spsa/SPEC.jsonl.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
spec="${1:?usage: run.sh SPEC [ITERATIONS]}"
iterations=()
[ -n "${2:-}" ] && iterations=(--iterations "$2")
work="$root/target/spsa-runs/$spec"
mkdir -p "$work"

# Frozen copies of the players, so that rebuilding during a run does not change them.
(cd "$root" && cargo build --release --quiet -p liuzi --bin liuzi -p liuzi-tools --bin liuzi-tune)
target_dir="$(cd "$root" && cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')"
# The engine and its configuration are frozen at the first start (the engine finds
# engine-config/ in its working directory, $work); the tuner is today's.
if [ ! -x "$work/liuzi" ]; then
  cp "$target_dir/release/liuzi" "$work/"
  cp -r "$root/engine-config" "$work/"
fi
cp "$target_dir/release/liuzi-tune" "$work/"

reference=()
case "$spec" in
  cloudict-d4*)
    cloudict="$root/target/cloudict-runs/cloudict"
    [ -x "$cloudict/gameEngine" ] || "$root/../shared/peers/cloudict/build.sh" "$cloudict"
    reference=(--reference "name=cloudict-d4 proto=cloudict dir=$cloudict cmd=$cloudict/gameEngine init='depth 4'") ;;
esac

cd "$work"
exec "$work/liuzi-tune" --spec "$here/$spec.toml" \
  --engine "name=liuzi cmd='$work/liuzi gtp --threads 1' st=1" "${reference[@]}" \
  --state "$here/$spec.jsonl" --work "$work/configs" --engine-logs "$work/logs" "${iterations[@]}"
