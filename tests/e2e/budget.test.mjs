// What the page holds of dropped files: every file is listed at once, but each is read into the
// page only when what the queue holds leaves room (`?page-mib`, lowered here to 10 KiB so each
// PDF fills it alone): at no moment are two files being read or embedded, and every file ends.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { dropFiles, fixture, withBrowser } from './helpers.mjs';

const ctx = withBrowser();

test('dropped files are read one at a time under the page budget, and all complete', async () => {
  const page = await (await ctx.browser.newContext({ locale: 'en' })).newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${ctx.server.url}?page-mib=0.01`);
  await page.locator('[data-testid=library-loaded][data-state=ready]').waitFor({ state: 'attached' });
  const names = ['crazyones.pdf', 'unencrypted.pdf', 'tutorialbeamer.pdf'];
  await dropFiles(page, '[data-testid=drop-zone]', [
    fixture('pdfs/encrypted/crazyones.pdf'), fixture('pdfs/encrypted/unencrypted.pdf'), fixture('pdfs/pt/tutorialbeamer.pdf'),
  ]);
  // Listed at once, before any is read.
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid=doc-row]').length === n, names.length);
  let most = 0;
  for (let i = 0; i < 2400; i++) {
    const statuses = await page.getByTestId('doc-row').evaluateAll((rows) => rows.map((r) => r.dataset.status));
    most = Math.max(most, statuses.filter((s) => ['parsing', 'waiting', 'embedding'].includes(s)).length);
    if (statuses.every((s) => s === 'ready' || s === 'partial')) break;
    await page.waitForTimeout(250);
  }
  for (const name of names) {
    await page.locator('[data-testid=doc-row][data-status=ready], [data-testid=doc-row][data-status=partial]', { hasText: name }).waitFor({ timeout: 60_000 });
  }
  assert.equal(most, 1, 'one file in the works at a time');
  assert.deepEqual(errors, []);
});

/**
 * Writes `count` PDFs of about `mib` MiB each into `dir`: one page with a line of text, and an
 * object nothing refers to holding zeros (what makes a scanned manual large without text).
 */
function largePdfs(dir, count, mib) {
  const paths = [];
  for (let n = 1; n <= count; n++) {
    const file = path.join(dir, `large-${n}.pdf`);
    const fd = openSync(file, 'w');
    let at = 0;
    const offsets = [];
    const put = (s) => { const b = Buffer.from(s, 'latin1'); writeSync(fd, b); at += b.length; };
    put('%PDF-1.4\n');
    const text = `BT /F1 12 Tf 72 720 Td (Large file ${n}: one line of text and a large unused object.) Tj ET`;
    const objects = [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
      `<< /Length ${text.length} >>\nstream\n${text}\nendstream`,
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    ];
    objects.forEach((o, i) => { offsets.push(at); put(`${i + 1} 0 obj\n${o}\nendobj\n`); });
    const big = mib << 20;
    offsets.push(at);
    put(`6 0 obj\n<< /Length ${big} >>\nstream\n`);
    const zeros = Buffer.alloc(8 << 20);
    for (let left = big; left > 0; left -= zeros.length) {
      const piece = Math.min(left, zeros.length);
      writeSync(fd, zeros, 0, piece);
      at += piece;
    }
    put('\nendstream\nendobj\n');
    const xref = at;
    put(`xref\n0 7\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`);
    put(`trailer\n<< /Size 7 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
    closeSync(fd);
    paths.push(file);
  }
  return paths;
}

test('files totalling over 1 GB picked at once: the page holds a few at a time and every one ends', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'fonte-large-'));
  try {
    const paths = largePdfs(dir, 6, 180);
    const total = paths.reduce((sum, p) => sum + statSync(p).size, 0);
    assert.ok(total > 1e9, `${total} bytes`);
    const page = await (await ctx.browser.newContext({ locale: 'en' })).newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    // The page's WebAssembly memory only grows, so its size at the end is the most it held.
    await page.addInitScript(() => {
      addEventListener('TrunkApplicationStarted', (e) => { window.fonteWasmMemory = e.detail.wasm.memory; });
    });
    await page.goto(ctx.server.url);
    await page.locator('[data-testid=library-loaded][data-state=ready]').waitFor({ state: 'attached' });
    const mib = () => page.evaluate(() => window.fonteWasmMemory.buffer.byteLength / (1 << 20));
    const before = await mib();
    // Picked by path: the browser reads each file from disk when the page asks for it.
    await page.locator('#file-input').setInputFiles(paths);
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid=doc-row]').length === n, paths.length);
    for (let n = 1; n <= paths.length; n++) {
      await page.locator('[data-testid=doc-row][data-status=ready]', { hasText: `large-${n}.pdf` }).waitFor({ timeout: 600_000 });
    }
    const after = await mib();
    console.log(`# page WebAssembly memory: ${before.toFixed(0)} MiB before, ${after.toFixed(0)} MiB after ${(total / (1 << 20)).toFixed(0)} MiB of files`);
    // docs/RELIABILITY.md, "Data that is never lost": 389 MiB measured, about two copies of
    // one 180 MiB file (all six at once would pass 1 GiB).
    assert.ok(after < 600, `${after} MiB`);
    assert.deepEqual(errors, []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
