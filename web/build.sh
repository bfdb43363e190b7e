#!/usr/bin/env bash
# Builds Liuzi's web site into OUTDIR: index.html, the engine's WebAssembly, the JavaScript and
# bench.mjs. Serve OUTDIR with any static server (no network at run time). docs/web.md.
# Installs what it needs: the wasm32-unknown-unknown target and wasm-bindgen-cli at exactly the
# wasm-bindgen crate's version (cached under target/web-tools, reused by later builds).
set -euo pipefail
if [ $# -ne 1 ]; then
  echo "usage: web/build.sh OUTDIR" >&2
  exit 2
fi
mkdir -p "$1"
out="$(cd "$1" && pwd)"
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  rustup target add wasm32-unknown-unknown
fi

# The CLI must match the crate's version in Cargo.lock exactly.
version="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)"
tools="$root/target/web-tools"
bindgen=""
for candidate in "$tools/bin/wasm-bindgen" "$(command -v wasm-bindgen || true)"; do
  if [ -n "$candidate" ] && [ -x "$candidate" ] &&
    [ "$("$candidate" --version 2>/dev/null)" = "wasm-bindgen $version" ]; then
    bindgen="$candidate"
    break
  fi
done
if [ -z "$bindgen" ]; then
  echo "installing wasm-bindgen-cli $version into $tools" >&2
  # --locked first; a registry that lacks one of its locked dependencies gets a fresh resolve.
  cargo install --quiet --locked wasm-bindgen-cli --version "$version" --root "$tools" ||
    cargo install --quiet wasm-bindgen-cli --version "$version" --root "$tools"
  bindgen="$tools/bin/wasm-bindgen"
fi

cargo build --release -p liuzi-web --lib --target wasm32-unknown-unknown
"$bindgen" --target web --no-typescript --out-dir "$out/pkg" \
  target/wasm32-unknown-unknown/release/liuzi_web.wasm
cp web/site/* "$out/"
echo "site built in $out (serve it, e.g. python3 -m http.server -d $out; node $out/bench.mjs)" >&2
