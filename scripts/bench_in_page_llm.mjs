#!/usr/bin/env node
// The model that runs in the page against the same model served natively (not a test): the
// release build in headless Chromium, two PDFs (crazyones.pdf, unencrypted.pdf), the same
// questions asked of SmolLM2-135M-Instruct Q4_1 (scripts/llm_setup.sh) run by wllama in the
// page (one thread on a plain page, threads on a cross-origin isolated one) and by llama.cpp's
// llama-server on this machine, each answer up to 96 tokens at temperature 0. Prints one
// markdown table: the model's load time in the page, and per question (median) the time from
// sending the prompt to the first words and to the end of the answer, each way, with the
// ratios. Figures vary with the machine and its load: compare the ratios of one run.
//
// Usage: node scripts/bench_in_page_llm.mjs (after `trunk build --release`, with
// scripts/env.sh sourced).
import { dropFiles, fixture, launch, llamaServer, serve } from '../tests/e2e/helpers.mjs';

const QUESTIONS = [
  'What is the password of the encryption test?',
  'Who are the crazy ones, the misfits and the rebels?',
  'What do the crazy ones do to the human race?',
];

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function library(page, url) {
  await page.goto(url);
  await page.locator('[data-testid=library-loaded][data-state=ready]').waitFor({ state: 'attached' });
  await dropFiles(page, '[data-testid=drop-zone]', ['pdfs/encrypted/crazyones.pdf', 'pdfs/encrypted/unencrypted.pdf'].map(fixture));
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=doc-row][data-status=ready]').length === 2, null, { timeout: 300_000 });
  for (const [id, value] of [['endpoint-temperature', '0'], ['endpoint-max-tokens', '96']]) {
    await page.getByTestId(id).fill(value);
    await page.getByTestId(id).dispatchEvent('change');
  }
  await page.evaluate(() => {
    window.__phases = [];
    new MutationObserver((changes) => {
      for (const c of changes) {
        if (c.target.dataset?.testid === 'exchange') window.__phases.push([c.target.dataset.phase, performance.now()]);
      }
    }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-phase'] });
  });
}

/** Asks each question in a new conversation; the times from sending to the first words and to the end. */
async function asked(page) {
  const out = [];
  for (const q of QUESTIONS) {
    if (await page.getByTestId('new-conversation').isEnabled()) await page.getByTestId('new-conversation').click();
    await page.evaluate(() => { window.__phases = []; });
    await page.getByTestId('question').fill(q);
    await page.getByTestId('question').press('Enter');
    const ex = page.getByTestId('exchange').last();
    await ex.locator('xpath=self::*[@data-phase="done" or @data-phase="failed"]').waitFor({ timeout: 600_000 });
    const phases = await page.evaluate(() => window.__phases);
    const at = (p) => phases.find(([x]) => x === p)?.[1];
    if (at('waiting') === undefined || at('done') === undefined) throw new Error(`${q}: ${JSON.stringify(phases)}`);
    out.push({ first: (at('streaming') ?? at('done')) - at('waiting'), total: at('done') - at('waiting') });
  }
  return out;
}

const [plain, isolated, llama] = await Promise.all([serve(), serve(undefined, { isolate: true }), llamaServer()]);
const browser = await launch();
const rows = [];
try {
  for (const [name, server] of [['in the page, one thread', plain], ['in the page, cross-origin isolated', isolated]]) {
    const page = await (await browser.newContext({ locale: 'en' })).newPage();
    await library(page, server.url);
    await page.getByTestId('endpoint-preset').selectOption('browser');
    const t0 = Date.now();
    await page.getByTestId('browser-model-file').setInputFiles(process.env.FONTE_LLM_GGUF);
    await page.locator('[data-testid=browser-model][data-state=ready]').waitFor({ timeout: 300_000 });
    const load = Date.now() - t0;
    const status = await page.getByTestId('browser-model-status').textContent();
    rows.push([name, load, await asked(page), status]);
    await page.context().close();
  }
  const page = await (await browser.newContext({ locale: 'en' })).newPage();
  await library(page, plain.url);
  await page.getByTestId('endpoint-preset').selectOption('llamacpp');
  for (const [id, value] of [['endpoint-base-url', llama.url], ['endpoint-model', 'SmolLM2-135M-Instruct']]) {
    await page.getByTestId(id).fill(value);
    await page.getByTestId(id).dispatchEvent('change');
  }
  rows.push(['llama-server on this machine', null, await asked(page), '']);
} finally {
  await browser.close();
  llama.stop();
  plain.stop();
  isolated.stop();
}
const native = rows.at(-1)[2];
const nFirst = median(native.map((r) => r.first));
const nTotal = median(native.map((r) => r.total));
console.log(`| SmolLM2-135M-Instruct Q4_1, ${QUESTIONS.length} questions, ≤ 96 tokens | load | to the first words (median) | to the end (median) |`);
console.log('|---|---|---|---|');
for (const [name, load, r] of rows) {
  const first = median(r.map((x) => x.first));
  const total = median(r.map((x) => x.total));
  const ratio = (a, b) => (load === null ? '' : ` (× ${(a / b).toFixed(1)})`);
  console.log(`| ${name} | ${load === null ? '—' : `${(load / 1000).toFixed(1)} s`} | ${(first / 1000).toFixed(1)} s${ratio(first, nFirst)} | ${(total / 1000).toFixed(1)} s${ratio(total, nTotal)} |`);
}
for (const [name, , , status] of rows) if (status) console.error(`${name}: ${status}`);
