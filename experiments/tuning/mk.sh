#!/bin/sh
# Usage: mk.sh NAME 'key = value'...  writes NAME.toml: one thread, the shipped knowledge, and
# the given [search] keys.
name=$1; shift
{ echo "[engine]"; echo "threads = 1"; echo 'weights = "../../engine-config/default.weights"'
  echo 'evaluator = "../../engine-config/default.eval"'; echo; echo "[search]"
  for kv in "$@"; do echo "$kv"; done; } > "$name.toml"
