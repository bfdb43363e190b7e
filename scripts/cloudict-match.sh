#!/usr/bin/env bash
# Liuzi against the real Cloudict (Olympiad gold 2009/2011) at equal per-turn time: the matches of
# docs/results.md. Builds everything it needs, and resumes where an interrupted run stopped.
#
# Usage: scripts/cloudict-match.sh d4|d5|d6 [GAMES] [-- liuzi-match flags...]
#   d4  Cloudict depth 4, Liuzi 1 s a turn (default 200 games)
#   d5  Cloudict depth 5, Liuzi 4 s a turn (default 100 games)
#   d6  Cloudict depth 6 (its default and Olympiad setting, ~30 s a turn), Liuzi 1 s a turn
#       (default 40 games; ~8 minutes a game, nearly all Cloudict's; it has no clock, so its
#       moves are bounded only by liuzi-match's --untimed-turn, 600 s)
# Environment:
#   LIUZI_ARGS  extra engine options, e.g. "--search alphabeta" (then also set TAG)
#   VARIANT     a config file with the keys that change (e.g. experiments/tree-defence/X.toml),
#               played instead of engine-config/default.toml (then also set TAG)
#   TAG         suffix of the result names (default: none), e.g. TAG=alphabeta
#   SEED        seed of the random openings (default 1)
#   CONCURRENCY games at a time (default 1; each game keeps about one core busy)
#   TURN        Liuzi's seconds a turn instead of the match's (then also set TAG), e.g. TURN=4
#               against depth 4 to see what more time alone is worth
#   OPENINGS    "random" (default: random 3-stone openings near the centre, seeded by SEED),
#               "empty" (every game from the empty board: the engines' own first turns), or a
#               record file whose first OPENING_TURNS turns (default 2: B, WW) open the games,
#               shuffled by SEED (then also set TAG)
#
# Results: experiments/cloudict/<match>.jsonl (one game a line; rerun the same command to resume)
# and <match>.txt (the report). Engine logs: target/cloudict-runs/<match>.logs/.
set -euo pipefail
scripts="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$scripts/.." && pwd)"
# Results land in experiments/cloudict/.
here="$root/experiments/cloudict"
match="${1:?usage: scripts/cloudict-match.sh d4|d5|d6 [GAMES] [-- liuzi-match flags]}"; shift
case "$match" in
  d4) depth=4; turn=1; games=200 ;;
  d5) depth=5; turn=4; games=100 ;;
  d6) depth=6; turn=1; games=40 ;;
  *) echo "cloudict-match.sh: unknown match '$match' (d4, d5 or d6)" >&2; exit 2 ;;
esac
turn="${TURN:-$turn}"
if [ $# -gt 0 ] && [ "$1" != "--" ]; then games=$1; shift; fi
[ "${1:-}" = "--" ] && shift
name="liuzi-vs-cloudict-$match${TAG:+-$TAG}"
work="$root/target/cloudict-runs"
# Each run has its own copy of the players, so that two runs can go side by side.
bin="$work/bin-$name"
mkdir -p "$bin"

# Release binaries, copied so that rebuilding during a long run does not change the players.
(cd "$root" && cargo build --release --quiet -p liuzi --bin liuzi -p liuzi-tools --bin liuzi-match)
target_dir="$(cd "$root" && cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')"
cp "$target_dir/release/liuzi" "$target_dir/release/liuzi-match" "$bin/"
# The config too (with the files it names), so that editing it during a run changes nothing.
cp "$root"/engine-config/default.{toml,weights,eval,book} "$bin/"
config="$bin/default.toml"
if [ -n "${VARIANT:-}" ]; then
  config="$bin/$name.toml"
  cp "$VARIANT" "$config"
fi

# Cloudict, from ../shared beside the repository; it runs in its build folder (patterns.in is
# read there, engine.log written there).
cloudict="$work/cloudict"
if [ ! -x "$cloudict/gameEngine" ]; then
  "$root/../shared/peers/cloudict/build.sh" "$cloudict"
fi
# Cloudict spins at 100% CPU when its input closes: if the runner is killed outright (kill -9),
# have the kernel end it too (Linux; elsewhere Ctrl-C / SIGTERM still stop it cleanly).
guard=""
if command -v setpriv >/dev/null && setpriv --pdeathsig KILL true 2>/dev/null; then
  guard="setpriv --pdeathsig KILL "
fi

case "${OPENINGS:-random}" in
  random) openings=(--random-openings --opening-turns 2 --seed "${SEED:-1}") ;;
  empty) openings=() ;;
  *) openings=(--openings "$OPENINGS" --opening-turns "${OPENING_TURNS:-2}" --shuffle-openings --seed "${SEED:-1}") ;;
esac

results="$here/$name.jsonl"
source "$scripts/players.sh"
resume_flag "$results"
"$bin/liuzi-match" \
  --engine "name=liuzi st=$turn cmd='$bin/liuzi --config $config gtp --threads 1 -v ${LIUZI_ARGS:-}'" \
  --engine "name=cloudict-d$depth proto=cloudict dir=$cloudict cmd='$guard$cloudict/gameEngine' init='depth $depth'" \
  --games "$games" "${openings[@]}" --concurrency "${CONCURRENCY:-1}" \
  --results "$results" --engine-logs "$work/$name.logs" --event "$name" \
  "${resume[@]}" "$@" | tee "$here/$name.txt"
