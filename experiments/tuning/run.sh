#!/bin/sh
# Usage: run.sh OUT A_CFG B_CFG GAMES PLAYOUTS [liuzi-match flags...]
# A fixed-playout tuning match between two override files of this directory (1 thread, seed 7),
# random 3-turn openings near the centre, colour-swapped pairs. Run from experiments/tuning.
out=$1; a=$2; b=$3; games=$4; p=$5; shift 5
L=../../target/release/liuzi
exec ../../target/release/liuzi-match \
  --engine "name=$a dir=. cmd='$L gtp --config $a.toml --threads 1 --playouts $p --seed 7'" \
  --engine "name=$b dir=. cmd='$L gtp --config $b.toml --threads 1 --playouts $p --seed 7'" \
  --games "$games" --random-openings --seed 11 --results "$out.jsonl" "$@"
