// Takes docs/ask-en.png and docs/ask-pt-BR.png: the release build on a 1400×900 screen asking
// the model that runs in the page (SmolLM2-135M's GGUF, scripts/llm_setup.sh, picked as a user
// picks it; no server) about two dropped PDFs, in each interface language, with a citation's
// page open in the source panel beside the answer. Run after `trunk build --release`, with
// scripts/env.sh sourced (it names the model file).
import path from 'node:path';
import { ROOT, dropFiles, fixture, launch, serve } from '../tests/e2e/helpers.mjs';

const ASKED = {
  en: { question: 'What is the password of the encryption test?', pdfs: ['pdfs/encrypted/crazyones.pdf', 'pdfs/encrypted/unencrypted.pdf'] },
  'pt-BR': { question: 'Qual é o objetivo do modelo de artigo do abnTeX2?', pdfs: ['pdfs/pt/abntex2-modelo-artigo.pdf', 'pdfs/encrypted/unencrypted.pdf'] },
};

const server = await serve(undefined, { isolate: true });
const browser = await launch();
try {
  for (const [locale, { question, pdfs }] of Object.entries(ASKED)) {
    const context = await browser.newContext({ locale, viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    await page.goto(server.url);
    await page.locator('[data-testid=library-loaded][data-state=ready]').waitFor({ state: 'attached' });
    await dropFiles(page, '[data-testid=drop-zone]', pdfs.map(fixture));
    for (const pdf of pdfs) {
      await page.locator('[data-testid=doc-row][data-status=ready]', { hasText: path.basename(pdf) }).waitFor({ timeout: 300_000 });
    }
    await page.getByTestId('endpoint-preset').selectOption('browser');
    await page.getByTestId('browser-model-file').setInputFiles(process.env.FONTE_LLM_GGUF);
    await page.locator('[data-testid=browser-model][data-state=ready]').waitFor({ timeout: 120_000 });
    for (const [id, value] of [['endpoint-temperature', '0'], ['endpoint-max-tokens', '96']]) {
      await page.getByTestId(id).fill(value);
      await page.getByTestId(id).dispatchEvent('change');
    }
    await page.getByTestId('question').fill(question);
    await page.getByTestId('question').press('Enter');
    const ex = page.getByTestId('exchange').first();
    await ex.locator('xpath=self::*[@data-phase="done" or @data-phase="failed"]').waitFor({ timeout: 300_000 });
    if ((await ex.getAttribute('data-phase')) !== 'done') throw new Error(await ex.textContent());
    // A chip when the answer has one, else the first source listed under it.
    const chips = ex.locator('[data-testid=cite], [data-testid=cite-matched]');
    await ((await chips.count()) > 0 ? chips.first() : ex.locator('[data-testid=answer-source] button').first()).click();
    await page.locator('[data-testid=source][data-state=page]').waitFor({ timeout: 60_000 });
    await page.evaluate(() => window.scrollTo(0, 0));
    const out = path.join(ROOT, `docs/ask-${locale}.png`);
    await page.screenshot({ path: out });
    console.log(`wrote ${out}`);
    await context.close();
  }
} finally {
  await browser.close();
  server.stop();
}
