// The web board in headless Chromium (run by web/test.sh): a whole game against the engine by
// clicking, the turn order, illegal clicks refused, the analysis overlay while the engine
// thinks, the result, and the exported records (written to ARTIFACTS for the native replay).
// Usage: node browser.mjs URL ARTIFACTS CHROMIUM
import { chromium } from 'playwright-core';
import { writeFile } from 'node:fs/promises';
import assert from 'node:assert/strict';

const [url, artifacts, executablePath] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const page = await browser.newPage({ viewport: { width: 900, height: 1000 } });
const errors = [];
page.on('pageerror', (e) => errors.push(String(e)));
page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
page.setDefaultTimeout(60_000);

const status = () => page.locator('#status').evaluate((s) => ({ ...s.dataset }));
const stoneCount = () => page.locator('#board .stone').count();
const click = (v) => page.locator(`#board .points [data-vertex="${v}"]`).click();
const shot = (name) => page.screenshot({ path: `${artifacts}/${name}.png` });
const step = (text) => console.error(`browser test: ${text}`);

await page.goto(url);
await page.waitForSelector('body[data-ready="true"]');
await page.selectOption('#black-player', 'human');
await page.selectOption('#white-player', 'engine');

// Black opens with one stone; then White has two, shown as stone 1 and 2 of the turn.
let s = await status();
assert.equal(s.toMove, 'B');
assert.equal(await page.locator('#status').innerText().then((t) => /one stone/.test(t)), true);

// Analysis while the engine thinks: the heat map appears during an on-demand search.
step('analysis overlay');
await page.fill('#stone-seconds', '2');
await page.fill('#playouts', '0');
await page.locator('#playouts').dispatchEvent('change');
await page.click('#analyse');
await page.waitForSelector('#status[data-busy="true"]');
await page.waitForSelector('#board .heat circle', { timeout: 10_000 });
assert.equal((await status()).busy, 'true', 'the overlay showed while the engine was thinking');
assert.match(await page.locator('#analysis-text').innerText(), /playouts/);
await shot('analysis');
await page.waitForSelector('#status[data-busy="false"]');
assert.equal(await stoneCount(), 0, 'analysis plays no stone');

// A game at small playouts: Black (the test) plays the first free points of row 1 from A1;
// White (the engine) makes six.
await page.fill('#playouts', '40');
await page.locator('#playouts').dispatchEvent('change');
step('playing a game');
await click('K10');
await page.waitForFunction(() => document.querySelectorAll('#board .stone').length === 3);
s = await status();
assert.deepEqual([s.toMove, s.stoneOfTurn], ['B', '1'], 'Black to play after White\'s two stones');
const colours = await page.locator('#board .stone').evaluateAll((l) => l.map((e) => e.dataset.color));
assert.deepEqual(colours, ['B', 'W', 'W']);

// Illegal: an occupied point is refused and changes nothing.
await click('K10');
await page.waitForFunction(() => /K10/.test(document.querySelector('#message').textContent));
assert.equal(await stoneCount(), 3);

const columns = 'ABCDEFGHJKLMNOPQRST';
let next = 0;
for (let turn = 0; turn < 60 && !(await status()).over.startsWith('true'); turn++) {
  for (let stone = 0; stone < 2; stone++) {
    s = await status();
    if (s.over === 'true') break;
    assert.equal(s.toMove, 'B');
    assert.equal(s.stoneOfTurn, String(stone + 1));
    const occupied = new Set(await page.locator('#board .stone').evaluateAll((l) => l.map((e) => e.dataset.vertex)));
    let v;
    do { v = `${columns[next % 19]}${1 + Math.floor(next / 19)}`; next++; } while (occupied.has(v));
    const before = await stoneCount();
    await click(v);
    await page.waitForFunction((n) => document.querySelectorAll('#board .stone').length > n, before);
    if (stone === 0) {
      // While it is still Black's turn, a click on an occupied point is refused too.
      await click(v);
      assert.equal(await stoneCount(), before + 1);
    }
  }
  // The engine answers with its two stones (or wins with the first).
  await page.waitForFunction(() => {
    const d = document.querySelector('#status').dataset;
    return d.over === 'true' || (d.toMove === 'B' && d.busy === 'false');
  });
  if (turn === 0) await shot('game');
}
s = await status();
assert.equal(s.over, 'true', 'the game ended');
assert.ok(['B+', 'W+', 'Draw'].includes(s.result), s.result);
assert.match(await page.locator('#result').innerText(), /wins|Draw/);
if (s.result !== 'Draw') {
  assert.ok((await page.locator('#board .six').count()) >= 6, 'the winning six is marked');
}
await shot('result');
step(`game over: ${s.result} after ${await stoneCount()} stones`);

// Clicks after the end are refused.
const end = await stoneCount();
await click('T19');
assert.equal(await stoneCount(), end);

// The records, for the native replay.
const stones = await page.locator('#board .stone').evaluateAll((l) => l.map((e) => e.dataset.vertex));
for (const format of ['sgf', 'games', 'ccgc']) {
  await page.click(`[data-export="${format}"]`);
  await page.waitForFunction((f) => document.querySelector('#download').download.endsWith(f === 'ccgc' ? 'txt' : f), format);
  await writeFile(`${artifacts}/game.${format === 'ccgc' ? 'txt' : format}`, await page.inputValue('#record'));
}
await writeFile(`${artifacts}/game.json`, JSON.stringify({ result: s.result, stones }) + '\n');

// Import round trip: the exported SGF back into a new game.
await page.click('#new-game');
await page.waitForFunction(() => document.querySelectorAll('#board .stone').length <= 1);
await page.selectOption('#white-player', 'human');
await page.selectOption('#black-player', 'human');
await page.fill('#record', await (await import('node:fs/promises')).readFile(`${artifacts}/game.sgf`, 'utf8'));
await page.click('#import');
await page.waitForFunction((n) => document.querySelectorAll('#board .stone').length === n, stones.length);
assert.equal((await status()).result, s.result);

// A phone-sized screen: the board fits the width.
await page.setViewportSize({ width: 390, height: 844 });
const box = await page.locator('#board svg').boundingBox();
assert.ok(box.width <= 390 && box.width > 300, `board width ${box.width} on a 390 px screen`);
await shot('phone');

assert.deepEqual(errors, [], 'no errors on the page');
await browser.close();
step('passed');
