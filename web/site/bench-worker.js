// bench.html's worker: the search bench in the page's WebAssembly build.
import init, { bench } from './pkg/liuzi_web.js';

await init({ module_or_path: new URL('./pkg/liuzi_web_bg.wasm', import.meta.url) });
postMessage(bench());
