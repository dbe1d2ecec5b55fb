// Settings: the installed models are listed, a new library uses the bilingual one, and switching
// re-embeds every stored document with the other model (never mixing), which the library then
// keeps across visits.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dropFiles, fixture, libraryMeta, withBrowser } from './helpers.mjs';

const ctx = withBrowser();

/** Polls the library's meta record until `ok(meta)`. */
async function waitForMeta(page, ok, timeout = 60_000) {
  const until = Date.now() + timeout;
  for (;;) {
    const meta = await libraryMeta(page);
    if (meta && ok(meta)) return meta;
    if (Date.now() > until) assert.fail(`library meta: ${JSON.stringify(meta)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
const E5 = 'multilingual-e5-small-enpt-int8';
const MINILM_DIR = 'models/all-minilm-l6-v2-int8/';
const MINILM = 'all-MiniLM-L6-v2-int8';

test('switching the embedding model re-embeds the library with the new one', async () => {
  const context = await ctx.browser.newContext();
  const page = await context.newPage();
  await page.goto(ctx.server.url);
  await page.locator('[data-testid=library-loaded][data-state=ready]').waitFor({ state: 'attached' });
  const picker = page.getByTestId('model');
  assert.equal(await picker.getAttribute('data-current'), E5, 'a new library uses the bilingual model');
  const options = await picker.locator('option').allTextContents();
  // The default first; the 4-bit build stays for libraries built with it.
  assert.equal(options.length, 3);
  assert.match(options[0], /English \+ Portuguese.*8-bit.*\(en, pt; \d+(\.\d)? MB\)/);
  assert.match(options[1], /English \+ Portuguese.*4-bit.*\(en, pt; \d+(\.\d)? MB\)/);
  assert.match(options[2], /MiniLM.*\(en; \d+(\.\d)? MB\)/);

  await dropFiles(page, '[data-testid=drop-zone]', [fixture('pdfs/encrypted/crazyones.pdf')]);
  await page.locator('[data-testid=doc-row][data-status=ready]').waitFor({ timeout: 300_000 });
  assert.equal((await libraryMeta(page)).info.model_id, E5);

  await picker.selectOption(MINILM_DIR);
  await page.getByTestId('switch-model').click();
  // The old copy's row is ready until the switch has begun (the library's meta is written
  // first), so wait for the picker to name the new model before waiting for the row again.
  await page.locator(`[data-testid=model][data-current="${MINILM}"]`).waitFor({ state: 'attached', timeout: 60_000 });
  await page.locator('[data-testid=doc-row][data-status=ready]', { hasText: 'crazyones.pdf' }).waitFor({ timeout: 300_000 });
  // The switch ends (the library's meta names the new model) once the last document is stored.
  await waitForMeta(page, (m) => m.info.model_id === MINILM && !m.next);
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

test('a model switch interrupted by closing the page loses no document and goes on at the next visit', async () => {
  const context = await ctx.browser.newContext();
  let page = await context.newPage();
  await page.goto(ctx.server.url);
  await page.locator('[data-testid=library-loaded][data-state=ready]').waitFor({ state: 'attached' });
  // Built with MiniLM first (fast), then switched to the bilingual model (slower), so the
  // switch is still running when the page closes.
  await page.getByTestId('model').selectOption(MINILM_DIR);
  await page.getByTestId('switch-model').click();
  await waitForMeta(page, (m) => m.info.model_id === MINILM && !m.next);
  const files = ['pdfs/encrypted/crazyones.pdf', 'pdfs/encrypted/unencrypted.pdf', 'pdfs/pt/abntex2-modelo-artigo.pdf'];
  await dropFiles(page, '[data-testid=drop-zone]', files.map(fixture));
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=doc-row][data-status=ready]').length === 3, null, { timeout: 300_000 });

  await page.getByTestId('model').selectOption({ index: 0 });
  await page.getByTestId('switch-model').click();
  // Half-way: at least one document moved, at least one not yet.
  await page.waitForFunction(() => {
    const rows = [...document.querySelectorAll('[data-testid=doc-row]')];
    const ready = rows.filter((r) => r.dataset.status === 'ready').length;
    return rows.length === 3 && ready >= 1 && ready < 3;
  }, null, { timeout: 300_000, polling: 20 });
  await page.close();

  page = await context.newPage();
  await page.goto(ctx.server.url);
  await page.locator('[data-testid=library-loaded]:is([data-state=ready], [data-state=restored])').waitFor({ state: 'attached' });
  // Every document is still there: moved (ready) or being moved (queued, embedding).
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=doc-row]').length === 3, null, { timeout: 30_000 });
  assert.equal(await page.getByTestId('model').getAttribute('data-current'), E5);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=doc-row][data-status=ready]').length === 3, null, { timeout: 300_000 });
  await waitForMeta(page, (m) => m.info.model_id === E5 && !m.next);
  await page.getByTestId('query').fill('the misfits, the rebels');
  await page.getByTestId('query').press('Enter');
  await page.getByTestId('result').first().waitFor({ timeout: 120_000 });
  await context.close();
});
