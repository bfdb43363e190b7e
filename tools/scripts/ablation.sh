#!/usr/bin/env bash
# Drop-one feature ablation of the Bradley-Terry move model on a seeded subset of the expert games.
# Prints a Markdown table of validation figures (needs jq). From the repository root:
#   cargo build --release -p liuzi-tools && tools/scripts/ablation.sh
# Env: DATA (default ../shared/data), GAMES (subset size, default 5000), SWEEPS (default 20),
#      OUT (default target/ablation), THREADS (default 2).
set -euo pipefail
DATA=${DATA:-../shared/data}
GAMES=${GAMES:-5000}
SWEEPS=${SWEEPS:-20}
OUT=${OUT:-target/ablation}
THREADS=${THREADS:-2}
ALL=own4,opp4,nearest,edge,stage,lastopp,tactic,cross
mkdir -p "$OUT"

run() {
    local name=$1 groups=$2
    target/release/liuzi-train train \
        --games "$DATA/littlegolem-experts.games" --games "$DATA/nebula-human.games" \
        --max-games "$GAMES" --max-sweeps "$SWEEPS" --threads "$THREADS" --seed 1 \
        --groups "$groups" --tree-lines 0 --out "$OUT/$name.weights" > "$OUT/$name.log" 2>&1
    jq -r --arg n "$name" '"| \($n) | \(.final_validation.mean_log_evidence*10000|round/10000) | \(.final_validation.top1*1000|round/10) | \(.final_validation.top5*1000|round/10) | \(.final_train.mean_log_evidence*10000|round/10000) | \(.sweeps|length) |"' \
        "$OUT/$name.weights.report.json"
}

echo "| model | validation mean log-evidence | top-1 % | top-5 % | training mean log-likelihood | iterations |"
echo "|---|---|---|---|---|---|"
run all "$ALL"
jq -r '"| uniform | \(.uniform_validation.mean_log_evidence*10000|round/10000) | \(.uniform_validation.top1*1000|round/10) | \(.uniform_validation.top5*1000|round/10) | | |"' "$OUT/all.weights.report.json"
for g in ${ALL//,/ }; do
    run "without-$g" "$(echo "$ALL" | tr ',' '\n' | grep -vx "$g" | paste -sd,)"
done
