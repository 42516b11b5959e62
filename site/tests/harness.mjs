// The browser test harness: serves the built playground with `dsim serve`,
// drives Debian's Chromium through playwright-core, and keeps artifacts
// (screenshots, the page of a failed test) in build/test-artifacts/.
//
// A test file:
//
//   import { test, before, after } from "node:test";
//   import { playground } from "./harness.mjs";
//   const pg = playground();            // one server + browser per file
//   before(pg.start); after(pg.stop);
//   test("...", async (t) => { const page = await pg.open(t); ... });
//
// Run them with ./build.sh test (which builds first), or after ./build.sh with
// `node --test site/tests/`.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const site = join(root, "build/site");
export const cli = process.env.DSIM || join(root, "build/dsim");
export const artifacts = join(root, "build/test-artifacts");
const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";

// How long a test waits for the page to reach a state before failing. Not a
// performance assertion: generous, so that only a hang trips it.
export const patience = 30_000;

export function artifact(name) {
  mkdirSync(artifacts, { recursive: true });
  return join(artifacts, name);
}

// serve starts `dsim serve` on a free port and resolves to its base URL.
export function serve() {
  for (const f of [cli, join(site, "index.html"), join(site, "dsim.wasm")]) {
    if (!existsSync(f)) throw new Error(`${f} is missing: run ./build.sh first`);
  }
  const proc = spawn(cli, ["serve", "--port", "0", "--dir", site], { stdio: ["ignore", "pipe", "pipe"] });
  return new Promise((ok, fail) => {
    let out = "";
    let err = "";
    proc.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/http:\/\/127\.0\.0\.1:\d+\//);
      if (m) ok({ url: m[0], close: () => proc.kill() });
    });
    proc.stderr.on("data", (d) => (err += d));
    proc.on("exit", (code) => fail(new Error(`dsim serve exited with ${code}: ${err}`)));
  });
}

export async function launch(options = {}) {
  const profile = mkdtempSync(join(tmpdir(), "dsim-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    viewport: { width: 1280, height: 800 },
    ...options, // a phone: viewport, hasTouch, isMobile
    args: [
      "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ],
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

// playground gives a test file one server and one browser. open(t) loads
// the page in a fresh tab, waits until the UI is wired, and fails the test
// on any uncaught page error; a failed test leaves a screenshot named after
// it in build/test-artifacts/.
export function playground() {
  let server = null;
  let browser = null;
  const pg = {
    url: "",
    async start() {
      server = await serve();
      browser = await launch();
      pg.url = server.url;
    },
    async stop() {
      if (browser) await browser.close();
      if (server) server.close();
    },
    async open(t, { path = "", viewport } = {}) {
      const page = await browser.context.newPage();
      if (viewport) await page.setViewportSize(viewport);
      const errors = [];
      page.on("pageerror", (e) => errors.push(e.message));
      page.on("console", (m) => {
        // Failed loads are reported below, with their URL.
        if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) errors.push(m.text());
      });
      page.on("response", (r) => {
        // The browser asks for a favicon the page does not declare.
        if (r.status() >= 400 && !r.url().endsWith("/favicon.ico")) errors.push(`${r.status()} ${r.url()}`);
      });
      page.on("requestfailed", (r) => errors.push(`${r.failure()?.errorText} ${r.url()}`));
      t.after(async () => {
        // Closing the page cuts what it still loads short: not its error.
        const seen = errors.splice(0);
        if (seen.length) {
          t.diagnostic(`page errors: ${seen.join(" | ")}`);
        }
        if (page.isClosed()) return;
        const failed = t.passed === false || seen.length > 0;
        if (failed) await page.screenshot({ path: artifact(`failed-${slug(t.name)}.png`), fullPage: true });
        await page.close();
        if (seen.length) throw new Error(`the page reported errors: ${seen.join(" | ")}`);
      });
      await page.goto(pg.url + path);
      await uiReady(page);
      return page;
    },
  };
  return pg;
}

// uiReady waits for boot.js's mark (the wasm UI is wired) and for the
// engine worker to be up. A test that leaves the page earlier would cut the
// worker's scripts short, and the browser would report their loads as
// failed (net::ERR_ABORTED).
export async function uiReady(page) {
  await page.waitForFunction(
    () => (performance.getEntriesByName("dsim-ui-ready").length > 0 && document.body.dataset.engine === "ready") || document.body.dataset.run === "error",
    null,
    { timeout: patience },
  );
  const banner = await page.locator("#error").textContent();
  if (await page.evaluate(() => document.body.dataset.run === "error")) {
    throw new Error(`the playground did not start: ${banner}`);
  }
}

// runState waits until the page says the run is in state (done, error,
// idle, running).
export async function runState(page, state) {
  await page.waitForSelector(`body[data-run="${state}"]`, { state: "attached", timeout: patience });
}

// pickExample chooses an example from the menu by its path.
export async function pickExample(page, path) {
  await page.selectOption("#examples", path);
}

// runExample runs the example at path and waits until the run is done and
// its world is drawn on the diagram.
export async function runExample(page, path) {
  await pickExample(page, path);
  await page.click("#run");
  await runState(page, "done");
  await page.waitForFunction(() => document.querySelector("#diagram svg")?.hasAttribute("data-plot"), null, { timeout: patience });
}

function slug(s) {
  return s.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "").toLowerCase();
}
