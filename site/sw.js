// The playground's service worker: once the page has loaded, it works
// offline. The site's own files are served cache-first from a cache named
// after the build; a new build (a new VERSION, stamped by build.sh) installs
// a fresh cache and deletes the old ones.
//
// An unstamped copy (VERSION still holds the placeholder, e.g. site/ served
// as-is while developing) goes to the network first and falls back to the
// cache, so edits show up on reload.
//
// Every navigation (reload, a new tab, a share link, index.html by name) is
// answered with the page stored under the scope's own URL, "./". A
// response that came through a redirect is never stored as it is: the
// browser refuses a redirected response as the answer to a navigation.
"use strict";

const VERSION = "__DSIM_VERSION__";
const STAMPED = !VERSION.startsWith("__");
const CACHE = "dsim-site-" + VERSION;
const PAGE = "./";
const ASSETS = [PAGE, "style.css", "editor.js", "wasm_exec.js", "boot.js", "worker.js", "dsim.wasm"];

// An asset already in the cache was stored there by the page (boot.js
// hands over the dsim.wasm it downloaded, before registering this worker):
// it is not downloaded a second time.
self.addEventListener("install", (ev) => {
  ev.waitUntil(
    caches.open(CACHE)
      .then((cache) => Promise.all(ASSETS.map(async (a) => {
        const key = new URL(a, self.registration.scope).href;
        if (await cache.match(key)) return;
        const resp = await fromNetwork(cache, key, new Request(a, { cache: "reload" }), true);
        if (!resp.ok) throw new Error(`${a}: ${resp.status} ${resp.statusText}`);
      })))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (ev) => {
  ev.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("dsim-site-") && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (ev) => {
  const req = ev.request;
  const url = new URL(req.url);
  if (req.method !== "GET" || url.origin !== self.location.origin) return;
  const page = new URL(PAGE, self.registration.scope);
  if (req.mode === "navigate" && (url.pathname === page.pathname || url.pathname === page.pathname + "index.html")) {
    // The page itself, whatever its query or fragment, is "./"; it is
    // fetched as a plain request, which follows redirects.
    ev.respondWith(STAMPED ? cacheFirst(page.href, page.href) : networkFirst(page.href, page.href));
    return;
  }
  const key = url.origin + url.pathname;
  ev.respondWith(STAMPED ? cacheFirst(key, req) : networkFirst(key, req));
});

async function cacheFirst(key, req) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(key);
  if (hit && !hit.redirected) return hit;
  return fromNetwork(cache, key, req, false);
}

async function networkFirst(key, req) {
  const cache = await caches.open(CACHE);
  try {
    return await fromNetwork(cache, key, req, false);
  } catch (err) {
    const hit = await cache.match(key);
    if (hit && !hit.redirected) return hit;
    throw err;
  }
}

// fromNetwork fetches req and stores a good answer under key (wait: only
// once it is stored); any other answer, an error status say, goes back as
// it is and is not stored. An answer that followed a redirect is stored
// and returned as a fresh response with the same body and headers.
async function fromNetwork(cache, key, req, wait) {
  let resp = await fetch(req);
  if (!resp.ok || resp.type !== "basic") return resp;
  if (resp.redirected) {
    resp = new Response(await resp.blob(), { status: resp.status, statusText: resp.statusText, headers: resp.headers });
  }
  const stored = cache.put(key, resp.clone());
  if (wait) await stored;
  else stored.catch(() => {}); // a full disk: the page still gets its answer
  return resp;
}
