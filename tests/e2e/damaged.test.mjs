// One unreadable record in IndexedDB does not keep the library closed: the document is listed
// as damaged (and can be deleted), the others open and search as before.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dropFiles, fixture, storeKeys, withBrowser } from './helpers.mjs';

const ctx = withBrowser();

test('a document whose stored chunks are damaged is listed as damaged; the rest of the library works', async () => {
  const context = await ctx.browser.newContext({ locale: 'en' });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(ctx.server.url);
  await page.locator('[data-testid=library-loaded][data-state=ready]').waitFor({ state: 'attached' });
  await dropFiles(page, '[data-testid=drop-zone]', [fixture('pdfs/encrypted/crazyones.pdf'), fixture('pdfs/encrypted/unencrypted.pdf')]);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=doc-row][data-status=ready]').length === 2, null, { timeout: 300_000 });
  const crazy = await page.locator('[data-testid=doc-row]', { hasText: 'crazyones.pdf' }).getAttribute('data-id');
  assert.ok(crazy, 'rows carry their document id');
  assert.ok((await storeKeys(page)).chunks.includes(crazy));

  // Damage crazyones.pdf's chunks and drop the saved index, as a broken disk or an old bug might.
  await page.evaluate((id) => new Promise((resolve, reject) => {
    const open = indexedDB.open('fonte');
    open.onsuccess = () => {
      const db = open.result;
      const tx = db.transaction(['chunks', 'index'], 'readwrite');
      tx.objectStore('chunks').put(new Uint8Array([0xff, 0xff, 0xff]), id);
      tx.objectStore('index').clear();
      tx.oncomplete = () => { db.close(); resolve(); };
      tx.onerror = () => reject(tx.error);
    };
  }), crazy);
  await page.reload();
  await page.locator('[data-testid=library-loaded][data-state=ready]').waitFor({ state: 'attached' });
  const damaged = page.locator('[data-testid=doc-row][data-status=damaged]');
  await damaged.waitFor();
  assert.match(await damaged.textContent(), /crazyones\.pdf.*delete it and add the file again/s);
  assert.equal(await page.locator('[data-testid=doc-row][data-status=ready]', { hasText: 'unencrypted.pdf' }).count(), 1);
  await page.getByTestId('query').fill('the crazy ones');
  await page.getByTestId('query').press('Enter');
  await page.getByTestId('result').first().waitFor({ timeout: 120_000 });
  assert.equal(await page.getByTestId('result-doc').first().textContent(), 'unencrypted.pdf');

  await damaged.getByRole('button', { name: 'Delete crazyones.pdf' }).click();
  await damaged.waitFor({ state: 'detached' });
  await page.reload();
  await page.locator('[data-testid=library-loaded]:is([data-state=ready], [data-state=restored])').waitFor({ state: 'attached' });
  assert.equal(await page.getByTestId('doc-row').count(), 1);
  assert.deepEqual(errors, [], 'no page errors');
  await context.close();
});

test('a library that cannot be opened at all still offers "Clear everything", which starts afresh', async () => {
  const context = await ctx.browser.newContext({ locale: 'en' });
  const page = await context.newPage();
  await page.goto(ctx.server.url);
  await page.locator('[data-testid=library-loaded][data-state=ready]').waitFor({ state: 'attached' });
  // A library meta record no version of Fonte wrote: opening the library fails.
  await page.evaluate(() => new Promise((resolve, reject) => {
    const open = indexedDB.open('fonte');
    open.onsuccess = () => {
      const db = open.result;
      const tx = db.transaction('meta', 'readwrite');
      tx.objectStore('meta').put(42, 'library');
      tx.oncomplete = () => { db.close(); resolve(); };
      tx.onerror = () => reject(tx.error);
    };
  }));
  await page.reload();
  await page.locator('[data-testid=library-loaded][data-state=failed]').waitFor({ state: 'attached' });
  page.once('dialog', (d) => d.accept());
  await page.getByTestId('clear-failed').click();
  await page.locator('[data-testid=library-loaded][data-state=ready]').waitFor({ state: 'attached', timeout: 30_000 });
  assert.match(await page.getByTestId('library-empty').textContent(), /No documents yet/);
  await context.close();
});
