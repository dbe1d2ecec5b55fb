// Versions that supersede, in the page: two editions of one generated document (dated on their
// covers, one changed fee) and an unrelated one are dropped; until grouped, an answer shows the
// editions as sources that disagree; the proposed group is accepted; a question about the
// changed point is answered from the newer edition only, and the prompt, the sources and the
// answer say which version; with older versions searched too, both editions show with their
// dates; a date edited makes the other edition current; what was decided survives a reload; and
// questions about the library (by date too) are answered from its records with no request.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import path from 'node:path';
import { ROOT, dropFiles, launch, scriptedLlm, serve } from './helpers.mjs';

const VERSIONS = path.join(ROOT, 'tests/fixtures/versions');
const OLD = 'house-rules-2023.pdf';
const NEW = 'house-rules-2025.pdf';

let server;
let llm;
let browser;
let page;
const errors = [];

before(async () => {
  server = await serve();
  llm = await scriptedLlm();
  browser = await launch();
  const context = await browser.newContext({ locale: 'en' });
  page = await context.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(server.url);
  await page.locator('[data-testid=library-loaded][data-state=ready]').waitFor({ state: 'attached' });
  await dropFiles(page, '[data-testid=drop-zone]', [OLD, NEW, 'compostagem.pdf'].map((f) => path.join(VERSIONS, f)));
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=doc-row][data-status=ready]').length === 3, null, { timeout: 300_000 });
});

after(async () => {
  await browser?.close();
  llm?.stop();
  server?.stop();
});

// A row by its file name (the name cell starts with it; an older version's row names the
// current one's file further on).
const row = (name) => page.locator('[data-testid=doc-row]').filter({ has: page.locator('td.name', { hasText: new RegExp(`^${name.replace('.', '\\.')}`) }) });

async function ask(question) {
  const before = await page.getByTestId('exchange').count();
  await page.getByTestId('question').fill(question);
  await page.getByTestId('question').press('Enter');
  const ex = page.getByTestId('exchange').nth(before);
  await ex.locator('xpath=self::*').and(page.locator('[data-phase=done], [data-phase=failed], [data-phase=broken]')).waitFor({ timeout: 120_000 });
  return ex;
}

test('each document shows the date its cover gives; the two editions disagree until accepted as versions', async () => {
  assert.equal(await row(NEW).getByTestId('doc-date').getAttribute('data-date'), '2025-02');
  assert.equal(await row(OLD).getByTestId('doc-date').getAttribute('data-date'), '2023-03');
  assert.match(await row(NEW).getByTestId('doc-date').textContent(), /February 2025 \(on page 1\)/);
  const proposal = page.getByTestId('versions-proposal');
  assert.equal(await proposal.count(), 1, 'one proposal; the unrelated document is not in it');
  const members = await proposal.getByTestId('versions-member').allTextContents();
  assert.deepEqual(members.map((m) => m.split(' ')[0]), [NEW, OLD], 'newest first');
  // Not grouped yet: the two editions are two documents that disagree, shown as such.
  const ex = await ask('What is the monthly maintenance fee each household pays?');
  assert.equal(await ex.locator('.answer').getAttribute('data-outcome'), 'extractive');
  const sides = await ex.getByTestId('conflict').first().getByTestId('conflict-side').allTextContents();
  assert.equal(sides.length, 2);
  assert.ok(sides.some((t) => /520 reais/.test(t)) && sides.some((t) => /450 reais/.test(t)), sides.join(' | '));
  await proposal.getByTestId('versions-accept').click();
  await page.getByTestId('versions-proposal').waitFor({ state: 'detached' });
  assert.equal(await row(NEW).getByTestId('doc-version').getAttribute('data-standing'), 'current');
  assert.equal(await row(OLD).getByTestId('doc-version').getAttribute('data-standing'), 'superseded');
  assert.match(await row(OLD).getByTestId('doc-version').textContent(), /superseded by house-rules-2025\.pdf \(February 2025\)/);
});

test('the changed point is answered from the current version only, and the answer says which', async () => {
  await page.getByTestId('endpoint-preset').selectOption('other');
  await page.getByTestId('endpoint-base-url').fill(`${llm.url}ok/v1`);
  await page.getByTestId('endpoint-base-url').dispatchEvent('change');
  await page.getByTestId('endpoint-model').fill('scripted-model');
  await page.getByTestId('endpoint-model').dispatchEvent('change');
  await page.getByTestId('translate-with').selectOption('off');
  const ex = await ask('What is the monthly maintenance fee each household pays?');
  assert.equal(await ex.locator('.answer').getAttribute('data-outcome'), 'answered');
  const prompt = JSON.parse((await llm.requests()).at(-1).body).messages.map((m) => m.content).join('\n');
  assert.match(prompt, /version="2025-02" supersedes="2023-03"/);
  assert.match(prompt, /520 reais/);
  assert.doesNotMatch(prompt, /450 reais/, 'the older edition is not evidence');
  assert.doesNotMatch(prompt, /superseded-by/);
  assert.match(await ex.getByTestId('answer-version').textContent(), /From the version of February 2025 of .*, which supersedes March 2023/);
  const versions = await ex.getByTestId('source-version').allTextContents();
  assert.ok(versions.length >= 1 && versions.every((v) => /current version, of February 2025/.test(v)), versions.join(' | '));
});

test('with older versions searched too, both editions show with their dates', async () => {
  await page.getByTestId('all-versions').check();
  const ex = await ask('What is the monthly maintenance fee each household pays?');
  const prompt = JSON.parse((await llm.requests()).at(-1).body).messages.map((m) => m.content).join('\n');
  assert.match(prompt, /version="2023-03" superseded-by="2025-02"/);
  assert.match(prompt, /450 reais/);
  assert.match(prompt, /520 reais/);
  const versions = (await ex.getByTestId('source-version').allTextContents()).join(' | ');
  assert.match(versions, /older version, of March 2023/);
  assert.match(versions, /current version, of February 2025/);
  // The search shows each passage's version too.
  await page.getByTestId('query').fill('monthly maintenance fee');
  await page.getByTestId('query').press('Enter');
  await page.getByTestId('result-version').first().waitFor();
  const shown = (await page.getByTestId('result-version').allTextContents()).join(' | ');
  assert.match(shown, /older version/);
  assert.match(shown, /current version/);
  await page.getByTestId('all-versions').uncheck();
  await page.waitForFunction(() => ![...document.querySelectorAll('[data-testid=result-version]')].some((e) => /older version/.test(e.textContent)));
});

test('a date given by the person decides which edition is current, and the file\'s date can come back', async () => {
  await row(OLD).getByTestId('doc-date-edit').click();
  await row(OLD).getByTestId('doc-date-input').fill('not a date');
  await row(OLD).getByTestId('doc-date-save').click();
  await row(OLD).getByTestId('doc-date-invalid').waitFor();
  await row(OLD).getByTestId('doc-date-input').fill('2026-01');
  await row(OLD).getByTestId('doc-date-save').click();
  await row(OLD).locator('[data-testid=doc-date][data-date="2026-01"]').waitFor();
  assert.match(await row(OLD).getByTestId('doc-date').textContent(), /given by you/);
  assert.equal(await row(OLD).getByTestId('doc-version').getAttribute('data-standing'), 'current');
  assert.equal(await row(NEW).getByTestId('doc-version').getAttribute('data-standing'), 'superseded');
  await row(OLD).getByTestId('doc-date-edit').click();
  await row(OLD).getByTestId('doc-date-reset').click();
  await row(OLD).locator('[data-testid=doc-date][data-date="2023-03"]').waitFor();
  assert.equal(await row(NEW).getByTestId('doc-version').getAttribute('data-standing'), 'current');
});

test('the versions survive a reload', async () => {
  await page.reload();
  await page.locator('[data-testid=library-loaded]:is([data-state=ready], [data-state=restored])').waitFor({ state: 'attached' });
  await row(OLD).getByTestId('doc-version').waitFor();
  assert.equal(await row(OLD).getByTestId('doc-version').getAttribute('data-standing'), 'superseded');
  assert.equal(await page.getByTestId('versions-proposal').count(), 0);
});

test('questions about the library are answered from its records, with no request', async () => {
  await page.getByTestId('endpoint-preset').selectOption('other');
  await page.getByTestId('endpoint-base-url').fill(`${llm.url}ok/v1`);
  await page.getByTestId('endpoint-base-url').dispatchEvent('change');
  await page.getByTestId('endpoint-model').fill('scripted-model');
  await page.getByTestId('endpoint-model').dispatchEvent('change');
  const sent = (await llm.requests()).length;
  const count = await ask('How many documents are there?');
  assert.equal(await count.locator('.answer').getAttribute('data-outcome'), 'library');
  assert.equal(await count.getByTestId('library-count').getAttribute('data-n'), '3');
  const mentions = await ask('Quantos documentos mencionam compostagem?');
  assert.equal(await mentions.locator('.answer').getAttribute('data-outcome'), 'library');
  assert.deepEqual(await mentions.getByTestId('library-document').allTextContents().then((t) => t.map((x) => x.includes('compostagem.pdf'))), [true]);
  const newest = await ask('Which is the newest document?');
  assert.equal(await newest.locator('.answer').getAttribute('data-outcome'), 'library');
  assert.deepEqual(await newest.getByTestId('library-document').allTextContents().then((t) => t.map((x) => x.startsWith(NEW) && /published February 2025/.test(x))), [true]);
  const from2023 = await ask('Quais documentos são de 2023?');
  assert.deepEqual(await from2023.getByTestId('library-document').allTextContents().then((t) => t.map((x) => x.startsWith(OLD))), [true]);
  assert.equal((await llm.requests()).length, sent, 'nothing was sent');
  assert.deepEqual(errors, []);
});
