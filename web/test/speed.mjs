// Browser playouts/s (run by web/speed.sh): opens bench.html in headless Chromium and prints the
// bench's JSON line. Usage: node speed.mjs URL CHROMIUM
import { chromium } from 'playwright-core';

const [url, executablePath] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const page = await browser.newPage();
await page.goto(url);
await page.waitForSelector('body[data-done="true"]', { timeout: 600_000 });
const text = await page.locator('#out').innerText();
console.log(text.trim().split('\n').pop());
await browser.close();
