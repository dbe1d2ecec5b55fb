// A library built with another model is detected on open and re-indexed on request, never
// mixed: adding files is refused until then, and re-indexing re-embeds the stored PDFs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dropFiles, fixture, libraryMeta as meta, withBrowser } from './helpers.mjs';

const ctx = withBrowser();

test('a library of another model is offered for re-indexing and never mixed', async () => {
  const context = await ctx.browser.newContext();
  const page = await context.newPage();
  await page.goto(ctx.server.url);
  await page.locator('[data-testid=library-loaded][data-state=ready]').waitFor({ state: 'attached' });
  await dropFiles(page, '[data-testid=drop-zone]', [fixture('pdfs/pt/abntex2-modelo-artigo.pdf')]);
  await page.locator('[data-testid=doc-row][data-status=ready]').waitFor({ timeout: 300_000 });
  const current = (await meta(page)).info.model_id;

  await meta(page, 'some-other-model');
  await page.reload();
  await page.locator('[data-testid=library-loaded][data-state=mismatch]').waitFor();
  assert.match(await page.getByTestId('library-loaded').textContent(), /some-other-model/);

  // New files are refused until the library is re-indexed.
  await dropFiles(page, '[data-testid=drop-zone]', [fixture('pdfs/encrypted/unencrypted.pdf')]);
  await page.getByTestId('notice').waitFor();
  assert.equal(await page.locator('[data-testid=doc-row]').count(), 0);

  await page.getByTestId('reindex').click();
  await page.locator('[data-testid=doc-row][data-status=ready]', { hasText: 'abntex2-modelo-artigo.pdf' }).waitFor({ timeout: 300_000 });
  assert.equal((await meta(page)).info.model_id, current);
  await page.reload();
  await page.locator('[data-testid=library-loaded][data-state=restored]').waitFor({ state: 'attached' });
  assert.equal(await page.locator('[data-testid=doc-row][data-status=ready]').count(), 1);
  await context.close();
});

test('an encrypted file asks for its password and opens with it', async () => {
  const context = await ctx.browser.newContext();
  const page = await context.newPage();
  await page.goto(ctx.server.url);
  await page.locator('[data-testid=library-loaded][data-state=ready]').waitFor({ state: 'attached' });
  await dropFiles(page, '[data-testid=drop-zone]', [fixture('pdfs/encrypted/r2-user-password.pdf')]);
  const row = page.locator('[data-testid=doc-row]', { hasText: 'r2-user-password.pdf' });
  await row.and(page.locator('[data-status=rejected]')).waitFor({ timeout: 120_000 });
  assert.match(await row.getByTestId('doc-status').textContent(), /needs a password/);
  await row.getByTestId('password').fill('asdfzxcv');
  await row.getByTestId('password').press('Enter');
  await page.locator('[data-testid=doc-row][data-status=ready]', { hasText: 'r2-user-password.pdf' }).waitFor({ timeout: 300_000 });
  await context.close();
});
