// The engine's Web Worker: owns one Liuzi (the wasm build of the engine) and answers the page's
// requests one at a time, so the page never waits on a search. Protocol: docs/web.md.
import init, { Liuzi } from './pkg/liuzi_web.js';

let engine = null;
// Raised by the page through a SharedArrayBuffer when the page is cross-origin isolated;
// otherwise the page stops a search by ending this worker (docs/web.md, stopping).
let stopFlag = null;

const stopRequested = () => stopFlag !== null && Atomics.load(stopFlag, 0) === 1;

function reply(id, value) {
  postMessage({ id, ok: true, value, state: engine ? JSON.parse(engine.state()) : null });
}

function progress(id) {
  return (json) => postMessage({ id, progress: JSON.parse(json) });
}

const handlers = {
  async init({ size, seed, treeMb, playouts, stoneMs, stopBuffer }) {
    await init({ module_or_path: new URL('./pkg/liuzi_web_bg.wasm', import.meta.url) });
    stopFlag = stopBuffer ? new Int32Array(stopBuffer) : null;
    engine = new Liuzi(size, seed, treeMb, playouts, stoneMs);
    return null;
  },
  configure({ seed, treeMb, playouts, stoneMs }) {
    engine.configure(seed, treeMb, playouts, stoneMs);
    return null;
  },
  newGame({ size }) { engine.newGame(size); return null; },
  play({ vertex }) { engine.play(vertex); return null; },
  undo() { return engine.undo(); },
  state() { return null; },
  // The engine's stone for the side to move, played; progress reports while it searches.
  think(_, id) {
    if (stopFlag) Atomics.store(stopFlag, 0, 0);
    const stone = engine.think(progress(id), stopRequested);
    return { stone, analysis: JSON.parse(engine.analysis()) };
  },
  // Analysis on demand: a search of the position that plays nothing.
  analyse(_, id) {
    if (stopFlag) Atomics.store(stopFlag, 0, 0);
    engine.analyse(progress(id), stopRequested);
    return { analysis: JSON.parse(engine.analysis()) };
  },
  policy() { return JSON.parse(engine.policy()); },
  export({ format }) { return engine.export(format); },
  import({ text }) { engine.import(text); return null; },
};

let queue = Promise.resolve();
onmessage = (event) => {
  const { id, cmd, args } = event.data;
  queue = queue.then(async () => {
    try {
      const handler = handlers[cmd];
      if (!handler) throw new Error(`unknown command ${cmd}`);
      reply(id, await handler(args || {}, id));
    } catch (e) {
      postMessage({ id, ok: false, error: String(e && e.message ? e.message : e),
                    state: engine ? JSON.parse(engine.state()) : null });
    }
  });
};
