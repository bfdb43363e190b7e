// A static server for the built site on localhost (the tests' and the speed measurement's):
// `node serve.mjs DIR PORT`; prints `listening PORT` when ready. With ISOLATE=1 it sends the
// cross-origin isolation headers that let the page stop a search through shared memory.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';

const [dir, port = '0'] = process.argv.slice(2);
const types = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.css': 'text/css', '.wasm': 'application/wasm', '.png': 'image/png' };
const isolate = process.env.ISOLATE === '1';

const server = createServer(async (req, res) => {
  const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
  try {
    const file = join(dir, path.endsWith('/') ? path + 'index.html' : path);
    const body = await readFile(file);
    const headers = { 'content-type': types[extname(file)] || 'application/octet-stream' };
    if (isolate) {
      headers['cross-origin-opener-policy'] = 'same-origin';
      headers['cross-origin-embedder-policy'] = 'require-corp';
    }
    res.writeHead(200, headers).end(body);
  } catch {
    res.writeHead(404).end('not found');
  }
});
server.listen(Number(port), '127.0.0.1', () => console.log(`listening ${server.address().port}`));
