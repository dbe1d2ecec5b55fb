// The model that runs in the page ("This browser"): SmolLM2-135M-Instruct (the tests' GGUF,
// scripts/llm_setup.sh) picked from the disk and run by wllama, with no server at all. Checked:
// a file that is not a GGUF model is refused with why; a picked model loads only when a question
// first needs it (an abstained one loads none); the answer streams in through the same
// pipeline as an endpoint's (progress reading the prompt, chips, citations checked); stop and
// retry; the file is kept on this device only when asked, listed with its size, loaded again
// on the next visit, and removed; and the whole session makes no request beyond the app's own
// origin. The tiny model's wording is not judged.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { dropFiles, fixture, launch, serve } from './helpers.mjs';

const GGUF = process.env.FONTE_LLM_GGUF;
let server;
let browser;

before(async () => {
  server = await serve();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  server?.stop();
});

/** Asks `question` and waits for its exchange to settle. */
async function askAndWait(page, question) {
  const n = await page.getByTestId('exchange').count();
  await page.getByTestId('question').fill(question);
  await page.getByTestId('ask-button').click();
  const ex = page.getByTestId('exchange').nth(n);
  await ex.locator('xpath=self::*[@data-phase="done" or @data-phase="failed"]').waitFor({ timeout: 300_000 });
  return ex;
}

test('a GGUF model picked from the disk answers in the page: streamed, cited, stoppable, kept only when asked, nothing sent', async () => {
  assert.ok(GGUF, 'FONTE_LLM_GGUF names the test model (scripts/env.sh)');
  const context = await browser.newContext({ locale: 'en' });
  const requests = [];
  context.on('request', (r) => requests.push(r.url()));
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(server.url);
  await page.locator('[data-testid=library-loaded][data-state=ready]').waitFor({ state: 'attached' });
  await dropFiles(page, '[data-testid=drop-zone]', [fixture('pdfs/encrypted/crazyones.pdf'), fixture('pdfs/encrypted/unencrypted.pdf')]);
  for (const name of ['crazyones.pdf', 'unencrypted.pdf']) {
    await page.locator('[data-testid=doc-row][data-status=ready]', { hasText: name }).waitFor({ timeout: 300_000 });
  }

  await page.getByTestId('endpoint-preset').selectOption('browser');
  const model = page.getByTestId('browser-model');
  assert.equal(await model.getAttribute('data-state'), 'none');
  assert.equal(await page.getByTestId('endpoint-base-url').count(), 0, 'no address to type');
  // A PDF is not a model: refused, with why.
  await page.getByTestId('browser-model-file').setInputFiles(fixture('pdfs/encrypted/crazyones.pdf'));
  await page.locator('[data-testid=browser-model][data-state=refused]').waitFor({ timeout: 30_000 });
  assert.match(await page.getByTestId('browser-model-status').textContent(), /not a GGUF model/);

  await page.getByTestId('endpoint-temperature').fill('0');
  await page.getByTestId('endpoint-temperature').dispatchEvent('change');
  await page.getByTestId('endpoint-max-tokens').fill('96');
  await page.getByTestId('endpoint-max-tokens').dispatchEvent('change');
  // Picked and checked, not loaded: a question answered without it (abstained before asking)
  // loads no model; the first one that needs it does.
  await page.getByTestId('browser-model-file').setInputFiles(GGUF);
  await page.locator('[data-testid=browser-model][data-state=chosen]').waitFor({ timeout: 30_000 });
  assert.match(await page.getByTestId('browser-model-status').textContent(), /SmolLM2-135M-Instruct\.Q4_1\.gguf \(98 MB\): loaded when a question first needs it/);
  const abstained = await askAndWait(page, 'What is the boiling point of liquid nitrogen in kelvin?');
  assert.equal(await abstained.locator('.answer').getAttribute('data-outcome'), 'abstained-before');
  assert.equal(await model.getAttribute('data-state'), 'chosen', 'no model loaded for an abstained question');
  assert.ok(!requests.some((u) => u.includes('/wllama/')), 'wllama not even fetched');
  await page.getByTestId('new-conversation').click();

  // The answer's text as it grows, and the progress line while the prompt is read.
  await page.evaluate(() => {
    window.__growth = [];
    window.__progress = [];
    new MutationObserver(() => {
      const t = document.querySelector('[data-testid=exchange] [data-testid=answer-text]')?.textContent;
      if (t && window.__growth.at(-1) !== t) window.__growth.push(t);
      const p = document.querySelector('[data-testid=exchange] [data-testid=ask-progress]')?.textContent;
      if (p && window.__progress.at(-1) !== p) window.__progress.push(p);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await page.getByTestId('question').fill('What is the password of the encryption test?');
  await page.getByTestId('ask-button').click();
  const ex = page.getByTestId('exchange').first();
  await ex.locator('xpath=self::*[@data-phase="done" or @data-phase="failed"]').waitFor({ timeout: 300_000 });
  assert.match(await page.getByTestId('browser-model-status').textContent(), /Ready: SmolLM2-135M-Instruct\.Q4_1\.gguf \(98 MB, one thread/);
  assert.equal(await ex.getAttribute('data-phase'), 'done', await ex.textContent());
  assert.equal(await ex.locator('.answer').getAttribute('data-outcome'), 'answered', await ex.textContent());
  const growth = await page.evaluate(() => window.__growth);
  assert.ok(growth.length >= 3, `the text grew in steps: ${JSON.stringify(growth)}`);
  const progress = await page.evaluate(() => window.__progress);
  assert.ok(progress.some((p) => /^Reading in this browser; waiting for the first words of SmolLM2.*: sources read \(tokens\) \d+ \/ \d+/.test(p)),
    `the prompt's reading shown: ${JSON.stringify(progress)}`);
  assert.ok(await ex.locator('[data-testid=cite], [data-testid=cite-matched]').count() >= 1, `a chip: ${await ex.textContent()}`);

  // Stop while it answers; Retry asks again.
  await page.getByTestId('endpoint-max-tokens').fill('400');
  await page.getByTestId('endpoint-max-tokens').dispatchEvent('change');
  await page.getByTestId('question').fill('Who are the crazy ones, the misfits and the rebels?');
  await page.getByTestId('ask-button').click();
  const second = page.getByTestId('exchange').nth(1);
  await second.locator('xpath=self::*[@data-phase="streaming"]').waitFor({ timeout: 300_000 });
  await page.getByTestId('stop').click();
  await second.locator('xpath=self::*[@data-phase="failed"]').waitFor({ timeout: 60_000 });
  assert.match(await second.getByTestId('ask-error').textContent(), /Stopped/);
  await page.getByTestId('endpoint-max-tokens').fill('48');
  await page.getByTestId('endpoint-max-tokens').dispatchEvent('change');
  await second.getByTestId('retry').click();
  await second.locator('xpath=self::*[@data-phase="done"]').waitFor({ timeout: 300_000 });

  // Kept only when asked: with the box ticked, the file is kept, listed with its size, and
  // loaded again on the next visit; removed, it is gone.
  assert.equal(await page.getByTestId('kept-model').count(), 0, 'nothing kept unasked');
  // Ticked with the model loaded: that file is kept at once.
  await page.getByTestId('browser-model-keep').check();
  await page.getByTestId('kept-model').waitFor({ timeout: 120_000 });
  assert.match(await page.getByTestId('kept-model').textContent(), /SmolLM2-135M-Instruct\.Q4_1\.gguf \(98 MB\)/);
  await page.reload();
  await page.locator('[data-testid=browser-model][data-state=chosen]').waitFor({ timeout: 60_000 });
  await page.getByTestId('browser-model-load').click();
  await page.locator('[data-testid=browser-model][data-state=ready]').waitFor({ timeout: 120_000 });
  await page.getByTestId('kept-model-remove').click();
  await page.getByTestId('kept-model').waitFor({ state: 'detached', timeout: 30_000 });

  const origin = new URL(server.url).origin;
  const foreign = requests.filter((u) => !u.startsWith('data:') && !u.startsWith('blob:') && new URL(u).origin !== origin);
  assert.deepEqual(foreign, [], 'the whole session stays on the app origin');
  assert.ok(requests.some((u) => u.endsWith('/wllama/wllama.wasm')), 'wllama ran');
  assert.deepEqual(errors, [], 'no page errors');
  await context.close();
});
