// The release build's first screen in headless Chromium: it renders, takes dropped and picked
// PDFs, and every request it makes goes to its own origin (no CDN, no telemetry).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dropFiles, fixture, recordRequests, withBrowser } from './helpers.mjs';

const ctx = withBrowser();

test('first screen renders, lists dropped and picked PDFs, talks only to its own origin', async () => {
  const page = await ctx.browser.newPage();
  const requests = recordRequests(page);
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));

  await page.goto(ctx.server.url);
  await page.getByRole('heading', { level: 1, name: 'Fonte' }).waitFor();
  assert.match(await page.getByTestId('library-empty').textContent(), /No documents yet/);
  assert.ok(await page.getByTestId('drop-zone').isVisible());

  await dropFiles(page, '[data-testid=drop-zone]', [fixture('pdfs/pt/tutorialbeamer.pdf'), fixture('pdfs/malformed/invalid.pdf')]);
  const list = page.getByTestId('library');
  await list.getByText('tutorialbeamer.pdf').waitFor();
  await list.getByText('invalid.pdf').waitFor();

  // The keyboard path: the labelled file input.
  await page.getByLabel('choose files').setInputFiles(fixture('pdfs/multicolumn/apssamp.pdf'));
  await list.getByText('apssamp.pdf').waitFor();
  assert.deepEqual(await list.locator('td.name').allTextContents(), ['tutorialbeamer.pdf', 'invalid.pdf', 'apssamp.pdf']);

  assert.deepEqual(errors, [], 'no uncaught page errors');
  const origin = new URL(ctx.server.url).origin;
  assert.ok(requests.length >= 3, `page, script and wasm were requested: ${requests}`);
  const foreign = requests.filter((u) => new URL(u).origin !== origin);
  assert.deepEqual(foreign, [], 'every request goes to the app origin');
});

test('a file name is shown as text, never parsed as HTML', async () => {
  const page = await ctx.browser.newPage();
  await page.goto(ctx.server.url);
  await page.getByRole('heading', { level: 1, name: 'Fonte' }).waitFor();
  await page.evaluate(() => {
    const dt = new DataTransfer();
    dt.items.add(new File(['%PDF-1.4'], '<img src=x onerror="window.pwned=1">.pdf', { type: 'application/pdf' }));
    document.querySelector('[data-testid=drop-zone]').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  });
  await page.getByTestId('library').getByText('<img src=x onerror="window.pwned=1">.pdf').waitFor();
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  assert.equal(await page.locator('[data-testid=library] img').count(), 0);
});
