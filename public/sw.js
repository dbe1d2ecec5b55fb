// Fonte's service worker, for a published folder (scripts/publish.py writes it, filling in
// VERSION and FILES; docs/BUNDLE.md, "Publishing"). Why it exists:
// - offline: after the first visit the app shell, onnxruntime-web, the model and pdf.js are
//   served from the cache (a hosted corpus is kept in IndexedDB by the app itself);
// - threads on any host: it adds COOP/COEP to every response it serves, so the page is
//   cross-origin isolated and onnxruntime-web gets threads even where the host cannot send
//   those headers (GitHub Pages, a USB stick served by any static server);
// - no stale mix: one version's files only. Each file is cached under the SHA-256 its
//   version's list gives, checked when it is stored; a new version installs beside the old
//   one (carrying over the files whose bytes did not change, so the model is not downloaded
//   again) and takes over on the next visit, when the page asks it to before loading anything.
// It touches nothing but GET requests to its own origin: requests to an LLM endpoint go
// straight to the network.

const VERSION = "__VERSION__";
const FILES = /*FILES*/ {};
const SHELL = /*SHELL*/ [];
const CACHE = "fonte-" + VERSION;
const SCOPE = new URL(self.registration.scope);

// The file's path in the list ("index.html" for the folder itself).
function pathOf(url) {
  const p = decodeURIComponent(url.pathname.slice(SCOPE.pathname.length));
  return p === "" ? "index.html" : p;
}

function keyOf(path) {
  return new URL(path, SCOPE).href;
}

async function sha256(buffer) {
  const digest = await crypto.subtle.digest("SHA-256", buffer);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// Caches `response` as `path` if its bytes are the ones this version lists.
async function store(cache, path, response) {
  const body = await response.arrayBuffer();
  if ((await sha256(body)) !== FILES[path]) return false;
  const headers = new Headers(response.headers);
  headers.set("X-Fonte-Sha256", FILES[path]);
  await cache.put(keyOf(path), new Response(body, { status: 200, headers }));
  return true;
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      for (const name of await caches.keys()) {
        if (name === CACHE || !name.startsWith("fonte-")) continue;
        const old = await caches.open(name);
        for (const request of await old.keys()) {
          const path = pathOf(new URL(request.url));
          const response = await old.match(request);
          if (FILES[path] && response.headers.get("X-Fonte-Sha256") === FILES[path]) {
            await cache.put(request, response);
          }
        }
      }
      for (const path of SHELL) {
        if (await cache.match(keyOf(path))) continue;
        const response = await fetch(keyOf(path), { cache: "no-cache" });
        if (!response.ok || !(await store(cache, path, response))) {
          // A folder half updated on the server: install later, keep the old version.
          throw new Error(`Fonte offline: ${path} is not the file of version ${VERSION}`);
        }
      }
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name !== CACHE && name.startsWith("fonte-")) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

// Every listed file not cached yet, one at a time (the page asks once it is up).
async function warm() {
  const cache = await caches.open(CACHE);
  for (const path of Object.keys(FILES)) {
    if (await cache.match(keyOf(path))) continue;
    try {
      const response = await fetch(keyOf(path), { cache: "no-cache" });
      if (response.ok) await store(cache, path, response);
    } catch (e) {
      return; // offline: next time
    }
  }
}

// From the page (src/platform/offline.rs): a waiting version takes over before the page loads
// anything; once the app is up, the rest of it is cached in the background.
self.addEventListener("message", (event) => {
  if (event.data === "fonte-update") self.skipWaiting();
  if (event.data === "fonte-warm") event.waitUntil(warm());
});

// The response with the headers that make the page cross-origin isolated, and the ones a
// static host without headers cannot send: the page is never framed by another site
// (`frame-ancestors`, which the <meta> policy cannot carry) and its files are not sniffed.
function isolated(response) {
  if (response.type === "opaque" || response.status === 0) return response;
  const headers = new Headers(response.headers);
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
  headers.set("Cross-Origin-Embedder-Policy", "require-corp");
  headers.set("Cross-Origin-Resource-Policy", "same-origin");
  headers.set("Content-Security-Policy", "frame-ancestors 'none'");
  headers.set("X-Content-Type-Options", "nosniff");
  return new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

async function respond(event) {
  const request = event.request;
  const navigate = request.mode === "navigate";
  const path = navigate ? "index.html" : pathOf(new URL(request.url));
  const listed = path in FILES;
  const cache = await caches.open(CACHE);
  if (listed) {
    const hit = await cache.match(keyOf(path));
    if (hit) return isolated(hit);
  }
  let response;
  try {
    response = await fetch(navigate ? keyOf(path) : request);
  } catch (e) {
    // Offline and not cached: the page says what failed.
    return Response.error();
  }
  if (listed && response.ok) {
    const copy = response.clone();
    event.waitUntil(store(cache, path, copy));
  }
  return isolated(response);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== SCOPE.origin) return;
  // Parts of a hosted bundle: a cache cannot hold a 206; the app keeps what it read.
  if (request.headers.has("range")) {
    event.respondWith(fetch(request).then(isolated));
    return;
  }
  event.respondWith(respond(event));
});
