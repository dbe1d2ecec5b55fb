// Page-object helpers shared by the end-to-end tests: a loopback server for dist/, Debian's
// Chromium through playwright-core, and a recorder of every request the page makes.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before } from 'node:test';
import { inflateRawSync } from 'node:zlib';
import { chromium } from 'playwright-core';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SHARED = process.env.FONTE_SHARED ?? path.resolve(ROOT, '../shared');
export const fixture = (rel) => path.join(SHARED, 'fixtures', rel);

/**
 * Serves `dir` on a free loopback port; resolves to { url, stop }. With `isolate`, the pages
 * are cross-origin isolated (COOP/COEP), which onnxruntime-web needs for threads.
 */
export function serve(dir = path.join(ROOT, 'dist'), { isolate = false } = {}) {
  return new Promise((resolve, reject) => {
    const extra = isolate ? ['--isolate'] : [];
    const child = spawn('python3', [path.join(ROOT, 'scripts/static_server.py'), '--directory', dir, '--port', '0', '--quiet', ...extra], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.once('error', reject);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (line) => {
      const m = line.match(/on (http:\/\/[\d.]+:\d+\/)/);
      if (m) resolve({ url: m[1], stop: () => child.kill() });
    });
    child.once('exit', (code) => reject(new Error(`static server exited with ${code}`)));
  });
}

/** Launches headless Debian Chromium with the flags this closed network needs (and `extra`). */
export function launch(extra = []) {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: [
      ...extra,
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

/** Records the URL of every request `page` makes, for the privacy checks. */
export function recordRequests(page) {
  const urls = [];
  page.on('request', (req) => urls.push(req.url()));
  return urls;
}

/** Drops the files at `paths` on the element matching `selector`, as a user dragging them would. */
export async function dropFiles(page, selector, paths) {
  const files = paths.map((p) => ({ name: path.basename(p), b64: readFileSync(p).toString('base64') }));
  const dataTransfer = await page.evaluateHandle((files) => {
    const dt = new DataTransfer();
    for (const f of files) {
      const bytes = Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0));
      dt.items.add(new File([bytes], f.name, { type: 'application/pdf' }));
    }
    return dt;
  }, files);
  await page.dispatchEvent(selector, 'dragover', { dataTransfer });
  await page.dispatchEvent(selector, 'drop', { dataTransfer });
}

/**
 * The shared set-up of a test file: a loopback server for dist/ and a headless Chromium,
 * started before its tests and stopped after. Returns an object whose `server` and `browser`
 * are filled in once `before` has run.
 */
export function withBrowser() {
  const ctx = { server: null, browser: null };
  before(async () => {
    ctx.server = await serve();
    ctx.browser = await launch();
  });
  after(async () => {
    await ctx.browser?.close();
    ctx.server?.stop();
  });
  return ctx;
}

/** Keys of each Fonte object store, read straight from IndexedDB. */
export function storeKeys(page) {
  return page.evaluate(() => new Promise((resolve, reject) => {
    const open = indexedDB.open('fonte');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      const names = [...db.objectStoreNames];
      const tx = db.transaction(names);
      const out = {};
      for (const n of names) {
        const req = tx.objectStore(n).getAllKeys();
        req.onsuccess = () => { out[n] = req.result.map(String); };
      }
      tx.oncomplete = () => { db.close(); resolve(out); };
      tx.onerror = () => reject(tx.error);
    };
  }));
}

/** Reads or rewrites the library's meta record straight in IndexedDB. */
export function libraryMeta(page, modelId) {
  return page.evaluate((modelId) => new Promise((resolve, reject) => {
    const open = indexedDB.open('fonte');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      const tx = db.transaction('meta', 'readwrite');
      const store = tx.objectStore('meta');
      const get = store.get('library');
      let out;
      get.onsuccess = () => {
        out = get.result;
        if (modelId) store.put({ ...out, info: { ...out.info, model_id: modelId } }, 'library');
      };
      tx.oncomplete = () => { db.close(); resolve(out); };
      tx.onerror = () => reject(tx.error);
    };
  }), modelId);
}

/** Runs `cmd args`, resolving to { url, child, stop } once a line of its output names its URL. */
function spawnServer(cmd, args, pattern, { timeoutMs = 60_000, stream = 'stdout' } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const timer = setTimeout(() => { child.kill(); reject(new Error(`${cmd} did not start in ${timeoutMs} ms`)); }, timeoutMs);
    child.once('error', reject);
    let seen = '';
    const watch = (chunk) => {
      seen += chunk;
      const m = seen.match(pattern);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1], child, stop: () => child.kill() });
      }
    };
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', stream === 'stdout' ? watch : () => {});
    child.stderr.on('data', stream === 'stderr' ? watch : () => {});
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`${cmd} exited with ${code}`)); });
  });
}

/**
 * The scripted LLM endpoint of the tests (tests/llm_server.py): { url, stop, requests() },
 * where requests() lists every chat request it received (path, body, headers).
 */
export async function scriptedLlm() {
  const s = await spawnServer('python3', [path.join(ROOT, 'tests/llm_server.py'), '--port', '0'], /serving (http:\/\/[\d.]+:\d+\/)/);
  return { ...s, requests: async () => (await fetch(`${s.url}requests`)).json() };
}

/**
 * llama.cpp's llama-server with the tiny real model of scripts/llm_setup.sh on a free loopback
 * port, once its model is loaded: { url (the /v1 base), stop }.
 */
export async function llamaServer() {
  const bin = process.env.FONTE_LLAMA_SERVER;
  const gguf = process.env.FONTE_LLM_GGUF;
  if (!bin || !existsSync(bin) || !gguf || !existsSync(gguf)) {
    throw new Error('FONTE_LLAMA_SERVER / FONTE_LLM_GGUF missing: run scripts/setup.sh and source scripts/env.sh');
  }
  const port = await new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); });
  });
  const child = spawn(bin, ['-m', gguf, '--host', '127.0.0.1', '--port', String(port), '-c', '4096', '-t', '2', '-np', '1'], { stdio: 'ignore' });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${base}/health`)).ok) return { url: `${base}/v1`, stop: () => child.kill() };
    } catch { /* not listening yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error('llama-server did not become ready in 60 s');
}

/**
 * Searches `q` and returns what `read(page)` gives once it has stopped changing (searches are
 * async; an empty list is never taken as settled).
 */
export async function settledSearch(page, q, read) {
  await page.getByTestId('query').fill(q);
  await page.getByTestId('query').press('Enter');
  let last = null;
  let same = 0;
  while (same < 3) {
    await page.waitForTimeout(250);
    const now = JSON.stringify(await read(page));
    // The word matches shown while the query model loads are not the ranking.
    const reranking = (await page.getByTestId('search-reranking').count()) > 0;
    same = now === last && now !== '[]' && !reranking ? same + 1 : 0;
    last = now;
  }
  return JSON.parse(last);
}

/** The bytes of the first section of `kind` in `bundle` (a Buffer), inflated if stored so (docs/BUNDLE.md). */
export function bundleSection(bundle, kind) {
  const n = bundle.readUInt32LE(12);
  for (let i = 0; i < n; i++) {
    const at = 16 + 72 * i;
    if (bundle.readUInt32LE(at) !== kind) continue;
    const off = Number(bundle.readBigUInt64LE(at + 16));
    const len = Number(bundle.readBigUInt64LE(at + 24));
    const raw = bundle.subarray(off, off + len);
    return bundle.readUInt32LE(at + 8) === 1 ? inflateRawSync(raw) : raw;
  }
  throw new Error(`no section of kind ${kind}`);
}
