// The editor bundle's contract (window.dsimEditor, site/editor.js): Lua
// highlighting, an error mark on a line with its message as text, and the
// mark gone once the user edits.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { playground } from "./harness.mjs";

const pg = playground();
before(pg.start);
after(pg.stop);

test("markError marks the line with the message as text; an edit clears it", async (t) => {
  const page = await pg.open(t);
  await page.evaluate(() => dsimEditor.setText('local x = 1\nerror("<b>boom</b>")\nprint(x)\n'));
  // Highlighting: the Lua mode gives the keyword and the string their own spans.
  assert.ok(await page.locator("#editor .cm-line span", { hasText: "local" }).count() > 0, "no highlighted keyword");

  await page.evaluate(() => dsimEditor.markError(2, 'scenario.lua:2: <b>boom</b>'));
  const marked = page.locator("#editor .cm-dsim-error-line");
  assert.equal(await marked.count(), 1);
  assert.equal(await marked.getAttribute("data-error-line"), "2");
  assert.equal(await marked.textContent(), 'error("<b>boom</b>")');
  const msg = page.locator("#editor .cm-dsim-error-msg");
  assert.equal(await msg.textContent(), "scenario.lua:2: <b>boom</b>");
  assert.equal(await msg.locator("b").count(), 0, "the message was parsed as HTML");
  assert.equal(await page.locator("#editor .cm-dsim-error-marker").count(), 1);

  // A line past the end marks the last line rather than failing.
  await page.evaluate(() => dsimEditor.markError(99, "at the end"));
  assert.equal(await marked.getAttribute("data-error-line"), "4");

  await page.locator("#editor .cm-content").click();
  await page.keyboard.type("-- fixed ");
  assert.equal(await marked.count(), 0, "the mark stays after an edit");
  assert.equal(await msg.count(), 0);

  await page.evaluate(() => dsimEditor.markError(1, "again"));
  await page.evaluate(() => dsimEditor.clearError());
  assert.equal(await marked.count(), 0);
});

test("getText returns exactly what setText put", async (t) => {
  const page = await pg.open(t);
  const text = "-- é ✓ \u{1F600}\nprint('x')\n";
  await page.evaluate((s) => dsimEditor.setText(s), text);
  assert.equal(await page.evaluate(() => dsimEditor.getText()), text);
});
