// Measures the JavaScript the sign-in page loads: serves the built web/dist (any path falls back to
// index.html, /api answers 404), opens /login in Chromium, and sums each JS file gzipped here, since the
// server may send it uncompressed. Usage: npm run build && node scripts/measure-login-js.mjs
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../web/dist');
const types = { '.js': 'text/javascript', '.css': 'text/css', '.html': 'text/html', '.svg': 'image/svg+xml' };

const server = http.createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://localhost');
  if (url.pathname.startsWith('/api/')) {
    response.writeHead(404, { 'Content-Type': 'application/json' }).end('{"message":"not here"}');
    return;
  }
  const file = path.join(dist, path.normalize(url.pathname));
  const found = file.startsWith(dist) && fs.existsSync(file) && fs.statSync(file).isFile();
  const served = found ? file : path.join(dist, 'index.html');
  response.writeHead(200, { 'Content-Type': types[path.extname(served)] ?? 'application/octet-stream' });
  response.end(fs.readFileSync(served));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address();

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
});
try {
  const page = await browser.newPage();
  const files = [];
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'script') return;
    const body = await response.body();
    files.push({ name: new URL(response.url()).pathname, raw: body.length, gzip: gzipSync(body).length });
  });
  await page.goto(`http://127.0.0.1:${port}/login`, { waitUntil: 'networkidle' });
  await page.getByRole('button', { name: 'Login' }).waitFor();
  files.sort((a, b) => b.gzip - a.gzip);
  for (const file of files) console.log(`${(file.gzip / 1024).toFixed(1).padStart(8)} KB  ${file.name}`);
  const total = files.reduce((sum, file) => sum + file.gzip, 0);
  console.log(
    `${(total / 1024).toFixed(1).padStart(8)} KB  gzipped JavaScript on /login (${files.length} files)`,
  );
} finally {
  await browser.close();
  server.close();
}
