# Shared by the match scripts of scripts/ and experiments/ (sourced, not run).

# freeze_players ROOT WORK: builds the release liuzi and liuzi-match of the repository at ROOT
# and copies them to WORK/bin, once, so that rebuilding during a long run does not change the
# players. Succeeds when it copied (the caller then freezes its own files beside them), fails
# when WORK/bin already held them.
freeze_players() {
  local root="$1" work="$2"
  mkdir -p "$work/bin"
  [ -x "$work/bin/liuzi" ] && return 1
  # Explicit exits: errexit does not apply inside a function called as an `if` condition.
  (cd "$root" && cargo build --release --quiet -p liuzi --bin liuzi -p liuzi-tools --bin liuzi-match) \
    || { echo "freeze_players: the build failed" >&2; exit 1; }
  cp "$root/target/release/liuzi" "$root/target/release/liuzi-match" "$work/bin/" || exit 1
}

# resume_flag RESULTS: sets the array `resume` to (--resume) when RESULTS already holds games.
resume_flag() {
  resume=()
  if [ -s "$1" ]; then resume=(--resume); echo "resuming $1"; fi
}

# opening_flags SEED: sets the array `openings` to liuzi-match's opening options: the first two
# turns (B, WW) of the games of the record file $OPENINGS, shuffled by SEED, when OPENINGS is
# set; random 3-stone openings seeded by SEED otherwise.
opening_flags() {
  if [ -n "${OPENINGS:-}" ]; then
    openings=(--openings "$OPENINGS" --opening-turns 2 --shuffle-openings --seed "$1")
  else
    openings=(--random-openings --opening-turns 2 --seed "$1")
  fi
}
