#!/usr/bin/env node
// Reader benchmark (not a test): how long the release app takes to read and chunk PDFs in its
// reader worker, against `fonte-pdf` natively on the same files (text layer only, no
// chunking), and what starting the worker costs. Prints a markdown table; compare ratios from
// one run (the machine is shared). Needs `trunk build --release` and
// `cargo build --release -p fonte-cli -p fonte-pdf` first.
//
// Usage: node scripts/bench_reader.mjs
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { dropFiles, fixture, launch, ROOT, serve } from '../tests/e2e/helpers.mjs';

const FILES = ['pdfs/en/fullrefman.pdf', 'pdfs/en/R-FAQ.pdf', 'pdfs/pt/debian-edu-bookworm-manual.pdf'];
const server = await serve();
const browser = await launch();
const rows = [];
try {
  for (const rel of FILES) {
    const file = fixture(rel);
    const name = path.basename(file);
    const page = await browser.newPage();
    await page.goto(server.url);
    await page.locator('[data-testid=library-loaded][data-state=ready]').waitFor({ state: 'attached' });
    // The worker starts with the first file: time to its first answer is measured apart by
    // dropping a tiny file first.
    const t0 = Date.now();
    await dropFiles(page, '[data-testid=drop-zone]', [fixture('pdfs/encrypted/crazyones.pdf')]);
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=doc-row]')]
      .some((r) => r.textContent.includes('crazyones') && !['queued', 'parsing'].includes(r.dataset.status)), null, { timeout: 120_000 });
    const startMs = Date.now() - t0;
    await page.locator('[data-testid=doc-row][data-status=ready]').waitFor({ timeout: 300_000 });
    const t1 = Date.now();
    await dropFiles(page, '[data-testid=drop-zone]', [file]);
    // Read and chunked once its row leaves queued/parsing (it is embedding, or done).
    await page.waitForFunction((n) => [...document.querySelectorAll('[data-testid=doc-row]')]
      .some((r) => r.textContent.includes(n) && !['queued', 'parsing'].includes(r.dataset.status)), name, { timeout: 300_000, polling: 20 });
    const browserMs = Date.now() - t1;
    const n0 = process.hrtime.bigint();
    execFileSync(path.join(ROOT, 'target/release/fonte-pdf'), [file], { stdio: ['ignore', 'ignore', 'ignore'] });
    const nativeMs = Number(process.hrtime.bigint() - n0) / 1e6;
    rows.push([name, startMs, browserMs, Math.round(nativeMs), (browserMs / nativeMs).toFixed(2)]);
    await page.close();
  }
} finally {
  await browser.close();
  server.stop();
}
console.log('| file | page to first file read (worker start + crazyones.pdf), ms | read + chunk in the worker, ms | native `fonte-pdf`, ms | ratio |');
console.log('|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.join(' | ')} |`);
