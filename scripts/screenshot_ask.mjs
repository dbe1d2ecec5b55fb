// Takes docs/ask-en.png and docs/ask-pt-BR.png: the release build asking a real llama-server
// (SmolLM2-135M, scripts/llm_setup.sh) about two dropped PDFs, in each interface language,
// with a citation's page open in the source panel beside the answer. Run after
// `trunk build --release`, with scripts/env.sh sourced (it names the server and the model).
import path from 'node:path';
import { ROOT, dropFiles, fixture, launch, llamaServer, serve } from '../tests/e2e/helpers.mjs';

const QUESTIONS = {
  en: 'What is the password of the encryption test?',
  'pt-BR': 'Qual é a senha do teste de criptografia?',
};

const [server, llama] = await Promise.all([serve(undefined, { isolate: true }), llamaServer()]);
const browser = await launch();
try {
  for (const [locale, question] of Object.entries(QUESTIONS)) {
    const context = await browser.newContext({ locale, viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    await page.goto(server.url);
    await page.locator('[data-testid=library-loaded][data-state=ready]').waitFor({ state: 'attached' });
    await dropFiles(page, '[data-testid=drop-zone]', [fixture('pdfs/encrypted/crazyones.pdf'), fixture('pdfs/encrypted/unencrypted.pdf')]);
    await page.locator('[data-testid=doc-row][data-status=ready]', { hasText: 'unencrypted.pdf' }).waitFor({ timeout: 300_000 });
    await page.locator('[data-testid=doc-row][data-status=ready]', { hasText: 'crazyones.pdf' }).waitFor({ timeout: 300_000 });
    for (const [id, value] of [['endpoint-base-url', llama.url], ['endpoint-model', 'SmolLM2-135M-Instruct'], ['endpoint-temperature', '0'], ['endpoint-max-tokens', '96']]) {
      await page.getByTestId(id).fill(value);
      await page.getByTestId(id).dispatchEvent('change');
    }
    await page.getByTestId('question').fill(question);
    await page.getByTestId('question').press('Enter');
    const ex = page.getByTestId('exchange').first();
    await ex.locator('xpath=self::*[@data-phase="done"]').waitFor({ timeout: 180_000 });
    await ex.locator('[data-testid=cite], [data-testid=cite-matched]').first().click();
    await page.locator('[data-testid=source][data-state=page]').waitFor({ timeout: 60_000 });
    await page.getByTestId('ask').evaluate((e) => e.scrollIntoView());
    const out = path.join(ROOT, `docs/ask-${locale}.png`);
    await page.screenshot({ path: out });
    console.log(`wrote ${out}`);
    await context.close();
  }
} finally {
  await browser.close();
  llama.stop();
  server.stop();
}
