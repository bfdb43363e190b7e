#!/bin/sh
# Usage: mk.sh NAME 'key = value'...  writes NAME.toml: the settings of the baseline matches
# (experiments/baselines/match.toml: one thread, 0.45 s a stone, the engines keep their own clock, the
# shipped weights and evaluator) and the given [search] keys; every other key is the default.
name=$1; shift
{ echo "# Written by mk.sh: experiments/baselines/match.toml plus the [search] keys of this variant."
  echo "[engine]"; echo "threads = 1"; echo 'weights = "../../../engine-config/default.weights"'
  echo 'evaluator = "../../../engine-config/default.eval"'; echo
  echo "[time]"; echo "stone_seconds = 0.45"; echo "lag_margin_seconds = 0.05"; echo
  echo "[search]"
  for kv in "$@"; do echo "$kv"; done; } > "$name.toml"
