// Benchmark, not a test: opening a hosted bundle from a published folder (docs/PERFORMANCE.md,
// "Bundles"). For each bundle given: its size, the bytes the page downloads before it can
// search (header and index ranges, from the server's log), the time from the first visit to
// searchable (service worker install and reload, download, validation, storing, index), the
// time to the first search result, and the time to searchable after a reload (from IndexedDB).
//   node scripts/bench_bundle.mjs SITE_DIR corpus/a.fonte [corpus/b.fonte ...]
// (SITE_DIR from scripts/publish.sh, holding the bundles under corpus/).
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';
import { ROOT, launch } from '../tests/e2e/helpers.mjs';

const [site, ...bundles] = process.argv.slice(2);
if (!site || bundles.length === 0) {
  console.error('usage: node scripts/bench_bundle.mjs SITE_DIR corpus/a.fonte [...]');
  process.exit(2);
}

// The static server with Python's request log on stderr: each range request's bytes are
// counted by the page instead (the log has no sizes), see `sent` below.
const server = await new Promise((resolve) => {
  const child = spawn('python3', [path.join(ROOT, 'scripts/static_server.py'), '--directory', site, '--port', '0', '--quiet'], { stdio: ['ignore', 'pipe', 'inherit'] });
  child.stdout.on('data', (line) => {
    const m = String(line).match(/on (http:\/\/[\d.]+:\d+\/)/);
    if (m) resolve({ url: m[1], stop: () => child.kill() });
  });
});
const browser = await launch();
const state = '[data-testid=library-loaded][data-state=ready], [data-testid=library-loaded][data-state=restored]';
console.log('bundle | bytes | downloaded before search | first visit to searchable | to first result | reload to searchable');
for (const rel of bundles) {
  const context = await browser.newContext({ locale: 'en' });
  let sent = 0;
  // Bytes of the bundle's responses as they reach the page (range requests pass through the
  // service worker untouched).
  context.on('response', async (r) => {
    if (!r.url().includes(rel)) return;
    try {
      sent += (await r.body()).length;
    } catch {
      // A response without a body Playwright can read (aborted).
    }
  });
  const page = await context.newPage();
  const t0 = Date.now();
  await page.goto(`${server.url}?corpus=${rel}`);
  await page.locator(state).waitFor({ state: 'attached', timeout: 900_000 });
  const searchable = Date.now() - t0;
  const before = sent;
  await page.getByTestId('query').fill('how do I install it');
  await page.getByTestId('query').press('Enter');
  await page.getByTestId('result').first().waitFor({ timeout: 300_000 });
  const first = Date.now() - t0;
  const t1 = Date.now();
  await page.reload();
  await page.locator(state).waitFor({ state: 'attached', timeout: 300_000 });
  const reload = Date.now() - t1;
  const size = statSync(path.join(site, rel)).size;
  const chunks = await page.getByTestId('library-loaded').textContent();
  console.log(`${rel} (${chunks.trim()}) | ${size} | ${before} (${(before / size).toFixed(2)}) | ${searchable} ms | ${first} ms | ${reload} ms`);
  await context.close();
}

// Threads from the service worker's isolation: the same PDF dropped into the published folder
// (on the plain server: isolated by the service worker) and into dist/ on the plain server
// (not isolated: one thread), in this run; the ratio is the gain.
const pdf = process.env.FONTE_BENCH_PDF;
if (pdf) {
  const { dropFiles, serve } = await import('../tests/e2e/helpers.mjs');
  const plainDist = await serve(path.join(ROOT, 'dist'));
  const times = {};
  for (const [name, url] of [['published, service worker', server.url], ['dist/, no isolation', plainDist.url]]) {
    const page = await (await browser.newContext({ locale: 'en' })).newPage();
    await page.goto(url);
    await page.locator(state).waitFor({ state: 'attached', timeout: 300_000 });
    const isolated = await page.evaluate(() => window.crossOriginIsolated);
    const t0 = Date.now();
    await dropFiles(page, '[data-testid=drop-zone]', [pdf]);
    await page.locator('[data-testid=doc-row][data-status=ready]', { hasText: path.basename(pdf) }).waitFor({ timeout: 900_000 });
    times[name] = Date.now() - t0;
    console.log(`${path.basename(pdf)} dropped to ready, ${name} (crossOriginIsolated ${isolated}, ${await page.getByTestId('compute').textContent()}): ${times[name]} ms`);
    await page.context().close();
  }
  const [a, b] = Object.values(times);
  console.log(`gain from the service worker's isolation: ${(b / a).toFixed(2)}x`);
  plainDist.stop();
}
await browser.close();
server.stop();
