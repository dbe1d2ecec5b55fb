// Privacy under conditions telemetry might wait for: the app served under a non-loopback host
// name (mapped to 127.0.0.1 by Chromium's resolver) with `navigator.webdriver` hidden, every
// request recorded at the browser-context level (workers included), through a whole journey:
// drop, read in the worker, embed, search, open the source page in pdf.js, ask a question in
// the other language with no endpoint (translated on this device). Also checks the
// security headers of scripts/static_server.py.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { dropFiles, fixture, launch, serve } from './helpers.mjs';

const HOST = 'fonte-e2e.example';
let server;
let browser;

before(async () => {
  server = await serve();
  browser = await launch([
    `--host-resolver-rules=MAP ${HOST} 127.0.0.1`,
    '--disable-blink-features=AutomationControlled',
  ]);
});

after(async () => {
  await browser?.close();
  server?.stop();
});

test('under a real host name, with automation hidden, every request (workers too) stays on the app origin', async () => {
  const port = new URL(server.url).port;
  const url = `http://${HOST}:${port}/`;
  const context = await browser.newContext({ locale: 'en' });
  await context.addInitScript(() => Object.defineProperty(Navigator.prototype, 'webdriver', { get: () => false }));
  const requests = [];
  context.on('request', (r) => requests.push(r.url()));
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));

  const response = await page.goto(url);
  const headers = response.headers();
  assert.match(headers['content-security-policy'], /script-src 'self' 'wasm-unsafe-eval' 'sha256-/);
  assert.match(headers['content-security-policy'], /object-src 'none'.*base-uri 'none'.*frame-ancestors 'none'/);
  assert.equal(headers['x-content-type-options'], 'nosniff');
  assert.equal(await page.evaluate(() => navigator.webdriver), false);
  assert.equal(await page.evaluate(() => location.hostname), HOST);
  // Plain HTTP under a host name is not a secure context: no crypto.subtle, so the page checks
  // the model's bytes and hands them to its embedding workers (on 127.0.0.1 the workers fetch
  // and check it themselves: tests/e2e/hostile.test.mjs).
  assert.equal(await page.evaluate(() => isSecureContext && !!crypto.subtle), false);

  await page.locator('[data-testid=library-loaded][data-state=ready]').waitFor({ state: 'attached' });
  // A library of both languages: an English page and a Portuguese manual.
  await dropFiles(page, '[data-testid=drop-zone]', [fixture('pdfs/encrypted/crazyones.pdf'), fixture('pdfs/pt/tutorialbeamer.pdf')]);
  for (const name of ['crazyones.pdf', 'tutorialbeamer.pdf']) {
    await page.locator('[data-testid=doc-row][data-status=ready]', { hasText: name }).waitFor({ timeout: 300_000 });
  }
  await page.getByTestId('query').fill('the misfits and the rebels');
  await page.getByTestId('query').press('Enter');
  await page.getByTestId('open-source').first().click();
  await page.locator('[data-testid=source][data-state=page]').waitFor({ timeout: 60_000 });

  // A Portuguese question whose answer is only in the English page, with no endpoint:
  // translated on this device, and the English page comes first, unscoped (natively, with
  // `fonte ask --translate off`, the Portuguese manual comes first on the same two files).
  await page.getByTestId('question').fill('Quem são os loucos, os desajustados e os rebeldes?');
  await page.getByTestId('question').press('Enter');
  const ex = page.getByTestId('exchange').first();
  await ex.locator('xpath=self::*[@data-phase="done"]').waitFor({ timeout: 120_000 });
  assert.match(await ex.getByTestId('translation').textContent(), /Also searched in English: “.+”/);
  assert.match(await ex.getByTestId('answer-source').first().textContent(), /crazyones\.pdf/);

  const origin = new URL(url).origin;
  assert.ok(requests.some((u) => u.endsWith('/fonte-translate-worker_bg.wasm')), 'the translation worker ran');
  assert.ok(requests.some((u) => u.includes('/models/translate-pten/')), 'the translation model was fetched');
  assert.ok(requests.some((u) => u.endsWith('/fonte-worker_bg.wasm')), `the reader worker's requests are recorded: ${requests}`);
  assert.ok(requests.some((u) => u.endsWith('model.onnx')), 'the model was fetched');
  assert.ok(requests.some((u) => u.includes('/pdfjs/')), 'pdf.js was loaded');
  const foreign = requests.filter((u) => !u.startsWith('data:') && !u.startsWith('blob:') && new URL(u).origin !== origin);
  assert.deepEqual(foreign, [], 'every request goes to the app origin');
  assert.deepEqual(errors, [], 'no page errors');
  await context.close();
});
