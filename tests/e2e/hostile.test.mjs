// Nothing a file can do takes the page down: PDFs are parsed in the reader worker, whose
// watchdog reports a file that stops it and restarts it for the next. Release build, real model,
// headless Chromium.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT, dropFiles, fixture, recordRequests, withBrowser } from './helpers.mjs';

const ctx = withBrowser();
const GOOD = ['pdfs/encrypted/crazyones.pdf', 'pdfs/encrypted/unencrypted.pdf'].map(fixture);
const HOSTILE_DIR = path.join(ROOT, 'crates/fonte-pdf/tests/fixtures/hostile');
const HOSTILE = readdirSync(HOSTILE_DIR).filter((f) => f.endsWith('.pdf')).sort();
const FINAL = ['ready', 'partial', 'rejected'];

const row = (page, name) => page.locator('[data-testid=doc-row]', { hasText: name });

async function open(page, url) {
  await page.goto(url);
  await page.locator('[data-testid=library-loaded][data-state=ready]').waitFor({ state: 'attached' });
}

/** Waits until the row of `name` has a final status; returns [status, text]. */
async function final(page, name, timeout = 300_000) {
  const r = row(page, name);
  await page.waitForFunction(
    ([n, done]) => [...document.querySelectorAll('[data-testid=doc-row]')]
      .some((e) => e.textContent.includes(n) && done.includes(e.dataset.status)),
    [name, FINAL],
    { timeout },
  );
  return [await r.getAttribute('data-status'), await r.getByTestId('doc-status').textContent()];
}

test('a good PDF, every hostile fixture and another good PDF, dropped in one go, with searches every 50 ms', async () => {
  assert.ok(HOSTILE.length >= 9, `hostile fixtures: ${HOSTILE}`);
  const context = await ctx.browser.newContext({ locale: 'en' });
  const page = await context.newPage();
  const requests = recordRequests(page);
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await open(page, ctx.server.url);

  await dropFiles(page, '[data-testid=drop-zone]', [GOOD[0], ...HOSTILE.map((f) => path.join(HOSTILE_DIR, f)), GOOD[1]]);
  // Searches fired every 50 ms while files are read and embedded: none may panic or load the
  // model a second time.
  const searching = page.evaluate(async () => {
    const input = document.querySelector('[data-testid=query]');
    let n = 0;
    const until = Date.now() + 20_000;
    while (Date.now() < until) {
      input.value = n % 2 ? 'crazy ones' : 'misfits rebels';
      input.dispatchEvent(new Event('input', { bubbles: true }));
      input.form.requestSubmit();
      n += 1;
      await new Promise((r) => setTimeout(r, 50));
    }
    return n;
  });

  const outcomes = {};
  for (const name of HOSTILE) outcomes[name] = await final(page, name);
  for (const good of GOOD) {
    const [status] = await final(page, path.basename(good), 600_000);
    assert.equal(status, 'ready', `${path.basename(good)} is ready`);
  }
  assert.ok(await searching > 100, 'searches were fired');
  for (const [name, [status, text]] of Object.entries(outcomes)) {
    assert.ok(FINAL.includes(status), `${name}: ${status}`);
    // A partial or rejected row says why.
    if (status !== 'ready') assert.match(text, /:/, `${name} says why: ${text}`);
  }
  assert.equal(outcomes['contents-repeated.pdf'][0], 'partial');
  assert.match(outcomes['contents-repeated.pdf'][1], /too complex/);
  assert.match(outcomes['predictor-huge.pdf'][1], /could not be read in full/);

  await page.getByTestId('query').fill('the crazy ones, the misfits');
  await page.getByTestId('query').press('Enter');
  await page.getByTestId('result').first().waitFor({ timeout: 60_000 });
  assert.match(await page.getByTestId('result-doc').first().textContent(), /crazyones\.pdf|unencrypted\.pdf/);

  // Once for each embedding worker (one per core, at most 2; the second starts with the first
  // batch to embed), never once per search.
  const models = requests.filter((u) => u.endsWith('model.onnx'));
  const workers = Math.min(2, await page.evaluate(() => navigator.hardwareConcurrency));
  assert.ok(models.length >= 1 && models.length <= workers, `model.onnx fetched once per embedding worker (${workers}): ${models}`);
  assert.deepEqual(errors, [], 'no page errors');
  await context.close();
});

test('the watchdog stops a file past its time or memory limit, says why, and restarts the reader', async () => {
  const context = await ctx.browser.newContext({ locale: 'en' });
  const page = await context.newPage();
  const errors = [];
  const logs = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => logs.push(m.text()));
  // Limits lowered for this test (the defaults: 20 s + 2 s per MB, 1024 MiB): fullrefman.pdf
  // takes several seconds to read, contents-repeated.pdf needs about 450 MiB.
  await open(page, `${ctx.server.url}?reader-ms=3000&reader-mib=200`);
  const slow = fixture('pdfs/en/fullrefman.pdf');
  const greedy = path.join(HOSTILE_DIR, 'contents-repeated.pdf');
  await dropFiles(page, '[data-testid=drop-zone]', [GOOD[0], slow, greedy, GOOD[1]]);

  const [slowStatus, slowText] = await final(page, 'fullrefman.pdf');
  assert.equal(slowStatus, 'rejected');
  assert.match(slowText, /the reader stopped on this file: reading it took longer than 3 s/);
  const [greedyStatus, greedyText] = await final(page, 'contents-repeated.pdf');
  assert.equal(greedyStatus, 'rejected');
  assert.match(greedyText, /the reader stopped on this file: it needed more than 200 MiB/);
  for (const good of GOOD) {
    const [status] = await final(page, path.basename(good), 600_000);
    assert.equal(status, 'ready', `${path.basename(good)} is ready after the restarts`);
  }
  const restarts = logs.filter((l) => l.includes('the PDF reader stopped on'));
  assert.equal(restarts.length, 2, `restarts in the log: ${restarts}`);
  assert.deepEqual(errors, [], 'no page errors');
  await context.close();
});
