// What the page holds of dropped files: every file is listed at once, but each is read into the
// page only when what the queue holds leaves room (`?page-mib`, lowered here to 10 KiB so each
// PDF fills it alone): at no moment are two files being read or embedded, and every file ends.
import assert from 'node:assert/strict';
import { test } from 'node:test';
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
