// Takes docs/first-screen.png: the release build's first screen after two PDFs were dropped.
// Run after `trunk build --release` (scripts/serve.sh or scripts/test.sh do that).
import path from 'node:path';
import { ROOT, dropFiles, fixture, launch, serve } from '../tests/e2e/helpers.mjs';

const server = await serve();
const browser = await launch();
try {
  const page = await browser.newPage({ viewport: { width: 1100, height: 720 } });
  await page.goto(server.url);
  await page.getByRole('heading', { level: 1, name: 'Fonte' }).waitFor();
  await dropFiles(page, '[data-testid=drop-zone]', [fixture('pdfs/en/debian-faq.en.pdf'), fixture('pdfs/pt/debian-faq.pt.pdf')]);
  await page.getByTestId('picked-files').getByText('debian-faq.pt.pdf').waitFor();
  const out = path.join(ROOT, 'docs/first-screen.png');
  await page.screenshot({ path: out, fullPage: true });
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
  server.stop();
}
