// A file the browser has no room for is reported in words and nothing stored is lost; a file
// already in the library is reported as a duplicate and skipped.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dropFiles, fixture, storeKeys, withBrowser } from './helpers.mjs';

const ctx = withBrowser();
const SMALL = fixture('pdfs/encrypted/crazyones.pdf');
const LARGE = fixture('pdfs/en/R-FAQ.pdf');
// Whether IndexedDB refuses to store `bytes` more now (in a database of the test's own).
const refusesWrite = (page, bytes) => page.evaluate((bytes) => new Promise((resolve, reject) => {
  const open = indexedDB.open('quota-probe');
  open.onupgradeneeded = () => open.result.createObjectStore('probe');
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const db = open.result;
    const tx = db.transaction('probe', 'readwrite');
    // Random bytes: Chromium compresses what it stores, as a PDF's streams already are.
    const data = new Uint8Array(bytes);
    for (let i = 0; i < bytes; i += 65536) crypto.getRandomValues(data.subarray(i, i + 65536));
    tx.objectStore('probe').put(data, 'x');
    const done = (refused) => {
      db.close();
      indexedDB.deleteDatabase('quota-probe').onsuccess = () => resolve(refused);
    };
    tx.oncomplete = () => done(false);
    tx.onabort = () => (tx.error?.name === 'QuotaExceededError' ? done(true) : reject(tx.error));
  };
}), bytes);
const status = (page, name) => page.getByTestId('doc-row').filter({ hasText: name }).getAttribute('data-status');

test('a duplicate is skipped, a full storage is reported, and what was stored survives', async () => {
  const context = await ctx.browser.newContext();
  const page = await context.newPage();
  await page.goto(ctx.server.url);
  await page.locator('[data-testid=library-loaded][data-state=ready]').waitFor({ state: 'attached' });
  await dropFiles(page, '[data-testid=drop-zone]', [SMALL]);
  await page.locator('[data-testid=doc-row][data-status=ready]', { hasText: 'crazyones.pdf' }).waitFor({ timeout: 300_000 });

  // The same bytes under another name: reported against the stored one, not stored twice.
  await dropFiles(page, '[data-testid=drop-zone]', [SMALL]);
  await page.locator('[data-testid=doc-row][data-status=duplicate]').waitFor({ timeout: 60_000 });
  assert.match(await page.locator('[data-testid=doc-row][data-status=duplicate]').textContent(), /duplicate of crazyones\.pdf/);
  assert.equal((await storeKeys(page)).documents.length, 1);

  // Leave the site only a few kilobytes more than it uses (Chromium's DevTools protocol), then
  // add a 370 kB file: it cannot be stored.
  const cdp = await context.newCDPSession(page);
  const origin = new URL(ctx.server.url).origin;
  const { usage } = await page.evaluate(() => navigator.storage.estimate());
  await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: usage + 20_000 });
  // IndexedDB keeps allotting from the space it last asked the quota manager about, for up to
  // 30 s (Chromium's BucketContext::kBucketSpaceCacheTimeLimit): a file dropped at once was
  // sometimes stored whole. Wait until a write of its size is refused.
  let tries = 0;
  while (!(await refusesWrite(page, 400_000))) {
    assert.ok(++tries < 60, 'the lowered quota never took effect');
    await page.waitForTimeout(1000);
  }
  await dropFiles(page, '[data-testid=drop-zone]', [LARGE]);
  const full = page.locator('[data-testid=doc-row][data-status=storage-full]', { hasText: 'R-FAQ.pdf' });
  await full.waitFor({ timeout: 600_000 });
  assert.match(await full.getByTestId('doc-status').textContent(), /storage for this site is full/);
  assert.match(await page.getByTestId('notice').textContent(), /Nothing already stored was lost/);

  // Nothing of R-FAQ was written; the first document is whole and still searchable.
  const keys = await storeKeys(page);
  assert.equal(keys.documents.length, 1);
  for (const store of ['pdfs', 'chunks', 'vectors']) assert.deepEqual(keys[store], keys.documents, store);
  assert.deepEqual(keys.pending, [], 'no orphan pending copy of the file that did not fit');
  await cdp.send('Storage.overrideQuotaForOrigin', { origin });
  await page.reload();
  await page.locator('[data-testid=library-loaded]:is([data-state=restored], [data-state=ready])').waitFor({ state: 'attached' });
  assert.equal(await status(page, 'crazyones.pdf'), 'ready');
  assert.equal(await page.getByTestId('doc-row').count(), 1);
  await page.getByTestId('query').fill('the round pegs in the square holes');
  await page.getByTestId('query').press('Enter');
  await page.getByTestId('result').first().waitFor({ timeout: 120_000 });
  assert.equal(await page.getByTestId('result').first().getByTestId('result-doc').textContent(), 'crazyones.pdf');
  await context.close();
});
