// The playground's service worker: once the page has loaded, it works
// offline. The site's own files are served cache-first from a cache named
// after the build; a new build (a new VERSION, stamped by build.sh) installs
// a fresh cache and deletes the old ones.
//
// An unstamped copy (VERSION still holds the placeholder, e.g. site/ served
// as-is while developing) goes to the network first and falls back to the
// cache, so edits show up on reload.
"use strict";

const VERSION = "__DSIM_VERSION__";
const STAMPED = !VERSION.startsWith("__");
const CACHE = "dsim-site-" + VERSION;
const ASSETS = ["./", "index.html", "style.css", "editor.js", "wasm_exec.js", "boot.js", "worker.js", "dsim.wasm"];

self.addEventListener("install", (ev) => {
  ev.waitUntil(
    caches.open(CACHE)
      .then((c) => c.addAll(ASSETS.map((a) => new Request(a, { cache: "reload" }))))
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
  // The page itself, whatever its query or fragment, is index.html.
  const key = req.mode === "navigate" ? new URL("index.html", self.registration.scope).href : url.origin + url.pathname;
  ev.respondWith(STAMPED ? cacheFirst(key, req) : networkFirst(key, req));
});

async function cacheFirst(key, req) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(key);
  if (hit) return hit;
  const resp = await fetch(req);
  if (resp.ok && resp.type === "basic") cache.put(key, resp.clone());
  return resp;
}

async function networkFirst(key, req) {
  const cache = await caches.open(CACHE);
  try {
    const resp = await fetch(req);
    if (resp.ok && resp.type === "basic") cache.put(key, resp.clone());
    return resp;
  } catch (err) {
    const hit = await cache.match(key);
    if (hit) return hit;
    throw err;
  }
}
