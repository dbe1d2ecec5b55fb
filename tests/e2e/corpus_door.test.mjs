// The `?corpus=` door: a corpus on another site is not contacted before the user agrees (and a
// "not now" leaves nothing behind), a good one then opens; a hostile or broken corpus server
// (a range it was not asked for, more bytes than the range, a whole file of 10 GiB, a 500, a
// dead host) ends with a clear message and the app alive; the library chosen before stays
// the one a later visit opens, with its documents, and that visit sends nothing to the
// corpus's server.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { ROOT, dropFiles, fixture, launch, serve } from './helpers.mjs';

const TARGET = process.env.CARGO_TARGET_DIR ?? path.join(ROOT, 'target');

let dir;
let corpus;
let server;
let browser;

/** tests/corpus_server.py serving `bundle`; resolves to { url, requests(), stop }. */
function corpusServer(bundle) {
  return new Promise((resolve, reject) => {
    const child = spawn('python3', [path.join(ROOT, 'tests/corpus_server.py'), '--bundle', bundle, '--port', '0'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.once('error', reject);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (line) => {
      const m = line.match(/serving (http:\/\/[\d.]+:\d+\/)/);
      if (!m) return;
      const url = m[1];
      resolve({
        url,
        requests: async () => (await fetch(`${url}requests`)).json(),
        stop: () => child.kill(),
      });
    });
  });
}

before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'fonte-corpus-door-'));
  const bundle = path.join(dir, 'crazy.fonte');
  const model = path.join(ROOT, 'models/multilingual-e5-small-enpt-int8');
  execFileSync(path.join(TARGET, 'debug', 'fonte'), ['bundle', fixture('pdfs/encrypted/crazyones.pdf'), '-o', bundle, '--title', 'Crazy ones', '--model', model], { stdio: 'inherit' });
  corpus = await corpusServer(bundle);
  server = await serve();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  corpus?.stop();
  server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const loaded = (page) => page.getByTestId('library-loaded');

/** A page in a fresh profile whose own library holds one PDF. */
async function withMyLibrary() {
  const context = await browser.newContext({ locale: 'en' });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(server.url);
  await page.locator('[data-testid=library-loaded][data-state=ready]').waitFor({ state: 'attached' });
  await dropFiles(page, '[data-testid=drop-zone]', [fixture('pdfs/encrypted/unencrypted.pdf')]);
  await page.locator('[data-testid=doc-row][data-status=ready]').waitFor({ timeout: 300_000 });
  return { context, page, errors };
}

/** Back on the plain app: the reader's own library, its document, nothing sent to the corpus. */
async function myLibraryIsUntouched(page) {
  const before = (await corpus.requests()).length;
  await page.goto(server.url);
  await page.locator('[data-testid=doc-row][data-status=ready]', { hasText: 'unencrypted.pdf' }).waitFor({ timeout: 60_000 });
  assert.equal(await page.getByTestId('doc-row').count(), 1);
  await page.waitForTimeout(500);
  assert.equal((await corpus.requests()).length, before, 'no request to the corpus on a visit to another library');
}

test('a corpus on another site asks first: "not now" sends nothing, "open" opens it, and my library stays mine', async () => {
  const { context, page, errors } = await withMyLibrary();
  const url = `${corpus.url}good.fonte`;
  await page.goto(`${server.url}?corpus=${encodeURIComponent(url)}`);
  await page.locator('[data-testid=library-loaded][data-state=ask]').waitFor();
  assert.match(await page.getByTestId('corpus-ask').textContent(), new RegExp(new URL(corpus.url).host.replace('.', '\\.')));
  await page.waitForTimeout(500);
  assert.deepEqual(await corpus.requests(), [], 'nothing requested before the user agrees');
  await page.getByTestId('corpus-cancel').click();
  await page.locator('[data-testid=doc-row][data-status=ready]', { hasText: 'unencrypted.pdf' }).waitFor({ timeout: 60_000 });
  assert.deepEqual(await corpus.requests(), []);

  await page.goto(`${server.url}?corpus=${encodeURIComponent(url)}`);
  await page.getByTestId('corpus-open').click();
  await page.locator('[data-testid=doc-row]', { hasText: 'crazyones.pdf' }).waitFor({ timeout: 120_000 });
  assert.match(await page.getByTestId('library-switch').textContent(), /Crazy ones/);
  assert.ok((await corpus.requests()).every((p) => p === '/good.fonte'));
  // Chosen again from the switcher: the reader's own library, and no request to the corpus.
  await page.getByTestId('library-mine').click();
  await myLibraryIsUntouched(page);
  assert.deepEqual(errors, []);
  await context.close();
});

for (const [name, path_, message] of [
  ['a range it was not asked for', 'wrong-range.fonte', /another part of the file/],
  // Chromium itself may end such a body at its Content-Range (then it reads as cut short).
  ['more bytes than the range', 'beyond.fonte', /more than was asked|connection ended/],
  ['a whole file of 10 GiB', 'whole-huge.fonte', /larger than 512 MiB/],
  ['a server error', 'error.fonte', /HTTP 500/],
  // One byte a second: never silent for the 30 s that time out, given up on after the grace
  // and 8 KiB a second (about 38 s for the 64 KiB probe).
  ['a slow drip', 'drip.fonte', /sent only \d+ KiB in \d+ s/],
]) {
  test(`a corpus server sending ${name} is refused with its reason; my library is untouched`, async () => {
    const { context, page, errors } = await withMyLibrary();
    await page.goto(`${server.url}?corpus=${encodeURIComponent(corpus.url + path_)}`);
    await page.getByTestId('corpus-open').click();
    await page.locator('[data-testid=library-loaded][data-state=failed]').waitFor({ timeout: 120_000 });
    assert.match(await loaded(page).textContent(), message);
    await myLibraryIsUntouched(page);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('a dead host says it could not be reached', async () => {
  const { context, page, errors } = await withMyLibrary();
  // A port nothing listens on (the corpus server's, once stopped, is not reused in this run).
  const dead = await corpusServer(path.join(dir, 'crazy.fonte'));
  dead.stop();
  await page.waitForTimeout(200);
  await page.goto(`${server.url}?corpus=${encodeURIComponent(`${dead.url}good.fonte`)}`);
  await page.getByTestId('corpus-open').click();
  await page.locator('[data-testid=library-loaded][data-state=failed]').waitFor({ timeout: 120_000 });
  assert.match(await loaded(page).textContent(), /no answer/);
  await myLibraryIsUntouched(page);
  assert.deepEqual(errors, []);
  await context.close();
});
