#!/usr/bin/env node
// Translation on this device, in the page (not a test): the release build in headless
// Chromium, an English library (the Debian FAQ), its Portuguese questions
// (fixtures/qa/debian_faq_en_pt_qa.jsonl, every 12th) asked with no endpoint, alternately with
// the translation off and on this device. Prints one markdown table: the time from submitting
// a question to its answer, median over the questions, each way and as a ratio; the time the
// exchange spent translating (the translation, plus loading the model for the first
// question), median and p95; and the first question's (it fetches and loads the pt→en model).
// The translation worker runs on one thread.
// Figures vary with the machine and its load: compare the ratios of one run.
//
// Usage: node scripts/bench_translate.mjs [--questions N] (after `trunk build --release`).
import { readFileSync } from 'node:fs';
import { dropFiles, fixture, launch, serve } from '../tests/e2e/helpers.mjs';

const args = process.argv.slice(2);
const at = args.indexOf('--questions');
const N = at >= 0 ? Number(args[at + 1]) : 10;
const questions = readFileSync(fixture('qa/debian_faq_en_pt_qa.jsonl'), 'utf8')
  .trim().split('\n').map((l) => JSON.parse(l).q_pt).filter((_, i) => i % 12 === 0).slice(0, N);

const server = await serve();
const browser = await launch();
try {
  const page = await (await browser.newContext({ locale: 'en' })).newPage();
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(server.url);
  await page.locator('[data-testid=library-loaded][data-state=ready]').waitFor({ state: 'attached' });
  await dropFiles(page, '[data-testid=drop-zone]', [fixture('pdfs/en/debian-faq.en.pdf')]);
  await page.locator('[data-testid=doc-row][data-status=ready]').waitFor({ timeout: 900_000 });
  // Every exchange's phases with their times, recorded in the page.
  await page.evaluate(() => {
    window.__phases = [];
    new MutationObserver((changes) => {
      for (const c of changes) {
        if (c.target.dataset?.testid === 'exchange') {
          window.__phases.push([c.target.dataset.phase, performance.now()]);
        }
      }
    }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-phase'] });
  });

  const ask = async (question, how) => {
    await page.getByTestId('translate-with').selectOption(how);
    await page.getByTestId('new-conversation').isEnabled() && (await page.getByTestId('new-conversation').click());
    await page.evaluate(() => { window.__phases = []; });
    const t0 = await page.evaluate(() => performance.now());
    await page.getByTestId('question').fill(question);
    await page.getByTestId('question').press('Enter');
    const ex = page.getByTestId('exchange').last();
    await ex.locator('xpath=self::*[@data-phase="done"]').waitFor({ timeout: 300_000 });
    const phases = await page.evaluate(() => window.__phases);
    const done = phases.find(([p]) => p === 'done')?.[1] ?? phases.at(-1)[1];
    const from = phases.findIndex(([p]) => p === 'translating');
    const translating = from >= 0 ? phases[from + 1][1] - phases[from][1] : 0;
    const translated = (await ex.getByTestId('translation').count()) > 0;
    return { total: done - t0, translating, translated };
  };

  const first = await ask(questions[0], 'here');
  const off = [];
  const here = [];
  for (const q of questions) {
    off.push(await ask(q, 'off'));
    here.push(await ask(q, 'here'));
  }
  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const ms = (x) => `${Math.round(x)} ms`;
  const passed = here.filter((r) => r.translated);
  const mOff = median(off.map((r) => r.total));
  const mHere = median(here.map((r) => r.total));
  console.log(`| Debian FAQ (en), ${questions.length} Portuguese questions, no endpoint | value |`);
  console.log('|---|---|');
  console.log(`| first question, translated on this device (fetches and loads pt→en) | ${ms(first.total)} (translating ${ms(first.translating)}) |`);
  console.log(`| later questions, translation off: median submit → answer | ${ms(mOff)} |`);
  console.log(`| later questions, on this device: median submit → answer | ${ms(mHere)} (× ${(mHere / mOff).toFixed(2)}) |`);
  const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(0.95 * xs.length) - 1)];
  console.log(`| later questions, on this device: time translating (and embedding the translation), median / p95 | ${ms(median(passed.map((r) => r.translating)))} / ${ms(p95(passed.map((r) => r.translating)))} |`);
  console.log(`| questions translated (the others abstained as typed: nothing to translate) | ${passed.length} of ${here.length} |`);
} finally {
  await browser.close();
  server.stop();
}
