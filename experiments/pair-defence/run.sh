#!/usr/bin/env bash
# The pair defence by proof zones against the search one first stone at a time, on the positions
# of positions.tsv: `tactics-audit --position STONES --pairs` on each, both searches stopping at
# the first defending pair or after SECONDS.
# Usage: experiments/pair-defence/run.sh SECONDS VERIFY_NODES OUT
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
seconds="${1:?usage: run.sh SECONDS VERIFY_NODES OUT}"; verify="${2:?}"; out="${3:?}"
(cd "$root" && cargo build --release --quiet -p liuzi-tools --bin tactics-audit)
: > "$out"
while IFS=$'\t' read -r run game turn who moves pair; do
  answer=$("$root/target/release/tactics-audit" --position "$moves" --pairs \
    --verify-nodes "$verify" --nodes 100000 --pair-time "$seconds" | tr '\n' '|')
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$run" "$game" "$turn" "$who" "$pair" "$answer" >> "$out"
done < "$here/positions.tsv"
