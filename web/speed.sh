#!/usr/bin/env bash
# Browser against native speed, side by side in one run (a benchmark, not a test): the search
# bench (`liuzi bench --threads 1`, 8 positions x 5,000 playouts) natively, then in headless
# Chromium (the built site's bench.html, the engine in a Web Worker), then natively again; prints
# both JSON lines and the ratio of playouts/s (browser / the mean of the two native runs).
# Needs Chromium and playwright-core (web/test.sh installs them).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
site="$root/target/web-site"
tools="$root/target/web-tools"
[ -f "$site/bench.html" ] || web/build.sh "$site"
cargo build --quiet --release --bin liuzi
chromium="$(command -v chromium || command -v chromium-browser)"
export NODE_PATH="$tools/node/node_modules"
ln -sfn "$tools/node/node_modules" "$root/web/test/node_modules"
node web/test/serve.mjs "$site" 0 > "$root/target/web-speed-server.txt" &
server=$!
trap 'kill $server 2>/dev/null || true; rm -f "$root/web/test/node_modules"' EXIT
for _ in $(seq 50); do grep -q listening "$root/target/web-speed-server.txt" && break; sleep 0.1; done
port="$(awk '/listening/ { print $2 }' "$root/target/web-speed-server.txt")"

native1="$(target/release/liuzi bench --threads 1 2>/dev/null | tail -1)"
browser="$(node web/test/speed.mjs "http://127.0.0.1:$port/bench.html" "$chromium")"
native2="$(target/release/liuzi bench --threads 1 2>/dev/null | tail -1)"
echo "native:  $native1"
echo "browser: $browser"
echo "native:  $native2"
node -e '
const [a, b, c] = process.argv.slice(1).map((l) => JSON.parse(l));
const native = (a.playouts_per_second + c.playouts_per_second) / 2;
console.log(`browser ${b.playouts_per_second.toFixed(0)} playouts/s, native one thread ${native.toFixed(0)}: ` +
  `${(b.playouts_per_second / native).toFixed(2)}x; signatures ${a.signature} ${b.signature} ${c.signature}`);
' "$native1" "$browser" "$native2"
