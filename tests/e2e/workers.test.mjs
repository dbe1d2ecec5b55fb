// The embedding workers' watchdog: a worker that stops answering mid-file (here it closes
// itself, as a crashed one falls silent) is given up on after `?embed-ms` (lowered for the
// test; 60 s by default), a new worker takes its place, the batch is tried again, and the file
// completes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dropFiles, fixture, withBrowser } from './helpers.mjs';

const ctx = withBrowser();

test('an embedding worker lost mid-file is replaced and the file completes', async () => {
  const page = await (await ctx.browser.newContext({ locale: 'en' })).newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const started = [];
  page.on('worker', (w) => {
    if (w.url().endsWith('embed-worker.js')) started.push(w);
  });
  await page.goto(`${ctx.server.url}?embed-workers=1&embed-ms=4000`);
  await page.locator('[data-testid=library-loaded][data-state=ready]').waitFor({ state: 'attached' });
  await dropFiles(page, '[data-testid=drop-zone]', [fixture('pdfs/en/R-FAQ.pdf')]);
  await page.locator('[data-testid=doc-row][data-status=embedding]').waitFor({ timeout: 300_000 });
  assert.ok(started.length >= 1);
  // The worker closes itself: no error event, no answer, as a stuck or crashed one.
  await Promise.race([
    started[0].evaluate(() => self.close()).catch(() => {}),
    new Promise((resolve) => setTimeout(resolve, 2000)),
  ]);
  await page.locator('[data-testid=doc-row][data-status=ready]', { hasText: 'R-FAQ.pdf' }).waitFor({ timeout: 600_000 });
  assert.ok(started.length >= 2, `a new worker took its place (${started.length} started)`);
  assert.deepEqual(errors, []);
});
