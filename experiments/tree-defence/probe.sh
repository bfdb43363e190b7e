#!/usr/bin/env bash
# One quiet position searched by the default and by variants, to see how a setting shapes the tree
# (playouts, nodes, the root's value) before spending a match on it: Black K10, White L11 K12,
# Black L10 M10, White to play both stones at 2 s a turn, one thread, no book.
# Usage: experiments/tree-defence/probe.sh [VARIANT...]   (default: the default engine alone)
# Prints each search's log line ("stone N white X: Searched, ... playouts ..., win ..%, nodes ...").
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
(cd "$root" && cargo build --release --quiet -p liuzi --bin liuzi)
liuzi="$root/target/release/liuzi"
for variant in default "$@"; do
  config=(--config "$root/engine-config/default.toml")
  [ "$variant" = default ] || config=(--config "$here/$variant.toml")
  echo "== $variant"
  # The pipe stays open while each genmove searches: the front-end stops a search when the next
  # command arrives.
  { printf 'boardsize 19\nclear_board\nplay b K10\nplay w L11\nplay w K12\nplay b L10\nplay b M10\n'
    printf 'time_settings 0 2 2\ngenmove w\n'; sleep 2.5; printf 'genmove w\n'; sleep 2; echo quit; } |
    "$liuzi" "${config[@]}" --weights "$root/engine-config/default.weights" \
      --evaluator "$root/engine-config/default.eval" --book none --threads 1 -v gtp 2>&1 |
    grep -o 'stone [0-9]* white .*' || true
done
