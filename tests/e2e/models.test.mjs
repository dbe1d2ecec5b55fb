// Settings: the installed models are listed, a new library uses the bilingual one, and switching
// re-embeds every stored document with the other model (never mixing), which the library then
// keeps across visits.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dropFiles, fixture, libraryMeta, withBrowser } from './helpers.mjs';

const ctx = withBrowser();
const E5 = 'multilingual-e5-small-enpt-q4';
const MINILM = 'all-MiniLM-L6-v2-int8';

test('switching the embedding model re-embeds the library with the new one', async () => {
  const context = await ctx.browser.newContext();
  const page = await context.newPage();
  await page.goto(ctx.server.url);
  await page.locator('[data-testid=library-loaded][data-state=ready]').waitFor({ state: 'attached' });
  const picker = page.getByTestId('model');
  assert.equal(await picker.getAttribute('data-current'), E5, 'a new library uses the bilingual model');
  const options = await picker.locator('option').allTextContents();
  assert.equal(options.length, 2);
  assert.match(options[0], /English \+ Portuguese.*\(en, pt; \d+(\.\d)? MB\)/);
  assert.match(options[1], /MiniLM.*\(en; \d+(\.\d)? MB\)/);

  await dropFiles(page, '[data-testid=drop-zone]', [fixture('pdfs/encrypted/crazyones.pdf')]);
  await page.locator('[data-testid=doc-row][data-status=ready]').waitFor({ timeout: 300_000 });
  assert.equal((await libraryMeta(page)).info.model_id, E5);

  await picker.selectOption({ index: 1 });
  await page.getByTestId('switch-model').click();
  await page.locator('[data-testid=doc-row][data-status=ready]', { hasText: 'crazyones.pdf' }).waitFor({ timeout: 300_000 });
  assert.equal(await picker.getAttribute('data-current'), MINILM);
  assert.equal((await libraryMeta(page)).info.model_id, MINILM);
  assert.equal(await page.getByTestId('doc-row').count(), 1);

  await page.getByTestId('query').fill('the misfits, the rebels');
  await page.getByTestId('query').press('Enter');
  await page.getByTestId('result').first().waitFor({ timeout: 120_000 });

  // The next visit keeps the library's model and restores it without re-embedding.
  await page.reload();
  await page.locator('[data-testid=library-loaded][data-state=restored]').waitFor({ state: 'attached' });
  assert.equal(await page.getByTestId('model').getAttribute('data-current'), MINILM);
  await context.close();
});
