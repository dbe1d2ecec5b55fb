// Sharing a library as a bundle in the page: export (a download), clear everything, import
// the file: the same documents and the same search results; a damaged bundle and a file that
// is not a bundle are refused with their reason and change nothing; a bundle dropped on the
// drop zone is imported too (here: everything already there).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT, bundleSection, dropFiles, fixture, settledSearch, withBrowser } from './helpers.mjs';

const ctx = withBrowser();
const QUERIES = ['the misfits and the rebels', 'password of the encryption test', 'they push the human race forward'];

/** The results of each query, read once they have stopped changing (searches are async). */
async function results(page) {
  const out = [];
  const read = (p) => p.getByTestId('result').evaluateAll((rs) => rs.map((r) => `${r.querySelector('[data-testid=result-doc]').textContent} p.${r.dataset.page}`));
  for (const q of QUERIES) {
    out.push(await settledSearch(page, q, read));
  }
  return out;
}

test('export, clear, import: the same library and results; bad bundles are refused and change nothing', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'fonte-share-'));
  const page = await (await ctx.browser.newContext({ locale: 'en', acceptDownloads: true })).newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(ctx.server.url);
  await page.locator('[data-testid=library-loaded][data-state=ready]').waitFor({ state: 'attached' });
  await dropFiles(page, '[data-testid=drop-zone]', [fixture('pdfs/encrypted/crazyones.pdf'), fixture('pdfs/encrypted/unencrypted.pdf')]);
  for (const name of ['crazyones.pdf', 'unencrypted.pdf']) {
    await page.locator('[data-testid=doc-row][data-status=ready]', { hasText: name }).waitFor({ timeout: 300_000 });
  }
  const before = await results(page);

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export').click()]);
  assert.equal(download.suggestedFilename(), 'library.fonte');
  const bundle = path.join(dir, 'library.fonte');
  await download.saveAs(bundle);
  assert.equal(readFileSync(bundle).subarray(0, 8).toString(), 'FONTEBDL');

  page.once('dialog', (d) => d.accept());
  await page.getByTestId('clear').click();
  await page.getByTestId('doc-row').first().waitFor({ state: 'detached' });

  await page.getByTestId('import').setInputFiles(bundle);
  await page.locator('[data-testid=share-status][data-state=imported]').waitFor({ timeout: 60_000 });
  assert.match(await page.getByTestId('share-status').textContent(), /added: 2; already in the library: 0/);
  assert.equal(await page.locator('[data-testid=doc-row][data-status=ready]').count(), 2);
  assert.deepEqual(await results(page), before, 'the same results after the round trip');
  // The imported PDFs open on their pages.
  await page.getByTestId('open-source').first().click();
  await page.locator('[data-testid=source][data-state=page]').waitFor({ timeout: 60_000 });

  const damaged = readFileSync(bundle);
  damaged[damaged.length - 50] ^= 0x20;
  writeFileSync(path.join(dir, 'damaged.fonte'), damaged);
  await page.getByTestId('import').setInputFiles(path.join(dir, 'damaged.fonte'));
  await page.locator('[data-testid=share-status][data-state=refused]').waitFor();
  assert.match(await page.getByTestId('share-status').textContent(), /not imported, and nothing changed: the file is damaged \(pdf\)/);
  writeFileSync(path.join(dir, 'notes.fonte'), readFileSync(fixture('pdfs/encrypted/crazyones.pdf')));
  await page.getByTestId('import').setInputFiles(path.join(dir, 'notes.fonte'));
  await page.locator('[data-testid=share-status]', { hasText: 'not a Fonte bundle' }).waitFor();
  assert.equal(await page.getByTestId('doc-row').count(), 2, 'nothing changed');

  const files = [{ name: 'library.fonte', b64: readFileSync(bundle).toString('base64') }];
  const dt = await page.evaluateHandle((files) => {
    const d = new DataTransfer();
    for (const f of files) d.items.add(new File([Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0))], f.name));
    return d;
  }, files);
  await page.dispatchEvent('[data-testid=drop-zone]', 'drop', { dataTransfer: dt });
  await page.locator('[data-testid=share-status]', { hasText: 'added: 0; already in the library: 2' }).waitFor({ timeout: 60_000 });

  // A selection: with one document ticked off, the bundle holds only the other.
  await page.locator('.export-choice summary').click();
  await page.getByTestId('export-doc').first().uncheck();
  const [partial] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export').click()]);
  await partial.saveAs(path.join(dir, 'partial.fonte'));
  const manifest = readManifest(readFileSync(path.join(dir, 'partial.fonte')));
  assert.equal(manifest.documents.length, 1);
  assert.equal(manifest.chunks, manifest.documents[0].chunks);
  assert.deepEqual(errors, []);
});

/** The manifest of a bundle, read as docs/BUNDLE.md says: the first section of kind 1. */
function readManifest(b) {
  return JSON.parse(bundleSection(b, 1).toString());
}

test("a bundle's text under a real paper's id is marked as the bundle's, and the real PDF dropped later replaces it", async () => {
  const page = await (await ctx.browser.newContext({ locale: 'en' })).newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(ctx.server.url);
  await page.locator('[data-testid=library-loaded][data-state=ready]').waitFor({ state: 'attached' });
  // Written by crates/fonte-core/tests/bundle.rs: crazyones.pdf's SHA-256, forged text, no PDF.
  const forged = path.join(ROOT, 'tests/fixtures/bundles/hostile/forged-text.fonte');
  await page.getByTestId('import').setInputFiles(forged);
  await page.locator('[data-testid=share-status][data-state=imported]').waitFor({ timeout: 60_000 });
  const row = page.locator('[data-testid=doc-row]', { hasText: 'crazyones.pdf' });
  assert.match(await row.getByTestId('doc-provenance').textContent(), /Forged/);
  const texts = (p) => p.getByTestId('result').allTextContents();
  assert.ok((await settledSearch(page, 'zebra quokka marmalade', texts)).some((t) => t.includes('quokka')));

  await dropFiles(page, '[data-testid=drop-zone]', [fixture('pdfs/encrypted/crazyones.pdf')]);
  await page.locator('[data-testid=doc-row][data-status=ready]', { hasText: 'crazyones.pdf' })
    .and(page.locator(':not(:has([data-testid=doc-provenance]))')).waitFor({ timeout: 300_000 });
  assert.equal(await page.getByTestId('doc-row').count(), 1, 'one row: the real one');
  assert.ok((await settledSearch(page, 'the crazy ones, the misfits', texts)).some((t) => /misfits/i.test(t)));
  await page.getByTestId('query').fill('zebra quokka marmalade');
  await page.getByTestId('query').press('Enter');
  await page.waitForTimeout(1500);
  assert.ok(!(await texts(page)).some((t) => t.includes('quokka')), 'the forged text is gone');
  // Reloaded: still the real one, not marked.
  await page.reload();
  await page.locator('[data-testid=doc-row][data-status=ready]', { hasText: 'crazyones.pdf' }).waitFor({ timeout: 60_000 });
  assert.equal(await page.getByTestId('doc-provenance').count(), 0);
  assert.deepEqual(errors, []);
});

test('each committed hostile bundle is refused with its reason; the page lives and the library is unchanged', async () => {
  const page = await (await ctx.browser.newContext({ locale: 'en' })).newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(ctx.server.url);
  await page.locator('[data-testid=library-loaded][data-state=ready]').waitFor({ state: 'attached' });
  await dropFiles(page, '[data-testid=drop-zone]', [fixture('pdfs/encrypted/unencrypted.pdf')]);
  await page.locator('[data-testid=doc-row][data-status=ready]').waitFor({ timeout: 300_000 });
  // Written by crates/fonte-core/tests/bundle.rs (tests/fixtures/bundles/README.md).
  const dir = path.join(ROOT, 'tests/fixtures/bundles/hostile');
  for (const [file, reason] of [
    ['section-2gib.fonte', /larger than this page will hold/],
    ['vector-bomb.fonte', /larger than this page will hold/],
    ['huge-title.fonte', /larger than this page will hold.*title/],
    ['foreign-model.fonte', /another embedding model/],
    ['truncated.fonte', /incomplete/],
    ['range-past-page.fonte', /do not agree/],
  ]) {
    // A fresh page each time, so the status read is this file's.
    await page.reload();
    await page.locator('[data-testid=doc-row][data-status=ready]').waitFor({ timeout: 60_000 });
    await page.getByTestId('import').setInputFiles(path.join(dir, file));
    await page.locator('[data-testid=share-status][data-state=refused]').waitFor({ timeout: 60_000 });
    assert.match(await page.getByTestId('share-status').textContent(), reason, file);
    assert.equal(await page.getByTestId('doc-row').count(), 1, `${file}: the library is unchanged`);
  }
  assert.deepEqual(errors, []);
});
