// `node bench.mjs`: the search bench (`liuzi bench --threads 1`) in the WebAssembly build. It
// prints the same lines, ending with the same JSON line and signature as the native bench.
import { readFile } from 'node:fs/promises';
import init, { bench } from './pkg/liuzi_web.js';

const wasm = await readFile(new URL('./pkg/liuzi_web_bg.wasm', import.meta.url));
await init({ module_or_path: wasm });
process.stdout.write(bench());
