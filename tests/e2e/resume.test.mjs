// Closing the tab mid-ingest: the database holds only whole documents, and the unfinished file
// is offered again on the next visit (and finishes when resumed).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dropFiles, fixture, storeKeys, withBrowser } from './helpers.mjs';

const ctx = withBrowser();

test('a tab closed mid-ingest leaves whole documents only and offers the rest again', async () => {
  const context = await ctx.browser.newContext();
  let page = await context.newPage();
  await page.goto(ctx.server.url);
  await page.locator('[data-testid=library-loaded][data-state=ready]').waitFor({ state: 'attached' });
  await dropFiles(page, '[data-testid=drop-zone]', [
    fixture('pdfs/pt/abntex2-modelo-artigo.pdf'),
    fixture('pdfs/en/R-FAQ.pdf'),
  ]);
  await page.locator('[data-testid=doc-row][data-status=ready]', { hasText: 'abntex2-modelo-artigo.pdf' }).waitFor({ timeout: 300_000 });
  // R-FAQ is being embedded: close the tab now.
  await page.locator('[data-testid=doc-row][data-status=embedding]', { hasText: 'R-FAQ.pdf' }).waitFor({ timeout: 300_000 });
  await page.close();

  page = await context.newPage();
  await page.goto(ctx.server.url);
  await page.locator('[data-testid=library-loaded]:is([data-state=ready], [data-state=restored])').waitFor({ state: 'attached' });
  const keys = await storeKeys(page);
  assert.equal(keys.documents.length, 1, `one whole document: ${JSON.stringify(keys.documents)}`);
  for (const store of ['pdfs', 'chunks', 'vectors']) {
    assert.deepEqual(keys[store], keys.documents, `${store} has exactly the stored documents`);
  }
  assert.equal(keys.pending.length, 1, 'the unfinished file is kept');
  assert.equal(await page.locator('[data-testid=doc-row]').count(), 1);
  const offer = page.getByTestId('pending');
  await offer.waitFor();
  assert.match(await offer.textContent(), /R-FAQ\.pdf/);

  await offer.getByRole('button', { name: 'Resume' }).click();
  await page.locator('[data-testid=doc-row][data-status=ready]', { hasText: 'R-FAQ.pdf' }).waitFor({ timeout: 600_000 });
  const after = await storeKeys(page);
  assert.equal(after.documents.length, 2);
  assert.deepEqual(after.pending, []);
  await context.close();
});
