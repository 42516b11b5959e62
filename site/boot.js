// Starts the playground: downloads dsim.wasm once, compiling it while it
// arrives, runs it on the page (UI mode: it finds a document) and leaves the
// compiled module in globalThis.dsimModule for the engine workers the UI
// starts.
//
// Until the UI is wired, #loading shows how much of the wasm has arrived,
// and the controls that need it (index.html marks them data-needs-engine)
// are disabled, so that a click is visibly refused rather than swallowed.
//
// On a first visit the page's download is also handed to the service
// worker's cache for this build, and only then is the service worker
// registered: its install finds the wasm there and does not download it a
// second time.
"use strict";

// sw.js's cache for this build, and the size of dsim.wasm before any
// Content-Encoding: both stamped by build.sh. Unstamped (site/ served
// as-is), the size is unknown and the progress shows megabytes.
const CACHE = "dsim-site-__DSIM_VERSION__";
const WASM_BYTES = Number("__DSIM_WASM_BYTES__");

(async () => {
  let stored = Promise.resolve();
  try {
    const resp = await fetch("dsim.wasm");
    if (!resp.ok) throw new Error(`dsim.wasm: ${resp.status} ${resp.statusText}`);
    stored = handOff(resp);
    const module = await WebAssembly.compileStreaming(counted(resp));
    globalThis.dsimModule = module;
    const go = new Go();
    const instance = await WebAssembly.instantiate(module, go.importObject);
    // Before the UI is wired, so that a control the UI disables stays so.
    loaded(true);
    go.run(instance); // returns once the UI is wired and main blocks
    performance.mark("dsim-ui-ready");
  } catch (err) {
    loaded(false);
    const banner = document.getElementById("error");
    banner.textContent = "The playground could not start: " + (err && err.message || err);
    banner.hidden = false;
    document.body.dataset.run = "error";
    return;
  }
  await stored;
  registerServiceWorker();
})();

// handOff stores a copy of the page's own download in the service worker's
// cache for this build; it resolves once that is done or has failed (a
// full disk: the service worker then downloads the wasm itself). A page
// that a service worker already controls got its wasm from that cache.
function handOff(resp) {
  if (!self.caches || navigator.serviceWorker?.controller || resp.redirected || resp.type !== "basic") {
    return Promise.resolve();
  }
  const copy = resp.clone();
  return caches.open(CACHE).then((c) => c.put(resp.url, copy)).catch(() => {});
}

// counted passes the body of resp on while #loading shows how much has
// arrived. The answer says application/wasm itself, which streaming
// compilation needs and not every server sends.
function counted(resp) {
  const encoded = resp.headers.has("Content-Encoding");
  const total = WASM_BYTES > 0 ? WASM_BYTES : (!encoded && Number(resp.headers.get("Content-Length"))) || 0;
  const bar = document.getElementById("loading-bar");
  const text = document.getElementById("loading-text");
  let got = 0;
  let shown = "";
  const body = resp.body.pipeThrough(new TransformStream({
    transform(chunk, out) {
      got += chunk.byteLength;
      let msg;
      if (total > 0) {
        const pct = Math.min(100, Math.floor(100 * got / total));
        bar.value = pct;
        msg = `Loading the engine… ${pct}%`;
      } else {
        msg = `Loading the engine… ${(got / 1e6).toFixed(1)} MB`;
      }
      if (msg !== shown) text.textContent = shown = msg;
      out.enqueue(chunk);
    },
  }));
  return new Response(body, { headers: { "Content-Type": "application/wasm" } });
}

// loaded hides #loading and enables the controls that waited for the
// engine (ok), or leaves them disabled for good.
function loaded(ok) {
  document.getElementById("loading").hidden = true;
  for (const el of document.querySelectorAll("[data-needs-engine]")) el.disabled = !ok;
}

function registerServiceWorker() {
  if (!navigator.serviceWorker || !location.protocol.startsWith("http")) return;
  // Offline use is a bonus: a failure to register changes nothing else.
  navigator.serviceWorker.register("sw.js").catch(() => {});
}
