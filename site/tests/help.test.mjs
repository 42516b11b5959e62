// The Help panel and the editor's completion: the intro opens by itself on
// a first visit only and Help brings it back; the API search filters the
// entries, which are the names of the CLI's reference (docs/reference.md,
// `dsim api`), shown as text; the editor completes methods after "w:" and
// algorithm names inside `algorithm = "`.
//
// The tests share one browser profile, so they run in order: the first is
// the first visit.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { playground, artifact, root, uiReady } from "./harness.mjs";

const pg = playground();
before(pg.start);
after(pg.stop);

// reference is docs/reference.md's names by section: the functions
// ("sim.world", "report"), the world and node methods as the page writes
// them ("w:crash", "node:up"), the world keys and the algorithms.
function reference() {
  const md = readFileSync(join(root, "docs/reference.md"), "utf8");
  const section = (title) => md.split("\n## " + title + "\n")[1].split("\n## ")[0];
  const headings = (text) => [...text.matchAll(/^### `([\w.:]+)/gm)].map((m) => m[1]);
  const keys = section("World keys").split("\n### ")[0];
  return {
    functions: headings(section("Globals")).filter((n) => n !== "sim.seed"),
    methods: [...headings(section("World methods")), ...headings(section("Node methods"))],
    keys: [...keys.matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1]),
    algorithms: headings(section("Algorithms")),
  };
}

const help = "#help";
const shownNames = (page) => page.locator("#help-list li:not([hidden]) .name").allTextContents();

test("the intro shows on a first visit, not once closed; Help opens it again", async (t) => {
  const page = await pg.open(t);
  assert.ok(await page.locator(help).isVisible(), "no intro on a first visit");
  assert.match(await page.locator(help).textContent(), /Run[\s\S]*Ctrl[\s\S]*Enter/);
  assert.equal(await page.locator("#help-open").getAttribute("aria-expanded"), "true");
  await page.screenshot({ path: artifact("help-intro-1280.png") });
  // Two lines, its steps behind "more", so that the playground stays in
  // view below it.
  const steps = page.locator("#help-steps");
  assert.ok(!(await steps.isVisible()), "the steps show before asked for");
  await page.setViewportSize({ width: 1440, height: 900 });
  const { height } = await page.locator(help).boundingBox();
  assert.ok(height < 80, `the intro is ${height} px high at 1440 px`);
  await page.click("#help-more");
  assert.ok(await steps.isVisible(), "more does not show the steps");
  assert.equal(await page.locator("#help-more").getAttribute("aria-expanded"), "true");
  assert.match(await steps.textContent(), /causal past and future/);
  await page.click("#help-more");
  assert.ok(!(await steps.isVisible()), "less does not hide the steps");

  await page.click("#help-close");
  assert.ok(!(await page.locator(help).isVisible()), "the intro stays after closing");
  await page.reload();
  await uiReady(page);
  assert.ok(!(await page.locator(help).isVisible()), "the intro came back after a reload");
  assert.equal(await page.locator("#help-open").getAttribute("aria-expanded"), "false");

  await page.click("#help-open");
  assert.ok(await page.locator(help).isVisible(), "Help does not open the panel");
  assert.ok(await page.locator("#help-search").evaluate((e) => e === document.activeElement), "the search has no focus");
  await page.click("#help-open");
  assert.ok(!(await page.locator(help).isVisible()), "Help does not close the panel");
});

test("the search filters the API entries, shown as text", async (t) => {
  const page = await pg.open(t, { viewport: { width: 1440, height: 900 } });
  await page.click("#help-open");
  assert.ok(!(await page.locator("#help-list").isVisible()), "entries listed before a search");

  await page.fill("#help-search", "partition");
  const names = await shownNames(page);
  assert.ok(names.includes("w:partition"), `w:partition is not among ${names}`);
  assert.ok(!names.includes("w:run") && !names.includes("sim.world"), `unrelated entries: ${names}`);
  const all = await page.locator("#help-list li").count();
  assert.ok(names.length < all / 4, `${names.length} of ${all} entries match "partition"`);
  assert.equal(await page.locator("#help-count").textContent(), `${names.length} of ${all}`);

  // every word must match, in any case
  await page.fill("#help-search", "W:PARTITION ids");
  assert.deepEqual(await shownNames(page), ["w:partition"]);
  const entry = page.locator("#help-list li:not([hidden])");
  assert.equal(await entry.locator(".sig").textContent(), "(ids, ids, ...)");
  assert.match(await entry.locator(".doc").textContent(), /\S/);

  // an algorithm is found by its config keys; its doc lists them
  await page.fill("#help-search", "election.bully");
  const bully = page.locator("#help-list li:not([hidden])", { has: page.locator(".name", { hasText: /^election\.bully$/ }) });
  assert.match(await bully.locator(".sig").textContent(), /^config: /);
  assert.match(await bully.locator(".doc").textContent(), /\nconfig \w+ \(/);

  // docs quote code such as <id>: text, never markup
  assert.equal(await page.locator("#help-list li > *").count(), 4 * all);
  assert.equal(await page.locator("#help-list li * *").count(), 0, "an entry's text became markup");

  await page.fill("#help-search", "partition");
  await page.screenshot({ path: artifact("help-1440.png") });
  await page.fill("#help-search", "");
  assert.ok(!(await page.locator("#help-list").isVisible()), "entries listed after the search was cleared");
});

test("the entries are the names of the CLI's reference", async (t) => {
  const page = await pg.open(t);
  await page.click("#help-open");
  await page.fill("#help-search", "x"); // the list is made at the first search
  const entries = await page.locator("#help-list li").evaluateAll((lis) =>
    lis.map((li) => ({ kind: li.querySelector(".kind").textContent, name: li.querySelector(".name").textContent })),
  );
  const of = (...kinds) => entries.filter((e) => kinds.includes(e.kind)).map((e) => e.name);
  const ref = reference();
  assert.ok(ref.functions.includes("report") && ref.methods.includes("w:crash") && ref.keys.includes("algorithm"), "docs/reference.md did not parse");
  assert.deepEqual(of("function"), ref.functions);
  assert.deepEqual(of("world method", "node method"), ref.methods);
  assert.deepEqual(of("world key"), ref.keys);
  assert.deepEqual(of("algorithm"), ref.algorithms);
});

// completions types text in an empty editor and returns the labels the
// completion offers.
async function completions(page, text) {
  await page.evaluate(() => dsimEditor.setText(""));
  await page.locator("#editor .cm-content").click();
  await page.keyboard.type(text);
  const options = page.locator(".cm-tooltip-autocomplete .cm-completionLabel");
  await options.first().waitFor();
  return options.allTextContents();
}

test("the editor completes methods, API names and algorithms", async (t) => {
  const page = await pg.open(t);
  const methods = await completions(page, "w:cr");
  assert.ok(methods.includes("crash"), `w:cr offers ${methods}`);
  const algorithms = await completions(page, 'local w = sim.world{algorithm = "election.b');
  assert.ok(algorithms.includes("election.bully"), `algorithm = "election.b offers ${algorithms}`);
  assert.ok(algorithms.every((a) => a.startsWith("election.")), `algorithm = "election.b offers ${algorithms}`);
  const names = await completions(page, "sim.wo");
  assert.ok(names.includes("sim.world"), `sim.wo offers ${names}`);
  const keys = await completions(page, "sim.world{max_ev");
  assert.ok(keys.includes("max_events"), `max_ev offers ${keys}`);
  // the detail says which method it is, as text
  await completions(page, "w:parti");
  assert.equal(await page.locator(".cm-tooltip-autocomplete .cm-completionDetail").first().textContent(), "w:partition(ids, ids, ...)");
});
