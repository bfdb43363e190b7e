#!/usr/bin/env bash
# The web board tested in a real browser (docs/web.md, the tests): builds the site, checks that
# the WebAssembly bench prints the native signature, then in headless Chromium plays a whole game
# by clicking (web/test/browser.mjs) and replays the exported records through the native
# engine's record reader. Screenshots and records go to target/web-test/. Where Chromium cannot
# be had, the browser part is skipped with a message saying so.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
site="$root/target/web-site"
artifacts="$root/target/web-test"
tools="$root/target/web-tools"
rm -rf "$artifacts"
mkdir -p "$artifacts"

web/build.sh "$site"

# Node.js runs the bench and drives the browser: Debian's where the machine has none.
if ! command -v node >/dev/null && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "web test: installing Debian's nodejs and npm" >&2
  { apt-get install -y -qq nodejs npm >/dev/null 2>&1 ||
    { apt-get update -qq && apt-get install -y -qq nodejs npm >/dev/null; }; } || true
fi
if ! command -v node >/dev/null; then
  echo "web test: SKIPPED the wasm bench and the browser test: no Node.js here (install nodejs)" >&2
  exit 0
fi

# The same engine: the wasm bench prints the native bench's signature.
echo "web test: node bench.mjs (the search bench in WebAssembly)" >&2
node "$site/bench.mjs" | tee "$artifacts/bench.txt" | tail -1
expected="$(tr -d '[:space:]' < src/bench/search.signature)"
if ! tail -1 "$artifacts/bench.txt" | grep -q "\"signature\":\"$expected\""; then
  echo "web test: FAILED: the wasm bench's signature is not $expected" >&2
  exit 1
fi

# Chromium: Debian's package (browser downloads are not possible here).
chromium="$(command -v chromium || command -v chromium-browser || true)"
if [ -z "$chromium" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "web test: installing Debian's chromium" >&2
  { apt-get install -y -qq chromium >/dev/null 2>&1 ||
    { apt-get update -qq && apt-get install -y -qq chromium >/dev/null; }; } || true
  chromium="$(command -v chromium || true)"
fi
if [ -z "$chromium" ]; then
  echo "web test: SKIPPED the browser test: no Chromium here (install Debian's chromium)" >&2
  exit 0
fi

# Playwright's driver without its browser download, cached beside the other web tools.
playwright_version="1.64.1"
if [ ! -f "$tools/node/node_modules/playwright-core/package.json" ] ||
  ! grep -q "\"version\": \"$playwright_version\"" "$tools/node/node_modules/playwright-core/package.json"; then
  mkdir -p "$tools/node"
  npm install --silent --no-audit --no-fund --prefix "$tools/node" "playwright-core@$playwright_version"
fi
export NODE_PATH="$tools/node/node_modules"
ln -sfn "$tools/node/node_modules" "$root/web/test/node_modules"

node web/test/serve.mjs "$site" 0 > "$artifacts/server.txt" &
server=$!
trap 'kill $server 2>/dev/null || true; rm -f "$root/web/test/node_modules"' EXIT
for _ in $(seq 50); do
  grep -q listening "$artifacts/server.txt" && break
  sleep 0.1
done
port="$(awk '/listening/ { print $2 }' "$artifacts/server.txt")"
node web/test/browser.mjs "http://127.0.0.1:$port/" "$artifacts" "$chromium"

# The native engine reads each exported record and writes it back as the page's SGF.
cargo build --quiet --bin liuzi
for record in game.sgf game.games game.txt; do
  reply="$(printf 'loadsgf %s\nprintsgf\ngogui-rules_final_result\nquit\n' "$artifacts/$record" |
    target/debug/liuzi 2>/dev/null)"
  native_sgf="$(printf '%s\n' "$reply" | sed -n '/^= (/,/^$/p' | sed 's/^= //' | sed '/^$/d')"
  if [ "$native_sgf" != "$(sed '/^$/d' "$artifacts/game.sgf")" ]; then
    echo "web test: FAILED: the native engine read $record as another game:" >&2
    printf '%s\n' "$reply" >&2
    exit 1
  fi
done
echo "web test: passed (artifacts in $artifacts)" >&2
