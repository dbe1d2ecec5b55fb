// Ingestion, persistence and search on the release build with the real model, in headless
// Chromium: drop an English, a Portuguese and a malformed PDF; the good ones become ready and
// the bad one says why; reload; search; delete.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import path from 'node:path';
import { ROOT, dropFiles, fixture, launch, recordRequests, serve } from './helpers.mjs';

let plain;
let isolated;
let browser;

before(async () => {
  plain = await serve();
  // The same build served cross-origin isolated (COOP/COEP), as scripts/serve.sh does, where
  // onnxruntime-web embeds with threads.
  isolated = await serve(undefined, { isolate: true });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  plain?.stop();
  isolated?.stop();
});

const EN = 'pdfs/en/R-FAQ.pdf';
const PT = 'pdfs/pt/abntex2-modelo-artigo.pdf';
const BAD = 'pdfs/malformed/invalid.pdf';
// Text drawn in a font without a Unicode map (built by crates/fonte-pdf/tests/lost_glyphs.rs).
const UNDECODABLE = path.join(ROOT, 'crates/fonte-pdf/tests/fixtures/text-layer/undecodable.pdf');
// A sentence of R-FAQ.pdf's physical page 30 (pdftotext -f 30 -l 30).
const PHRASE = 'ESS grew out of the need for bug fixes and extensions to S-mode';

const row = (page, name) => page.getByTestId('doc-row').filter({ hasText: name });

async function search(page, query) {
  await page.getByTestId('query').fill(query);
  await page.getByTestId('query').press('Enter');
}

async function firstResult(page) {
  const first = page.getByTestId('result').first();
  await first.waitFor({ timeout: 120_000 });
  return {
    doc: await first.getByTestId('result-doc').textContent(),
    page: Number(await first.getByTestId('result-page').textContent()),
  };
}

// The same journey in each interface language (chosen from the browser's language).
// English on a plain server, Portuguese on a cross-origin isolated one.
const LOCALES = {
  en: { heading: 'Your documents', rejected: /rejected: not a readable PDF/, undecodable: /rejected: its text cannot be decoded: its fonts have no Unicode map .*40 glyphs.*OCR/, delete: 'Delete', atATime: 'passages at a time', isolate: false },
  'pt-BR': { heading: 'Seus documentos', rejected: /rejeitado: não é um PDF legível/, undecodable: /rejeitado: o texto não pode ser decodificado: as fontes não têm mapa Unicode .*40 glifos.*OCR/, delete: 'Excluir', atATime: 'trechos por vez', isolate: true },
};

for (const [locale, words] of Object.entries(LOCALES)) test(`drop four PDFs, reload, search, delete (interface: ${locale}${words.isolate ? ', cross-origin isolated' : ''})`, async () => {
  const server = words.isolate ? isolated : plain;
  const context = await browser.newContext({ locale });
  const page = await context.newPage();
  const requests = recordRequests(page);
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));

  await page.goto(server.url);
  await page.locator('[data-testid=library-loaded][data-state=ready]').waitFor({ state: 'attached' });
  await page.getByRole('heading', { level: 2, name: words.heading }).waitFor();
  assert.equal(await page.evaluate(() => window.crossOriginIsolated), words.isolate);
  assert.equal(await page.evaluate(() => document.documentElement.lang), locale);
  await dropFiles(page, '[data-testid=drop-zone]', [fixture(EN), fixture(PT), fixture(BAD), UNDECODABLE]);

  // The malformed file says why, at once (not after the files dropped before it are
  // embedded), and does not stop the others.
  await page.locator('[data-testid=doc-row][data-status=rejected]', { hasText: 'invalid.pdf' }).waitFor({ timeout: 120_000 });
  assert.match(await row(page, 'invalid.pdf').getByTestId('doc-status').textContent(), words.rejected);
  // Text the page shows but Fonte cannot decode is said so, not taken for a scan.
  await page.locator('[data-testid=doc-row][data-status=rejected]', { hasText: 'undecodable.pdf' }).waitFor({ timeout: 120_000 });
  assert.match(await row(page, 'undecodable.pdf').getByTestId('doc-status').textContent(), words.undecodable);
  assert.notEqual(await row(page, 'R-FAQ.pdf').getAttribute('data-status'), 'ready');
  for (const name of ['R-FAQ.pdf', 'abntex2-modelo-artigo.pdf']) {
    await page.locator(`[data-testid=doc-row][data-status=ready]`, { hasText: name }).waitFor({ timeout: 600_000 });
  }
  // No WebGPU adapter in this headless Chromium (--disable-gpu): the CPU backend, one
  // embedding worker per core (at most 2), each with one thread, or the cores shared out in
  // the isolated page.
  assert.equal(await page.getByTestId('compute').getAttribute('data-compute'), 'wasm');
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  const workers = Math.min(cores, 2);
  const threads = words.isolate ? workers * Math.min(4, Math.max(1, Math.floor(cores / workers))) : workers;
  assert.match(await page.getByTestId('compute').textContent(), new RegExp(`WebAssembly, ${workers} ${words.atATime}, threads: ${threads}\\)`));
  const pages = await row(page, 'R-FAQ.pdf').locator('td.num').first().textContent();
  assert.equal(pages, '52');

  await search(page, PHRASE);
  assert.deepEqual(await firstResult(page), { doc: 'R-FAQ.pdf', page: 30 });
  assert.ok(await page.getByTestId('result').first().locator('mark').count() > 0, 'query words marked');

  // The result opens its PDF page, rendered by the self-hosted pdf.js, with the passage marked.
  await page.getByTestId('open-source').first().click();
  await page.locator('[data-testid=source][data-state=page]').waitFor({ timeout: 60_000 });
  const marked = Number(await page.getByTestId('source-page').locator('canvas').getAttribute('data-marked'));
  assert.ok(marked > 0, `passage marked on the rendered page (${marked} text runs)`);
  // Marked by the passage's character offsets and the stored lines of its page, and every box
  // lies on printed text: dark pixels (the glyphs) inside each, on the page.
  const canvas = page.getByTestId('source-page').locator('canvas');
  assert.equal(await canvas.getAttribute('data-marked-by'), 'lines');
  const inked = await canvas.evaluate((c) => {
    const scale = c.width / parseFloat(c.style.width);
    const ctx = c.getContext('2d');
    return JSON.parse(c.dataset.marks).map(([x, y, w, h]) => {
      if (x < 0 || y < 0 || (x + w) * scale > c.width + 2 || (y + h) * scale > c.height + 2) return -1;
      const px = ctx.getImageData(x * scale, y * scale, Math.max(1, w * scale), Math.max(1, h * scale)).data;
      let dark = 0;
      for (let i = 0; i < px.length; i += 4) if (px[i] + px[i + 1] + px[i + 2] < 300) dark += 1;
      return dark / (px.length / 4);
    });
  });
  assert.ok(inked.length > 0 && inked.every((share) => share > 0.02), `marks on text: ${inked}`);

  // Reload: documents and index come back from IndexedDB, no model work before a search.
  const before = requests.length;
  await page.reload();
  await page.locator('[data-testid=library-loaded][data-state=restored]').waitFor({ state: 'attached', timeout: 60_000 });
  assert.equal(await page.locator('[data-testid=doc-row][data-status=ready]').count(), 2);
  assert.equal(await page.locator('[data-testid=doc-row]').count(), 2, 'the rejected file was not stored');
  const reloaded = requests.slice(before);
  assert.ok(!reloaded.some((u) => u.endsWith('model.onnx')), `no model loaded on reload: ${reloaded}`);
  // The query model is not loaded yet: the passages holding the words show at once, then the
  // ranking by meaning and words replaces them.
  await search(page, PHRASE);
  await page.getByTestId('search-reranking').waitFor({ timeout: 10_000 });
  assert.ok(await page.getByTestId('result').count() > 0, 'word matches at once');
  await page.getByTestId('search-reranking').waitFor({ state: 'detached', timeout: 120_000 });
  assert.deepEqual(await firstResult(page), { doc: 'R-FAQ.pdf', page: 30 });

  // Delete the English document: its passages leave the results.
  await row(page, 'R-FAQ.pdf').getByRole('button', { name: `${words.delete} R-FAQ.pdf` }).click();
  await row(page, 'R-FAQ.pdf').waitFor({ state: 'detached' });
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-testid=result-doc]')].every((e) => e.textContent !== 'R-FAQ.pdf'));
  await page.reload();
  await page.locator('[data-testid=library-loaded]:is([data-state=restored], [data-state=ready])').waitFor({ state: 'attached' });
  assert.equal(await page.locator('[data-testid=doc-row]').count(), 1);

  assert.deepEqual(errors, [], 'no uncaught page errors');
  const origin = new URL(server.url).origin;
  const foreign = requests.filter((u) => new URL(u).origin !== origin);
  assert.deepEqual(foreign, [], 'every request goes to the app origin');
  await context.close();
});
