#!/bin/sh
# The Connect6 Bradley-Terry paper's experiment on our data (docs/patterns.md, the paper's line
# patterns): the paper's four action-evaluation functions and our features, each fitted on the
# same 95%/5% split by game (seed 1) for 20 MM iterations; learning curve per set in docs/,
# report and per-iteration figures in experiments/knowledge/.
# GAMES (default 10000) caps the games after the seeded shuffle: raw line patterns barely
# collapse into shared teams, so all 23,767 games of length-8 patterns would need ~4 GiB.
set -e
DATA=${DATA:-../shared/data}
GAMES=${GAMES:-10000}
SETS=${SETS:-"l6 l7 l8 l8l7 ours"}
cargo build --release -p liuzi-tools --bin liuzi-train
for set in $SETS; do
  name=$(echo "$set" | tr '+' '-')
  ./target/release/liuzi-train paper --set "$set" \
    --games "$DATA/littlegolem-experts.games" --games "$DATA/nebula-human.games" \
    --max-games "$GAMES" --seed 1 --test 0.05 --iterations 20 --threads "${THREADS:-2}" \
    --report "experiments/knowledge/paper-$name.json" --plot "docs/paper-$name.svg" \
    > "experiments/knowledge/paper-$name.txt"
done
