#!/bin/sh
# Usage: run.sh OUT A B GAMES SEED [liuzi-match flags...]
# An equal-time match (0.45 s a stone, one thread each) between two variants A and B of this
# directory (A.toml, B.toml; "alphabeta" = default.toml with --search alphabeta), colour-swapped
# pairs on random 3-turn openings near the centre, one game at a time. Run from
# experiments/tuning/strength; engine stderr goes to OUT.logs/.
out=$1; a=$2; b=$3; games=$4; seed=$5; shift 5
# LIUZI: the engine binary (default: the release build; a copy lets you rebuild meanwhile).
L=${LIUZI:-../../../target/release/liuzi}
cmd() { if [ "$1" = alphabeta ]; then echo "$L gtp -v --config default.toml --search alphabeta"
        else echo "$L gtp -v --config $1.toml"; fi; }
exec ../../../target/release/liuzi-match \
  --engine "name=$a dir=. cmd='$(cmd $a)'" \
  --engine "name=$b dir=. cmd='$(cmd $b)'" \
  --games "$games" --random-openings --seed "$seed" --concurrency 1 \
  --results "$out.jsonl" --engine-logs "$out.logs" "$@"
