// Asking a real LLM server: llama.cpp's llama-server with SmolLM2-135M-Instruct
// (scripts/llm_setup.sh), allowed by its default CORS. The tiny model's wording is not judged,
// only what Fonte does with it: the connection test lists the model, the answer streams in,
// each sentence carries a chip (the model's own citation, or the passage Fonte found holding
// its words when the model wrote none), and a chip opens the passage marked on its page.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { dropFiles, fixture, launch, llamaServer, serve } from './helpers.mjs';

let server;
let llama;
let browser;

before(async () => {
  [server, llama] = await Promise.all([serve(), llamaServer()]);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  llama?.stop();
  server?.stop();
});

test('a real llama-server answer streams in, with a chip that opens the passage marked on its page', async () => {
  const page = await (await browser.newContext({ locale: 'en' })).newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(server.url);
  await page.locator('[data-testid=library-loaded][data-state=ready]').waitFor({ state: 'attached' });
  await dropFiles(page, '[data-testid=drop-zone]', [fixture('pdfs/encrypted/crazyones.pdf'), fixture('pdfs/encrypted/unencrypted.pdf')]);
  for (const name of ['crazyones.pdf', 'unencrypted.pdf']) {
    await page.locator('[data-testid=doc-row][data-status=ready]', { hasText: name }).waitFor({ timeout: 300_000 });
  }
  await page.getByTestId('endpoint-preset').selectOption('llamacpp');
  await page.getByTestId('endpoint-base-url').fill(llama.url);
  await page.getByTestId('endpoint-base-url').dispatchEvent('change');
  await page.getByTestId('endpoint-temperature').fill('0');
  await page.getByTestId('endpoint-temperature').dispatchEvent('change');
  await page.getByTestId('endpoint-max-tokens').fill('96');
  await page.getByTestId('endpoint-max-tokens').dispatchEvent('change');
  await page.getByTestId('test-connection').click();
  await page.locator('[data-testid=connection][data-state=ok]').waitFor({ timeout: 30_000 });
  // llama-server lists the file it serves; take the name it gives.
  const listed = await page.getByTestId('connection').textContent();
  const model = listed.match(/\(([^,)]+)/)[1];
  assert.match(model, /SmolLM2/i);
  await page.getByTestId('endpoint-model').fill(model);
  await page.getByTestId('endpoint-model').dispatchEvent('change');

  // Record the answer's text as it grows: streamed, not shown all at once.
  await page.evaluate(() => {
    window.__growth = [];
    new MutationObserver(() => {
      const t = document.querySelector('[data-testid=exchange] [data-testid=answer-text]')?.textContent;
      if (t && window.__growth.at(-1) !== t) window.__growth.push(t);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await page.getByTestId('question').fill('What is the password of the encryption test?');
  await page.getByTestId('ask-button').click();
  const ex = page.getByTestId('exchange').first();
  await ex.locator('xpath=self::*[@data-phase="done" or @data-phase="failed"]').waitFor({ timeout: 180_000 });
  assert.equal(await ex.getAttribute('data-phase'), 'done', await ex.textContent());
  assert.equal(await ex.locator('.answer').getAttribute('data-outcome'), 'answered', await ex.textContent());
  const growth = await page.evaluate(() => window.__growth);
  assert.ok(growth.length >= 3, `the text grew in steps: ${JSON.stringify(growth)}`);

  const chips = ex.locator('[data-testid=cite], [data-testid=cite-matched]');
  assert.ok(await chips.count() >= 1, `a chip: ${await ex.textContent()}`);
  const n = await chips.first().getAttribute('data-n');
  const doc = await ex.locator(`[data-testid=answer-source][data-n="${n}"] .doc`).textContent();
  await chips.first().click();
  const panel = page.locator('[data-testid=source][data-state=page]');
  await panel.waitFor({ timeout: 60_000 });
  assert.match(await page.locator('#source-title').textContent(), new RegExp(doc.replace('.', '\\.')));
  const canvas = panel.locator('canvas');
  assert.equal(await canvas.getAttribute('data-marked-by'), 'lines');
  assert.ok(Number(await canvas.getAttribute('data-marked')) >= 1, 'the passage is marked');
  assert.deepEqual(errors, []);
});
