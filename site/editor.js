// The editor bundle entry: CodeMirror 6 with Lua highlighting, bundled by
// esbuild (build.sh) into build/site/editor.js. The Go UI reaches the editor
// only through window.dsimEditor, so that this file is the one place that
// knows CodeMirror's API.
import { EditorView, basicSetup } from "codemirror";
import { StreamLanguage, syntaxTree } from "@codemirror/language";
import { lua } from "@codemirror/legacy-modes/mode/lua";
import { EditorState, StateEffect, StateField, RangeSet } from "@codemirror/state";
import { Decoration, GutterMarker, WidgetType, gutter } from "@codemirror/view";

// An error is one line and its message; null when there is none.
const setError = StateEffect.define();

const errorField = StateField.define({
  create: () => null,
  update(value, tr) {
    for (const e of tr.effects) if (e.is(setError)) return e.value;
    // An edit makes the message stale: the user is fixing it.
    return tr.docChanged ? null : value;
  },
});

// The failing expect() lines of the last run, [{line, msg}]; an edit
// clears them with the error.
const setFailures = StateEffect.define();

const failureField = StateField.define({
  create: () => [],
  update(value, tr) {
    for (const e of tr.effects) if (e.is(setFailures)) return e.value;
    return tr.docChanged ? [] : value;
  },
});

class ErrorMessage extends WidgetType {
  constructor(msg) {
    super();
    this.msg = msg;
  }
  eq(other) {
    return other.msg === this.msg;
  }
  toDOM() {
    const div = document.createElement("div");
    div.className = "cm-dsim-error-msg";
    div.setAttribute("role", "alert");
    div.textContent = this.msg; // script-derived: text only
    return div;
  }
}

// A gutter mark: a glyph in a class of its own.
class Marker extends GutterMarker {
  constructor(className, glyph) {
    super();
    this.className = className;
    this.glyph = glyph;
  }
  toDOM() {
    const span = document.createElement("span");
    span.className = this.className;
    span.textContent = this.glyph;
    return span;
  }
}
const errorMarker = new Marker("cm-dsim-error-marker", "●");
const failureMarker = new Marker("cm-dsim-fail-marker", "✗");

// lineOf clamps a 1-based line number to the document.
function lineOf(doc, n) {
  return doc.line(Math.min(Math.max(1, n | 0), doc.lines));
}

const errorDecorations = EditorView.decorations.compute([errorField], (state) => {
  const err = state.field(errorField);
  if (!err) return Decoration.none;
  const line = lineOf(state.doc, err.line);
  return Decoration.set([
    Decoration.line({ class: "cm-dsim-error-line", attributes: { "data-error-line": String(line.number) } }).range(line.from),
    Decoration.widget({ widget: new ErrorMessage(err.msg), block: true, side: 1 }).range(line.to),
  ]);
});

// A failing expect's line is tinted, and its message is the line's title
// (an attribute: script text never becomes markup).
const failureDecorations = EditorView.decorations.compute([failureField], (state) => {
  const lines = new Map();
  for (const f of state.field(failureField)) {
    const line = lineOf(state.doc, f.line);
    lines.set(line.from, [line, lines.has(line.from) ? lines.get(line.from)[1] + "\n" + f.msg : f.msg]);
  }
  return Decoration.set([...lines.values()].map(([line, msg]) =>
    Decoration.line({ class: "cm-dsim-fail-line", attributes: { "data-fail-line": String(line.number), title: msg } }).range(line.from)), true);
});

const errorGutter = gutter({
  class: "cm-dsim-error-gutter",
  markers(view) {
    const doc = view.state.doc;
    const marks = view.state.field(failureField).map((f) => failureMarker.range(lineOf(doc, f.line).from));
    const err = view.state.field(errorField);
    if (err) marks.push(errorMarker.range(lineOf(doc, err.line).from));
    return RangeSet.of(marks, true);
  },
});

const theme = EditorView.theme({
  "&": { height: "100%" },
  ".cm-scroller": { fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace" },
  ".cm-dsim-error-line": { backgroundColor: "rgba(220, 38, 38, 0.15)" },
  ".cm-dsim-error-marker": { color: "#dc2626" },
  ".cm-dsim-fail-line": { backgroundColor: "rgba(217, 119, 6, 0.15)" },
  ".cm-dsim-fail-marker": { color: "#b45309", fontWeight: "bold" },
  ".cm-dsim-error-msg": {
    color: "#991b1b",
    backgroundColor: "#fef2f2",
    borderLeft: "3px solid #dc2626",
    padding: "2px 6px",
    whiteSpace: "pre-wrap",
  },
});

// The API names the Go side passes once (setCompletions), by where they
// are offered: methods after "x:", algorithm names inside the string of
// `algorithm = "`, everything else (functions, world keys) as a name.
const completions = { methods: [], algorithms: [], names: [] };

// inside tells whether pos is in a string or a comment, where a name is
// text, not code.
function inside(state, pos) {
  const name = syntaxTree(state).resolveInner(pos, -1).name;
  return name === "string" || name === "comment";
}

function complete(ctx) {
  const line = ctx.state.doc.lineAt(ctx.pos);
  const before = line.text.slice(0, ctx.pos - line.from);
  let m = /\balgorithm\s*=\s*["']([\w.]*)$/.exec(before);
  if (m) return { from: ctx.pos - m[1].length, options: completions.algorithms, validFor: /^[\w.]*$/ };
  if (inside(ctx.state, ctx.pos)) return null;
  m = /[\w)\]]:(\w*)$/.exec(before);
  if (m) return { from: ctx.pos - m[1].length, options: completions.methods, validFor: /^\w*$/ };
  m = /[\w.]*$/.exec(before);
  if (!m[0] && !ctx.explicit) return null;
  return { from: ctx.pos - m[0].length, options: completions.names, validFor: /^[\w.]*$/ };
}

let view = null;

function need() {
  if (!view) throw new Error("dsimEditor: create() was not called");
  return view;
}

window.dsimEditor = {
  create(el, text, onChange) {
    if (view) view.destroy();
    view = new EditorView({
      parent: el,
      doc: text || "",
      extensions: [
        basicSetup,
        StreamLanguage.define(lua),
        EditorState.languageData.of(() => [{ autocomplete: complete }]),
        errorField,
        errorDecorations,
        failureField,
        failureDecorations,
        errorGutter,
        theme,
        EditorView.updateListener.of((u) => {
          if (u.docChanged && onChange) onChange(u.state.doc.toString());
        }),
      ],
    });
    this.view = view;
  },
  getText() {
    return need().state.doc.toString();
  },
  setText(t) {
    const v = need();
    v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: t || "" }, effects: setError.of(null) });
  },
  markError(line, msg) {
    const v = need();
    const pos = lineOf(v.state.doc, line).from;
    v.dispatch({ effects: [setError.of({ line, msg: String(msg) }), EditorView.scrollIntoView(pos, { y: "center" })] });
  },
  clearError() {
    need().dispatch({ effects: [setError.of(null), setFailures.of([])] });
  },
  // markFailures marks the lines of failing checks: [{line, msg}].
  markFailures(list) {
    const fails = [];
    for (let i = 0; i < (list?.length || 0); i++) fails.push({ line: list[i].line | 0, msg: String(list[i].msg) });
    need().dispatch({ effects: setFailures.of(fails) });
  },
  // gotoLine puts the cursor at the start of line n, in view, and focuses.
  gotoLine(n) {
    const v = need();
    const pos = lineOf(v.state.doc, n).from;
    v.dispatch({ selection: { anchor: pos }, effects: EditorView.scrollIntoView(pos, { y: "center" }) });
    v.focus();
  },
  focus() {
    need().focus();
  },
  // setCompletions gives the completion its words: [{label, type, detail,
  // info}], type "method" for methods, "constant" for algorithm names,
  // anything else for names offered in code. Text only: CodeMirror shows
  // label, detail and a string info as text.
  setCompletions(list) {
    for (const k of Object.keys(completions)) completions[k] = [];
    for (let i = 0; i < (list?.length || 0); i++) {
      const c = list[i];
      const item = { label: String(c.label), type: String(c.type), detail: String(c.detail || ""), info: String(c.info || "") };
      (item.type === "method" ? completions.methods : item.type === "constant" ? completions.algorithms : completions.names).push(item);
    }
  },
  view: null,
};
