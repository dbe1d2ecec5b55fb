// Search while a file is still embedding (issue 14, item 2): once a dropped PDF is read and
// chunked, a phrase of its last page is found by its words, marked "words only: still
// embedding"; once the file is stored the same search (re-run by the page) is hybrid.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { dropFiles, fixture, launch, serve } from './helpers.mjs';

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

const PDF = 'pdfs/pt/abntex2.pdf';
// Physical page 45, the last (pdftotext -f 45 -l 45): a reference of its bibliography, with its
// own typo ("Intituto"), so no other page matches it as well.
const PHRASE = 'Fundação Intituto Brasileiro de Geografia e Estatística';
const LAST_PAGE = 45;

test('a phrase of the last page is found by its words before the file is embedded, then by both', async () => {
  const context = await browser.newContext({ locale: 'en' });
  const page = await context.newPage();
  await page.goto(server.url);
  await page.locator('[data-testid=library-loaded][data-state=ready]').waitFor({ state: 'attached' });
  await dropFiles(page, '[data-testid=drop-zone]', [fixture(PDF)]);
  const row = page.getByTestId('doc-row').filter({ hasText: 'abntex2.pdf' });
  await row.and(page.locator('[data-status=embedding]')).waitFor({ timeout: 120_000 });
  await row.getByText(/searchable by its words meanwhile/).waitFor();

  await page.getByTestId('query').fill(PHRASE);
  await page.getByTestId('query').press('Enter');
  const first = page.getByTestId('result').first();
  await first.waitFor({ timeout: 60_000 });
  assert.equal(Number(await first.getAttribute('data-page')), LAST_PAGE);
  assert.equal(await first.getAttribute('data-lexical-only'), 'true');
  assert.match(await first.getByTestId('lexical-only').textContent(), /words only: still embedding/);
  // The hit came while the file was still embedding: its last page had no vector yet.
  assert.equal(await row.getAttribute('data-status'), 'embedding');
  const [done, total] = (await row.textContent()).match(/embedding (\d+) of (\d+)/).slice(1).map(Number);
  assert.ok(done < total, `${done} of ${total}`);

  // Stored: the page re-runs the search, and the same passage is found by words and vector.
  await row.and(page.locator('[data-status=ready]')).waitFor({ timeout: 300_000 });
  // Until the re-run's results are shown, the list is the one searched while embedding, where
  // passages of the first pages already had their vectors: wait for a list without any
  // passage still marked, not for the first passage that is not.
  await page.waitForFunction(() => {
    const results = document.querySelectorAll('[data-testid=result]');
    return results.length > 0 && document.querySelectorAll('[data-testid=lexical-only]').length === 0
      && results[0].dataset.lexicalOnly === 'false';
  }, null, { timeout: 60_000 });
  const top = page.getByTestId('result').first();
  assert.equal(Number(await top.getAttribute('data-page')), LAST_PAGE);
  assert.equal(await page.getByTestId('lexical-only').count(), 0);
  await context.close();
});

// A sentence of R-FAQ.pdf's physical page 30 (pdftotext -f 30 -l 30), past its first pages.
const RFAQ_PHRASE = 'ESS grew out of the need for bug fixes and extensions to S-mode';

test('the file a search finds while it waits is embedded next, before a shorter one', async () => {
  const context = await browser.newContext({ locale: 'en' });
  const page = await context.newPage();
  await page.goto(server.url);
  await page.locator('[data-testid=library-loaded][data-state=ready]').waitFor({ state: 'attached' });
  // By itself the queue finishes the file with fewer passages left first: abntex2.pdf
  // (crates/fonte-core/tests/queue.rs, the same pair).
  await dropFiles(page, '[data-testid=drop-zone]', [fixture('pdfs/en/R-FAQ.pdf'), fixture(PDF)]);
  const rfaq = page.getByTestId('doc-row').filter({ hasText: 'R-FAQ.pdf' });
  const abntex = page.getByTestId('doc-row').filter({ hasText: 'abntex2.pdf' });
  for (const row of [rfaq, abntex]) await row.getByText(/searchable by its words/).waitFor({ timeout: 120_000 });

  await page.getByTestId('query').fill(RFAQ_PHRASE);
  await page.getByTestId('query').press('Enter');
  const first = page.getByTestId('result').first();
  await first.waitFor({ timeout: 60_000 });
  assert.equal(await first.getByTestId('result-doc').textContent(), 'R-FAQ.pdf');
  assert.equal(await first.getAttribute('data-lexical-only'), 'true');

  await rfaq.and(page.locator('[data-status=ready]')).waitFor({ timeout: 300_000 });
  assert.notEqual(await abntex.getAttribute('data-status'), 'ready', 'the file searched for was finished first');
  await abntex.and(page.locator('[data-status=ready]')).waitFor({ timeout: 300_000 });
  await context.close();
});
