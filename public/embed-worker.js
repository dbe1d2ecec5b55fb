// One embedding worker of the page's pool (src/platform/embed_pool.rs): its own instance of
// onnxruntime-web, single-threaded, running the model on the token ids the page sends and
// answering the graph's output. Why a plain script: the page's runtime (`ort` + `ort-web`) is
// one per WebAssembly instance and ort-web loads onnxruntime-web into the window; two
// inferences at once need two runtimes, so each worker loads onnxruntime-web itself and is
// driven through its documented API (InferenceSession, Tensor). Tokenizing and pooling stay in
// fonte-core on the page.
//
// Messages, one request at a time:
//   page → worker  { load: { ort, url, sha256, output, threads } }   (fetched and checked here)
//              or  { load: { ort, model, output, threads } }   (model: an ArrayBuffer the page
//                                                                checked; no crypto.subtle)
//   worker → page  { loaded: true } | { failed: "why" }
//   page → worker  { run: { seq, inputs: [[name, BigInt64Array], …] } }
//   worker → page  { output: Float32Array } | { failed: "why" }
"use strict";

let session = null;
let output = null;

function failed(e) {
  postMessage({ failed: String((e && e.message) || e) });
}

// The model file at `url`, checked against the manifest's SHA-256 (off the page's thread).
async function fetchChecked(url, sha256) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  const body = await response.arrayBuffer();
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", body));
  const got = [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
  if (got !== sha256) {
    throw new Error(`${url}: sha256 ${got} does not match the manifest's ${sha256} (${body.byteLength} bytes)`);
  }
  return body;
}

async function load({ ort: dir, url, sha256, model, output: name, threads }) {
  if (url) model = await fetchChecked(url, sha256);
  importScripts(new URL("ort.wasm.min.js", dir).href);
  const ort = self.ort;
  ort.env.wasm.wasmPaths = dir;
  ort.env.wasm.numThreads = threads;
  ort.env.wasm.proxy = false;
  session = await ort.InferenceSession.create(new Uint8Array(model), {
    executionProviders: ["wasm"],
  });
  output = name;
  postMessage({ loaded: true });
}

async function run({ seq, inputs }) {
  const ort = self.ort;
  const feeds = {};
  for (const [name, data] of inputs) {
    feeds[name] = new ort.Tensor("int64", data, [data.length / seq, seq]);
  }
  const out = await session.run(feeds);
  // A copy of its own, so its buffer can be transferred whatever the runtime's holds.
  const data = new Float32Array(out[output].data);
  for (const t of Object.values(out)) t.dispose?.();
  postMessage({ output: data }, [data.buffer]);
}

self.onmessage = (event) => {
  const m = event.data;
  const job = m.load ? load(m.load) : m.run ? run(m.run) : Promise.reject(new Error("unknown request"));
  job.catch(failed);
};
