// Starts the playground: compiles dsim.wasm once, runs it on the page (UI
// mode: it finds a document) and leaves the compiled module in
// globalThis.dsimModule for the engine workers the UI starts.
"use strict";
(async () => {
  try {
    const module = await compile("dsim.wasm");
    globalThis.dsimModule = module;
    const go = new Go();
    const instance = await WebAssembly.instantiate(module, go.importObject);
    go.run(instance); // returns once the UI is wired and main blocks
    performance.mark("dsim-ui-ready");
  } catch (err) {
    const banner = document.getElementById("error");
    banner.textContent = "The playground could not start: " + (err && err.message || err);
    banner.hidden = false;
    document.body.dataset.run = "error";
  }
})();

// compile streams the module when the server sends application/wasm, and
// falls back to a plain download for servers that do not.
async function compile(url) {
  try {
    return await WebAssembly.compileStreaming(fetch(url));
  } catch (err) {
    const resp = await fetch(url);
    if (!resp.ok) throw new Error(`${url}: ${resp.status} ${resp.statusText}`);
    return WebAssembly.compile(await resp.arrayBuffer());
  }
}
