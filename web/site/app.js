// The web board: draws the game, takes the human's clicks, and asks the engine's worker for
// stones and analysis. The rules live in the engine: the page only asks and shows.
const COLUMNS = 'ABCDEFGHJKLMNOPQRSTUVWXYZ';
const CELL = 30;
const $ = (id) => document.getElementById(id);

let game = { size: 19, stones: [], toMove: 'B', stoneOfTurn: 1, over: false, result: '', winningSix: [] };
let overlay = null; // { children, pv, prior } of the search being shown
let busy = false;
let restarting = false; // Stop without shared memory: a new worker is taking over the game
let lastProgress = null;
let worker = null;
let nextId = 1;
const pending = new Map();
// A stop flag shared with the worker where the page is cross-origin isolated; else Stop ends
// the worker and starts a new one (docs/web.md, stopping).
const stopBuffer = self.crossOriginIsolated ? new SharedArrayBuffer(4) : null;
const stopFlag = stopBuffer ? new Int32Array(stopBuffer) : null;

const colorOfStone = (n) => (n === 0 ? 'B' : Math.floor((n - 1) / 2) % 2 === 0 ? 'W' : 'B');
const turnOfStone = (n) => (n === 0 ? 0 : Math.floor((n - 1) / 2) + 1);
const vertex = (col, row) => COLUMNS[col] + (row + 1);
const parseVertex = (v) => ({ col: COLUMNS.indexOf(v[0]), row: parseInt(v.slice(1), 10) - 1 });
const player = (color) => $(color === 'B' ? 'black-player' : 'white-player').value;

function settings() {
  const playouts = Math.max(0, Math.floor(Number($('playouts').value) || 0));
  const stoneMs = Math.max(100, Math.round((Number($('stone-seconds').value) || 2) * 1000));
  return { seed: 0, treeMb: 0, playouts, stoneMs };
}

function startWorker() {
  worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  worker.onmessage = ({ data }) => {
    const entry = pending.get(data.id);
    if (!entry) return;
    if (data.progress) { entry.onProgress?.(data.progress); return; }
    pending.delete(data.id);
    if (data.state) game = data.state;
    data.ok ? entry.resolve(data.value) : entry.reject(new Error(data.error));
  };
  return request('init', { size: game.size, ...settings(), stopBuffer });
}

function request(cmd, args = {}, onProgress = null) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject, onProgress });
    worker.postMessage({ id, cmd, args });
  });
}

function say(text) { $('message').textContent = text || ''; }

// ---- drawing ----------------------------------------------------------------------------

const SVG = 'http://www.w3.org/2000/svg';
function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  parent?.appendChild(e);
  return e;
}
const px = (col) => (col + 1) * CELL;
const py = (row) => (game.size - row) * CELL;

function draw() {
  const n = game.size;
  const side = (n + 1) * CELL;
  const svg = el('svg', { viewBox: `0 0 ${side} ${side}`, role: 'img' });
  el('rect', { x: 0, y: 0, width: side, height: side, fill: '#dcb35c' }, svg);
  const grid = el('g', { stroke: '#333', 'stroke-width': 1 }, svg);
  for (let i = 0; i < n; i++) {
    el('line', { x1: px(0), y1: py(i), x2: px(n - 1), y2: py(i) }, grid);
    el('line', { x1: px(i), y1: py(0), x2: px(i), y2: py(n - 1) }, grid);
    const label = { 'font-size': 9, fill: '#333', 'text-anchor': 'middle' };
    el('text', { ...label, x: px(i), y: CELL * 0.45 }, svg).textContent = COLUMNS[i];
    el('text', { ...label, x: CELL * 0.4, y: py(i) + 3 }, svg).textContent = i + 1;
  }
  if (n >= 13) {
    const e = n >= 17 ? 3 : 2, m = (n - 1) / 2;
    for (const c of [e, m, n - 1 - e]) for (const r of [e, m, n - 1 - e]) {
      if (Number.isInteger(c) && Number.isInteger(r)) el('circle', { cx: px(c), cy: py(r), r: 3, fill: '#333' }, svg);
    }
  }
  drawOverlay(svg);
  const lastTurn = game.stones.length ? turnOfStone(game.stones.length - 1) : -1;
  const six = new Set(game.winningSix);
  const stones = el('g', { class: 'stones' }, svg);
  game.stones.forEach((v, i) => {
    const { col, row } = parseVertex(v);
    const color = colorOfStone(i);
    const g = el('g', { class: 'stone', 'data-vertex': v, 'data-color': color }, stones);
    el('circle', { cx: px(col), cy: py(row), r: CELL * 0.46, fill: color === 'B' ? '#111' : '#fafafa', stroke: '#000', 'stroke-width': 1 }, g);
    if (turnOfStone(i) === lastTurn) {
      el('circle', { class: 'last', cx: px(col), cy: py(row), r: CELL * 0.13, fill: '#e33' }, g);
    }
    if (six.has(v)) {
      el('circle', { class: 'six', cx: px(col), cy: py(row), r: CELL * 0.5, fill: 'none', stroke: '#e33', 'stroke-width': 3 }, g);
    }
  });
  // Click targets on every point, on top.
  const targets = el('g', { class: 'points' }, svg);
  for (let c = 0; c < n; c++) for (let r = 0; r < n; r++) {
    const t = el('rect', { x: px(c) - CELL / 2, y: py(r) - CELL / 2, width: CELL, height: CELL, fill: 'transparent', 'data-vertex': vertex(c, r) }, targets);
    t.addEventListener('click', () => humanPlays(vertex(c, r)));
  }
  $('board').replaceChildren(svg);
  drawStatus();
}

function drawOverlay(svg) {
  if (!overlay) return;
  const mode = $('heat').value;
  const heat = el('g', { class: 'heat' }, svg);
  let cells = [];
  if (mode === 'visits' && overlay.children?.length) {
    const total = overlay.children.reduce((s, c) => s + c.visits, 0) || 1;
    cells = overlay.children.map((c) => [c.stone, c.visits / total]);
  } else if (mode === 'prior') {
    cells = overlay.prior || (overlay.children || []).map((c) => [c.stone, c.prior]);
  }
  const top = Math.max(1e-9, ...cells.map((c) => c[1]));
  for (const [v, share] of cells) {
    if (share <= 0 || game.stones.includes(v)) continue;
    const { col, row } = parseVertex(v);
    const s = Math.sqrt(share / top);
    el('circle', { cx: px(col), cy: py(row), r: CELL * (0.12 + 0.33 * s), fill: `rgba(220,30,30,${0.25 + 0.6 * s})`, 'data-vertex': v }, heat);
  }
  const pv = el('g', { class: 'pv' }, svg);
  (overlay.pv || []).slice(0, 8).forEach((v, i) => {
    if (game.stones.includes(v)) return;
    const { col, row } = parseVertex(v);
    const color = colorOfStone(game.stones.length + i);
    el('circle', { cx: px(col), cy: py(row), r: CELL * 0.42, fill: color === 'B' ? 'rgba(0,0,0,0.55)' : 'rgba(255,255,255,0.7)', stroke: '#333' }, pv);
    el('text', { x: px(col), y: py(row) + 5, 'text-anchor': 'middle', 'font-size': 14, 'font-weight': 700, fill: color === 'B' ? '#fff' : '#000' }, pv).textContent = i + 1;
  });
}

function drawStatus() {
  const s = $('status');
  s.dataset.toMove = game.toMove;
  s.dataset.stoneOfTurn = game.stoneOfTurn;
  s.dataset.over = game.over;
  s.dataset.result = game.result;
  s.dataset.busy = busy;
  const name = game.toMove === 'B' ? 'Black' : 'White';
  if (game.over) {
    const text = game.result === 'Draw' ? 'Draw: the board is full'
      : `${game.result === 'B+' ? 'Black' : 'White'} wins with six in a row`;
    s.innerHTML = `<span id="result">${text}</span>`;
    return;
  }
  const stones = game.stones.length === 0 ? 'opening stone (one stone)'
    : `stone ${game.stoneOfTurn} of 2`;
  const who = player(game.toMove) === 'engine' ? (busy ? 'Liuzi is thinking…' : 'Liuzi') : 'your move';
  s.innerHTML = `<span class="dot ${game.toMove}"></span> ${name} to play, ${stones} — ${who}`;
}

function showAnalysis(a, playouts) {
  overlay = a;
  const best = (a?.children || []).reduce((b, c) => (!b || c.visits > b.visits ? c : b), null);
  const text = [];
  if (best && best.winRate !== null && best.winRate !== undefined) {
    // The win rate is the side to move's at the searched position.
    const mover = a.mover || game.toMove;
    const black = mover === 'B' ? best.winRate : 1 - best.winRate;
    $('winrate-black').style.width = `${(black * 100).toFixed(1)}%`;
    text.push(`Black ${(black * 100).toFixed(1)}% · White ${((1 - black) * 100).toFixed(1)}%`);
  }
  if (playouts !== undefined) text.push(`${playouts.toLocaleString('en')} playouts`);
  if (a?.pv?.length) text.push(`best line ${a.pv.slice(0, 8).join(' ')}`);
  else if (best) text.push(`best ${best.stone}`);
  $('analysis-text').textContent = text.join('\n');
  draw();
}

// ---- play -------------------------------------------------------------------------------

async function humanPlays(v) {
  if (busy || game.over || player(game.toMove) !== 'human') return;
  try {
    await request('play', { vertex: v });
    say('');
    overlay = null;
    draw();
    await continueGame();
  } catch (e) {
    say(`${v}: ${e.message}`);
    draw();
  }
}

let searching = null; // 'think' or 'analyse' while a search runs
async function search(cmd) {
  busy = true;
  searching = cmd;
  lastProgress = null;
  const mover = game.toMove;
  $('stop').disabled = false;
  drawStatus();
  try {
    const r = await request(cmd, {}, (p) => {
      lastProgress = p;
      showAnalysis({ children: p.children, mover }, p.playouts);
    });
    return r;
  } finally {
    busy = restarting;
    $('stop').disabled = true;
  }
}

async function continueGame() {
  while (!game.over && !busy && player(game.toMove) === 'engine') {
    const mover = game.toMove;
    let r;
    try {
      r = await search('think');
    } catch (e) {
      // 'stopped': stop() restarts the worker, plays the stone and continues the game.
      if (e.message !== 'stopped') say(e.message);
      return;
    }
    if (r?.analysis) showAnalysis({ ...r.analysis, mover }, lastProgress?.playouts);
    else draw();
  }
  draw();
}

async function stop() {
  if (!busy) return;
  if (stopFlag) { Atomics.store(stopFlag, 0, 1); return; }
  // No shared memory: end the worker, start another on the same game, play the best stone so far.
  const best = (lastProgress?.children || []).reduce((b, c) => (!b || c.visits > b.visits ? c : b), null);
  const stones = game.stones.slice();
  restarting = true;
  worker.terminate();
  for (const [, entry] of pending) entry.reject(new Error('stopped'));
  pending.clear();
  await startWorker();
  for (const v of stones) await request('play', { vertex: v });
  if (best && searching === 'think') await request('play', { vertex: best.stone });
  restarting = false;
  busy = false;
  draw();
  continueGame();
}

async function newGame() {
  if (busy) await stop();
  await request('newGame', { size: Number($('size').value) });
  overlay = null;
  $('analysis-text').textContent = '';
  $('winrate-black').style.width = '50%';
  say('');
  draw();
  continueGame();
}

async function undo() {
  if (busy) return;
  const bothHuman = player('B') === 'human' && player('W') === 'human';
  let undone = 0;
  // Back to the start of a human turn (taking the engine's reply with it).
  while (game.stones.length > 0) {
    await request('undo');
    undone++;
    if (bothHuman || (player(game.toMove) === 'human' && (game.stoneOfTurn === 1 || game.stones.length === 0))) break;
  }
  overlay = null;
  say(undone ? '' : 'nothing to undo');
  draw();
  if (player(game.toMove) === 'engine') continueGame();
}

async function analyse() {
  if (busy || game.over) return;
  const mover = game.toMove;
  try {
    const r = await search('analyse');
    showAnalysis({ ...r.analysis, mover }, lastProgress?.playouts);
  } catch (e) {
    if (e.message !== 'stopped') say(e.message);
  }
}

async function applySettings() {
  if (!busy) await request('configure', settings());
}

async function exportRecord(format) {
  const text = await request('export', { format });
  $('record').value = text;
  const a = $('download');
  a.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  a.download = `liuzi.${format === 'ccgc' ? 'txt' : format}`;
  a.hidden = false;
  a.textContent = `download ${a.download}`;
}

async function importRecord(text) {
  if (busy) return;
  try {
    await request('import', { text });
    $('size').value = game.size;
    overlay = null;
    say('');
    draw();
  } catch (e) {
    say(`import: ${e.message}`);
  }
}

async function showPrior() {
  if (busy || $('heat').value !== 'prior' || game.over) return draw();
  const prior = await request('policy');
  overlay = { prior, pv: [] };
  draw();
}

// ---- start ------------------------------------------------------------------------------

for (let n = 6; n <= 25; n++) {
  const o = document.createElement('option');
  o.value = n; o.textContent = `${n}×${n}`; o.selected = n === 19;
  $('size').appendChild(o);
}
$('new-game').onclick = newGame;
$('undo').onclick = undo;
$('stop').onclick = stop;
$('analyse').onclick = analyse;
$('heat').onchange = showPrior;
$('stone-seconds').onchange = applySettings;
$('playouts').onchange = applySettings;
for (const p of ['black-player', 'white-player']) $(p).onchange = () => { draw(); continueGame(); };
for (const b of document.querySelectorAll('[data-export]')) b.onclick = () => exportRecord(b.dataset.export);
$('import').onclick = () => importRecord($('record').value);
$('record-file').onchange = async (e) => { const f = e.target.files[0]; if (f) importRecord(await f.text()); };

draw();
startWorker().then(() => { document.body.dataset.ready = 'true'; draw(); continueGame(); })
  .catch((e) => say(`the engine did not start: ${e.message}`));
