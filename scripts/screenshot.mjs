// Takes docs/first-screen.png: the release build on a 1400×900 screen after two PDFs were
// dropped (one indexed, one rejected with its reason) and searched, with a result's page open
// (the screen as seen, not the whole scrolled page). Run after `trunk build --release` (scripts/serve.sh or
// scripts/test.sh do that).
import path from 'node:path';
import { ROOT, dropFiles, fixture, launch, serve } from '../tests/e2e/helpers.mjs';

const server = await serve(undefined, { isolate: true });
const browser = await launch();
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(server.url);
  await page.locator('[data-testid=library-loaded][data-state=ready]').waitFor({ state: 'attached' });
  await dropFiles(page, '[data-testid=drop-zone]', [fixture('pdfs/pt/abntex2-modelo-artigo.pdf'), fixture('pdfs/malformed/invalid.pdf')]);
  await page.locator('[data-testid=doc-row][data-status=ready]').waitFor({ timeout: 300_000 });
  await page.getByTestId('query').fill('margens do documento ABNT');
  await page.getByTestId('query').press('Enter');
  await page.getByTestId('open-source').first().click();
  await page.locator('[data-testid=source][data-state=page]').waitFor({ timeout: 60_000 });
  const out = path.join(ROOT, 'docs/first-screen.png');
  await page.getByTestId('search-reranking').waitFor({ state: 'detached', timeout: 120_000 });
  await page.getByRole('heading', { name: 'Search' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: out });
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
  server.stop();
}
