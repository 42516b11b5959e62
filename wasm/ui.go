//go:build js && wasm

package main

// The playground's page: it wires the static skeleton of site/index.html
// (the element ids are the contract in notes/playground-dom.md), sends
// scenarios to the engine worker, and renders everything from the trace the
// engine returns: the topology, the space-time diagram, the event log and
// the panels, at the event the time-travel cursor points to.

import (
	"fmt"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"dsim/core/trace"
	"dsim/scripts"
	"dsim/wasm/layout"
	"dsim/wasm/overview"
	"dsim/wasm/replay"
	"dsim/wasm/share"
	"dsim/wasm/spacetime"
)

const (
	storeScenario = "dsim.scenario"
	// storePrevious keeps the user's scenario that a share link replaced;
	// storeShared is that link's scenario, which is nobody's work to keep
	// when the next link replaces it unchanged.
	storePrevious = "dsim.scenario.previous"
	storeShared   = "dsim.scenario.shared"
	scenarioName  = "scenario.lua"
	// snapshotEvery is the replay's snapshot interval: seeking replays at
	// most this many events.
	snapshotEvery = 512
	// nodesPerStep is how many processes the topology draws at a time, and
	// drawSlice how long it keeps drawing in one task, in milliseconds.
	// Every task ends in a frame whose style and layout cover all the
	// processes drawn so far: drawing a fixed few per task made a world of
	// 20,000 processes take 30 s, a slice of time takes a few dozen frames.
	nodesPerStep = 60
	drawSlice    = 12
	// indexPerStep is how many events the trace's and the diagram's
	// indexes take at a time, a millisecond or so, between two looks at
	// the clock: at once, a world of 100,000 events would hold the page
	// for a tenth of a second, more on a slow machine.
	indexPerStep = 2000
)

// fallbackScenario is the editor's text when nothing is stored and no
// example ships.
const fallbackScenario = `-- A scenario: build a world, schedule things, run, check.
local w = sim.world{algorithm = sim.algorithms()[1], n = 5}
w:run()
print(w:stats().events, "events")
`

// app is the page's state.
type app struct {
	editor   js.Value // window.dsimEditor
	eng      *Engine
	examples []scripts.Example

	result *RunResult
	// worlds has one entry per world of the run, its header from the
	// result's summary; a world's events come from the engine the first
	// time it is shown (loaded).
	worlds []trace.World
	loaded []bool
	// windows is, per world above drawLimit, the bounds of the window the
	// page holds (see windowEvents), and want the window it asks for next.
	windows []span
	want    []pageWindow
	// overviews are the whole worlds' overview grids the strip shows for a
	// world read in windows, once the engine has counted them.
	overviews []*overview.Grid
	// first is the number of events of the world shown that come before
	// the window, its prelude: the cursor stays after them. 0 for a whole
	// world.
	first int
	world int // index into worlds of the world shown
	// checkRows are the checks panel's items, which follow the cursor.
	checkRows []checkRow
	r         *replay.Replay
	dia       *spacetime.Diagram
	lay       layout.Layout
	cursor    int     // events applied
	viewT     float64 // time shown (between events while playing)
	selected  int     // selected event, or -1
	past      []bool
	future    []bool

	gen         int  // counts showWorld calls, so a superseded one stops
	loading     bool // a world is being drawn: the timeline waits
	playing     bool
	lastTick    float64
	phase       float64 // playing by events: the way to the next event, 0..1
	stopReading func()  // ends the reading of a trace in progress
	forking     bool
	frame       *frameScheduler
	sharing     bool   // a share link is shown
	shareText   string // the scenario it carries
	// ran is the request of the last run: a share link made while its
	// trace is shown carries its seed and the moment looked at.
	ran RunRequest
	// moment is the moment a share link asks for, shown once the run it
	// started is drawn.
	moment *share.Link

	topo    *topoView
	rel     *relView
	diagram *diagramView
	log     *logView
	chart   *chartView
	states  stateTable
	// stateAll shows every process in the state table, not the first
	// maxStateRows.
	stateAll bool

	el struct {
		run, stop, play, pause, step, back, fork dom.Element
		scrubber, time, speed, speedLabel, seed  dom.Element
		pace, replay                             dom.Element
		window, windowText, windowPrev           dom.Element
		windowNext                               dom.Element
		world, progress, progressText, summary   dom.Element
		forkHint, errorBanner, status, output    dom.Element
		diagramBox                               dom.Element
		examples, desc, shareURL, jsonl, shiviz  dom.Element
		state, stats, checks, sharedNote         dom.Element
		restoreDraft                             dom.Element
		draftGroup                               dom.Element // "Your drafts" in the examples menu, or nil
	}
}

func startUI() {
	// Reading and indexing a long trace allocates a lot, and every
	// collection stops the page: collect less often, but not past 1 GiB.
	debug.SetGCPercent(300)
	debug.SetMemoryLimit(1 << 30)
	window = dom.GetWindow()
	doc = window.Document()
	body = doc.(dom.HTMLDocument).Body()
	a := &app{selected: -1}
	a.bind()
	panicked = func(msg string) {
		a.showError("Something went wrong inside the playground (" + msg + "). Run again, or reload the page; your scenario is kept.")
		a.setRunState("error")
	}
	a.frame = newFrameScheduler(a.onFrame)
	a.topo = newTopoView(a, byID("topology"))
	a.el.diagramBox = byID("diagram")
	a.diagram = newDiagramView(a, a.el.diagramBox)
	a.log = newLogView(a, byID("log"), byID("log-scroll"), byID("log-filters"))
	a.chart = newChartView(a)
	a.rel = newRelView(func() { a.refresh() })
	a.eng = NewEngine(EngineHandlers{Ready: a.onEngineReady, Progress: a.onProgress, Result: a.onResult})
	a.loadExamples()
	a.startEditor()
	startHelp(a.editor)
	a.wireControls()
	a.wireKeys()
	a.setRunState("idle") // before a share link's run, which is running
	a.loadShareLink()
	on(js.Global(), "hashchange", func(js.Value) { a.loadShareLink() })
	idle(warmUp)
}

// idle runs fn when the browser has nothing better to do.
func idle(fn func()) {
	var f js.Func
	f = callback(func(js.Value, []js.Value) any {
		f.Release()
		fn()
		return nil
	})
	if ric := js.Global().Get("requestIdleCallback"); ric.Truthy() {
		ric.Invoke(f, map[string]any{"timeout": 2000})
	} else {
		js.Global().Call("setTimeout", f, 500)
	}
}

// warmCopies is how many times warmUp repeats warmSample.
const warmCopies = 400

// warmSample is a small trace with an event of every kind the page meets.
const warmSample = `{"type":"world","schema":1,"world":1,"algorithm":"a.b","seed":1,"topology":"ring","ids":[1,2],"adj":[[2],[1]],"arity":0,"cols":0,"config":{"k":1}}
{"t":0,"seq":0,"type":"state","node":1,"local":0,"key":"role","old":null,"value":"leader"}
{"t":0,"seq":1,"type":"send","node":1,"local":0,"from":1,"to":2,"kind":"M","id":1,"msg":{"a":[1,"x"],"b":true}}
{"t":1,"seq":2,"type":"deliver","node":2,"local":1,"from":1,"to":2,"kind":"M","id":1,"msg":{"a":[1,"x"],"b":true}}
{"t":1,"seq":3,"type":"timer","node":2,"local":1,"tag":"T"}
{"t":2,"seq":4,"type":"crash","node":2,"local":2}
{"t":2,"seq":5,"type":"drop","node":1,"local":2,"from":1,"to":2,"kind":"M","id":2,"msg":{},"reason":"loss"}
{"t":3,"seq":6,"type":"log","text":"x","line":3}
{"t":3,"seq":7,"type":"check","pass":true,"text":"ok","line":4}
`

// warmUp runs the trace reading and indexing code on a small trace, in
// idle tasks: WebAssembly code is compiled when first called, and that cost
// is better paid while the user reads the page than on the first run.
//
// The sample is repeated into a few thousand events: V8 first runs
// WebAssembly from quickly made code and swaps in optimized code only for
// later calls of a function that ran long enough, so indexing a trace, one
// long call per world, would run the slow code on the user's first run.
func warmUp() {
	var w *trace.World
	var r *replay.Replay
	var d *spacetime.Diagram
	steps := []func() bool{ // false: stop
		func() bool {
			ws, err := trace.ReadJSONL(strings.NewReader(warmSample))
			if err != nil || len(ws) == 0 {
				return false
			}
			w = &ws[0]
			sample := w.Events
			for k := 1; k < warmCopies; k++ {
				for _, e := range sample {
					e.Seq += uint64(k * len(sample))
					e.T += int64(k * 3)
					if e.MsgID != 0 {
						e.MsgID += uint64(k)
					}
					w.Events = append(w.Events, e)
				}
			}
			return true
		},
		func() bool { r = replay.New(w, snapshotEvery); return true },
		func() bool { d = spacetime.New(r); return true },
		func() bool {
			v := d.Fit(40, 400, 20, 200)
			d.Draw(&v, &spacetime.Marks{Cursor: len(r.Events), Selected: 2})
			return true
		},
		func() bool { r.Causal(2); return true },
		func() bool { layout.New(&r.Header, r.Nodes); return true },
	}
	var next func(k int)
	next = func(k int) {
		start := now()
		more := steps[k]()
		measure("warm up", start)
		if more && k+1 < len(steps) {
			idle(func() { next(k + 1) })
		}
	}
	next(0)
}

func (a *app) bind() {
	e := &a.el
	for _, b := range []struct {
		p  *dom.Element
		id string
	}{
		{&e.run, "run"}, {&e.stop, "stop"}, {&e.play, "play"}, {&e.pause, "pause"}, {&e.step, "step"},
		{&e.back, "step-back"}, {&e.fork, "fork"}, {&e.scrubber, "scrubber"}, {&e.time, "time"},
		{&e.speed, "speed"}, {&e.speedLabel, "speed-label"}, {&e.seed, "seed"}, {&e.world, "world"},
		{&e.progress, "progress"}, {&e.progressText, "progress-text"}, {&e.summary, "summary"},
		{&e.forkHint, "fork-hint"}, {&e.errorBanner, "error"}, {&e.status, "status"}, {&e.output, "output"},
		{&e.examples, "examples"}, {&e.desc, "example-desc"}, {&e.shareURL, "share-url"},
		{&e.jsonl, "download-jsonl"}, {&e.shiviz, "download-shiviz"},
		{&e.state, "state"}, {&e.stats, "stats"}, {&e.checks, "checks"}, {&e.sharedNote, "shared-note"},
		{&e.restoreDraft, "restore-draft"}, {&e.pace, "pace"}, {&e.replay, "replay"},
		{&e.window, "window"}, {&e.windowText, "window-text"}, {&e.windowPrev, "window-prev"}, {&e.windowNext, "window-next"},
	} {
		*b.p = byID(b.id)
	}
}

// --- messages to the user

func (a *app) showError(msg string) {
	a.el.errorBanner.SetTextContent(msg)
	show(a.el.errorBanner, msg != "")
}

func (a *app) showStatus(msg string) { a.el.status.SetTextContent(msg) }

func (a *app) setRunState(s string) {
	body.Underlying().Get("dataset").Set("run", s)
	running := s == "running"
	setDisabled(a.el.stop, !running)
	show(a.el.progress, running)
	// a run shows its end; a new user may not know it can be played
	show(a.el.replay, s == "done" && len(a.worldEvents()) > 0)
	if !running {
		a.el.progressText.SetTextContent("")
	}
}

// --- storage

func storage() js.Value {
	// localStorage throws in some privacy modes; the page works without it.
	defer func() { recover() }()
	return js.Global().Get("localStorage")
}

func loadStored(key string) (string, bool) {
	s := storage()
	if !s.Truthy() {
		return "", false
	}
	v := s.Call("getItem", key)
	if v.Type() != js.TypeString {
		return "", false
	}
	return v.String(), true
}

func store(key, v string) {
	defer func() { recover() }() // quota exceeded: keep going
	if s := storage(); s.Truthy() {
		s.Call("setItem", key, v)
	}
}

func forget(key string) {
	if s := storage(); s.Truthy() {
		s.Call("removeItem", key)
	}
}

// --- examples and editor

func (a *app) loadExamples() {
	exs, err := scripts.List()
	if err != nil {
		a.showError("The examples could not be read: " + err.Error())
	}
	a.examples = exs
	// the description shows two lines; a click (or Enter), all of it
	d := a.el.desc
	d.SetAttribute("title", "Click to read it all")
	d.SetAttribute("tabindex", "0")
	d.SetAttribute("role", "button")
	d.SetAttribute("aria-expanded", "false")
	toggle := func() {
		d.Class().Toggle("open")
		d.SetAttribute("aria-expanded", fmt.Sprint(d.Class().Contains("open")))
	}
	onClick(d, toggle)
	on(d.Underlying(), "keydown", func(ev js.Value) {
		if k := ev.Get("key").String(); k == "Enter" || k == " " {
			ev.Call("preventDefault")
			toggle()
		}
	})
	menu := a.el.examples
	var group dom.Element
	family := ""
	for _, ex := range exs {
		if group == nil || ex.Family != family {
			family = ex.Family
			group = el("optgroup", "", "")
			group.SetAttribute("label", family)
			menu.AppendChild(group)
		}
		o := el("option", "", ex.Title)
		o.SetAttribute("value", ex.Path)
		o.SetAttribute("title", ex.Description)
		group.AppendChild(o)
	}
	on(menu.Underlying(), "change", func(js.Value) {
		path := value(menu)
		if k, ok := draftIndex(path); ok {
			a.restoreDraft(k)
			return
		}
		ex := a.example(path)
		if ex == nil {
			a.followText()
			return
		}
		// The user's text is kept before the example replaces it, in the
		// editor and in storage (see ui_drafts.go). setText is one editor
		// transaction: Ctrl+Z brings the previous scenario back as well.
		kept := a.keepDraft(a.text())
		a.setText(ex.Source)
		msg := "Loaded the example " + ex.Path + ". Press Run (Ctrl+Enter)."
		if kept {
			msg += " Your edited scenario is kept: “Restore your draft” brings it back."
		}
		a.showStatus(msg)
	})
}

func (a *app) example(path string) *scripts.Example {
	for i := range a.examples {
		if a.examples[i].Path == path {
			return &a.examples[i]
		}
	}
	return nil
}

func (a *app) startEditor() {
	a.editor = js.Global().Get("dsimEditor")
	text, ok := loadStored(storeScenario)
	if !ok {
		// First visit: the first example, preferably the bully textbook one.
		ex := a.example("election/bully-textbook.lua")
		if ex == nil && len(a.examples) > 0 {
			ex = &a.examples[0]
		}
		text = fallbackScenario
		if ex != nil {
			text = ex.Source
		}
	}
	save := debounce(300, func() {
		store(storeScenario, a.text())
		a.followText()
	})
	a.editor.Call("create", byID("editor").Underlying(), text, callback(func(js.Value, []js.Value) any {
		save()
		a.forgetShareLink()
		return nil
	}))
	a.followText()
}

func (a *app) text() string { return a.editor.Call("getText").String() }

// setText replaces the scenario and stores it at once.
func (a *app) setText(s string) {
	a.editor.Call("setText", s)
	store(storeScenario, s)
	a.followText()
}

// --- share links

func (a *app) loadShareLink() {
	hash := window.Location().Hash()
	if hash == "" {
		return
	}
	link, err := share.Decode(hash)
	if err == share.ErrNoScenario {
		return
	}
	// The fragment has done its job; a reload now shows the stored
	// scenario, which includes any edits made since.
	js.Global().Get("history").Call("replaceState", nil, "", window.Location().Pathname()+window.Location().Search())
	if err != nil {
		a.showError("This share link cannot be opened: " + err.Error() + ". Your saved scenario is unchanged.")
		return
	}
	src := link.Script
	// The scenario stored is the user's work, unless it is the scenario of
	// the last link opened, unchanged.
	mine, _ := loadStored(storeScenario)
	if shared, _ := loadStored(storeShared); mine != "" && mine != src && mine != shared {
		store(storePrevious, mine)
	}
	store(storeShared, src)
	a.setText(src)
	// The seed box says what the link's run used: its seed, or (empty)
	// the script's own.
	seed := ""
	if link.SeedSet {
		seed = strconv.FormatUint(link.Seed, 10)
	}
	setValue(a.el.seed, seed)
	prev, kept := loadStored(storePrevious)
	show(a.el.sharedNote, kept && prev != src)
	if !link.Moment {
		a.showStatus("Loaded the scenario from the share link.")
		return
	}
	// The link was made while a run was shown: run it again, the same
	// run since the engine is deterministic, and show that moment.
	a.run()
	a.moment = &link
	a.showStatus("Loaded the scenario from the share link; running it to show the moment it was shared.")
}

// showMoment moves to the moment a share link carries, in the world shown:
// the cursor after the run's first l.At events and the event of seq
// l.Selected selected and in sight; in a world read in windows, the window
// around l.At is asked for first. A link whose numbers do not fit the run
// says so and shows the run's end.
func (a *app) showMoment(l *share.Link) {
	n := a.result.Worlds[a.world].Events
	if l.At > n || l.Selected >= n {
		a.showError(fmt.Sprintf("The share link points at event %d of world %d, which has %d events: showing the end of the run instead.", max(l.At, l.Selected+1), l.World+1, n))
		return
	}
	at, ok := a.cursorAt(l.At)
	if !ok {
		a.showWindow(a.world, max(l.At-1, 0), "around", func(err error) {
			if err == nil {
				a.showMoment(l)
			}
		})
		return
	}
	sel := -1
	if l.Selected >= 0 {
		if i, ok := a.r.IndexOfSeq(uint64(l.Selected)); ok && i >= a.first {
			sel = i
			a.selectEvent(sel, false)
		}
	}
	a.setCursor(at)
	if sel >= 0 {
		// the selected event in sight, wherever the cursor is
		a.log.reveal(sel)
		a.diagram.reveal(sel)
	} else {
		a.followCursor()
	}
	a.showStatus(fmt.Sprintf("Showing the shared moment: world %d, %s.", l.World+1, a.el.time.TextContent()))
}

// restorePrevious brings back the scenario the last share link replaced.
func (a *app) restorePrevious() {
	prev, ok := loadStored(storePrevious)
	show(a.el.sharedNote, false)
	if !ok {
		return
	}
	a.keepDraft(a.text()) // the shared scenario, maybe edited since
	a.setText(prev)
	forget(storePrevious)
	forget(storeShared)
	a.showStatus("Your previous scenario is back (Ctrl+Z in the editor brings back the shared one).")
}

// forgetShareLink hides the share link shown, once the scenario it carries
// has been edited.
func (a *app) forgetShareLink() {
	if !a.sharing || a.shareText == a.text() {
		return
	}
	a.sharing, a.shareText = false, ""
	setValue(a.el.shareURL, "")
	show(a.el.shareURL, false)
	a.showStatus("") // "copied" is no longer true of this scenario
}

// shareLink makes a link to the scenario and, while a run of it is shown,
// to its seed and the moment looked at; without a run shown, to the seed in
// the seed box.
func (a *app) shareLink() {
	loc := window.Location()
	a.sharing, a.shareText = true, a.text()
	l := share.Link{Script: a.shareText, Selected: -1}
	if a.r != nil && !a.loading && a.ran.Src == a.shareText {
		l.Seed, l.SeedSet = a.ran.Seed, a.ran.SeedSet
		l.Moment, l.World, l.At = true, a.world, a.seqAfter(a.cursor)
		if a.selected >= 0 {
			l.Selected = int(a.r.Events[a.selected].Seq)
		}
	} else if seed, set, err := a.seed(); err == nil {
		l.Seed, l.SeedSet = seed, set
	}
	link := loc.Origin() + loc.Pathname() + loc.Search() + share.Encode(l)
	setValue(a.el.shareURL, link)
	show(a.el.shareURL, true)
	a.el.shareURL.Underlying().Call("select")
	clip := js.Global().Get("navigator").Get("clipboard")
	if !clip.Truthy() {
		a.showStatus("Copy the link above to share this scenario.")
		return
	}
	var ok, fail js.Func
	settled := func(msg string) js.Func {
		return callback(func(js.Value, []js.Value) any {
			ok.Release()
			fail.Release()
			a.showStatus(msg)
			return nil
		})
	}
	ok, fail = settled("Share link copied to the clipboard."), settled("Copy the link above to share this scenario.")
	clip.Call("writeText", link).Call("then", ok, fail)
}

// --- downloads

func (a *app) download(name, mime, data string) {
	blob := js.Global().Get("Blob").New([]any{data}, map[string]any{"type": mime})
	url := js.Global().Get("URL").Call("createObjectURL", blob)
	link := doc.CreateElement("a")
	link.SetAttribute("href", url.String())
	link.SetAttribute("download", name)
	body.AppendChild(link)
	link.Underlying().Call("click")
	link.Remove()
	setTimeout(func() { js.Global().Get("URL").Call("revokeObjectURL", url) }, 10_000)
}

// downloadTrace downloads the whole run's trace in format, which the
// engine writes: the page holds at most the world it shows.
func (a *app) downloadTrace(format, name, mime string) {
	a.eng.Trace(-1, format, func(data string, err error) {
		if err != nil {
			a.showError("The trace could not be downloaded: " + err.Error())
			return
		}
		a.download(name, mime, data)
	})
}

// --- running

func (a *app) run() {
	a.pause()
	a.setForking(false)
	a.showError("")
	a.showStatus("")
	a.editor.Call("clearError")
	seed, seedSet, err := a.seed()
	if err != nil {
		a.showError(err.Error())
		return
	}
	a.cancelReading()
	a.gen++ // a world still being drawn is dropped
	a.loading = false
	a.setRunState("running")
	a.el.progressText.SetTextContent("starting…")
	a.stopEngine() // Run would do it, unseen
	a.moment = nil // a moment asked for belongs to the run it started
	a.ran = RunRequest{Name: scenarioName, Src: a.text(), Seed: seed, SeedSet: seedSet}
	a.eng.Run(a.ran)
}

// seed reads the seed box: empty is seed 1 and the script's own seeds. A
// seed reaches the engine worker as a JavaScript number, exact up to
// share.MaxSeed.
func (a *app) seed() (uint64, bool, error) {
	s := strings.TrimSpace(value(a.el.seed))
	if s == "" {
		return 1, false, nil
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil || n > share.MaxSeed {
		return 0, false, fmt.Errorf("The seed must be a whole number from 0 to %d, not %s.", uint64(share.MaxSeed), s)
	}
	return n, true, nil
}

func (a *app) cancelReading() {
	if a.stopReading != nil {
		a.stopReading()
		a.stopReading = nil
	}
}

func (a *app) stop() {
	if a.eng.Busy() || a.stopReading != nil {
		a.cancelReading()
		a.stopEngine()
		a.setRunState("idle")
		a.showStatus("Stopped.")
	}
}

// onEngineReady marks the page for tests (body[data-engine]): with the
// engine worker's own scripts loaded, leaving the page cuts no download
// short.
func (a *app) onEngineReady() { body.Underlying().Get("dataset").Set("engine", "ready") }

// stopEngine ends the engine's run, if one is in progress, and waits for
// the fresh worker that replaces it.
func (a *app) stopEngine() {
	if a.eng.Busy() {
		a.eng.Stop()
		body.Underlying().Get("dataset").Set("engine", "starting")
	}
}

func (a *app) onProgress(_ int, events uint64, t int64) {
	a.el.progressText.SetTextContent(fmtInt(int(events)) + " events, t=" + fmtInt(int(t)))
}

// drawLimit is the most events of a world the page reads and draws whole,
// windowProcs the most processes: the browser takes some 100 ms to lay out
// and paint the topology of 7,000. A larger world stays in the engine, which hands the page a window of at
// most windowEvents events naming at most windowProcs processes at a time,
// with the earlier events that give those processes their state (see
// package dsim/wasm/window): the page's memory and the time to show a
// window do not grow with the run.
const (
	drawLimit    = 100_000
	windowEvents = 20_000
	windowProcs  = 2_000
)

// pageWindow is a window the page asks for: lying as how ("after",
// "before", "around") says with respect to position at, or around the
// first event at time at or later (how "time").
type pageWindow struct {
	at  int
	how string
}

// onResult shows what the run produced at once: output, checks and the
// world menu; the world in view is then asked of the engine and drawn.
func (a *app) onResult(res RunResult) {
	start := now()
	a.result = &res
	a.worlds = make([]trace.World, len(res.Worlds))
	a.loaded = make([]bool, len(res.Worlds))
	a.windows = make([]span, len(res.Worlds))
	a.overviews = make([]*overview.Grid, len(res.Worlds))
	a.chart.reset(len(res.Worlds))
	a.want = make([]pageWindow, len(res.Worlds))
	for i := range a.want {
		a.want[i].how = "after"
	}
	for i, w := range res.Worlds {
		a.worlds[i].Header = trace.Header{World: w.World, Algorithm: w.Algorithm, Seed: w.Seed}
	}
	var tail strings.Builder
	for _, n := range res.Notes {
		tail.WriteString("note: " + n + "\n")
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(&tail, "warning: world %d: %s\n", w.World, w.Text)
	}
	a.renderOutput(res.Output, res.Reports, tail.String())
	a.show(res, func() {
		body.Underlying().Get("dataset").Set("renderMs", ftoa(float64(int((now()-start)*10))/10))
	})
}

// show renders a finished run; drawn runs after it is on the page.
func (a *app) show(res RunResult, drawn func()) {
	a.fillWorldMenu()
	world := a.firstShown()
	if a.world < len(a.worlds) && res.Err == nil && a.shows(a.world) {
		world = a.world // a rerun keeps the world in view
	}
	moment := a.moment
	a.moment = nil
	if moment != nil {
		if moment.World < len(a.worlds) {
			world = moment.World
		} else {
			a.showError(fmt.Sprintf("The share link shows world %d, but the run has %d: showing world %d instead.", moment.World+1, len(a.worlds), world+1))
			moment = nil
		}
	}
	a.renderChecks()
	setDisabled(a.el.jsonl, len(a.worlds) == 0)
	setDisabled(a.el.shiviz, len(a.worlds) == 0)
	a.showWorld(world, func(err error) {
		if moment != nil && err == nil {
			a.showMoment(moment)
		}
		a.finish(res, err)
		drawn()
	})
}

// finish tells the user how the run ended, once it is drawn.
func (a *app) finish(res RunResult, err error) {
	switch {
	case res.Err != nil:
		a.editor.Call("markError", res.Err.Line, res.Err.Msg)
		a.showError(res.Err.Error())
		a.setRunState("error")
	case err != nil:
		a.setRunState("error")
	default:
		a.setRunState("done")
		a.revealResults()
		switch {
		case len(a.worlds) == 0:
			a.showStatus("The scenario built no world: nothing to show.")
		case !a.shows(a.firstShown()):
			a.showStatus("No world of this run records a trace (trace = false): its results are in the output and the checks.")
		case a.windowed(a.world):
			sum := a.result.Worlds[a.world]
			a.showStatus(fmt.Sprintf("World %d has %s events and %s processes, more than this page reads at once (%s events or %s processes): it shows at most %s events of %s processes at a time (Earlier and Later, under the controls, or the strip above the diagram), with the state the processes had before. The whole trace is a download (JSONL or ShiViz).",
				sum.World, fmtInt(sum.Events), fmtInt(sum.Processes), fmtInt(drawLimit), fmtInt(windowProcs), fmtInt(windowEvents), fmtInt(windowProcs)))
		}
	}
}

// shows reports whether world i has something to draw: an untraced world
// (trace = false) records nothing.
func (a *app) shows(i int) bool { return a.result.Worlds[i].Events > 0 }

// revealResults brings the checks into view on a screen too narrow for
// the editor and the results side by side, where they sit below the
// editor, the controls and the topology.
func (a *app) revealResults() {
	if js.Global().Get("innerWidth").Int() < 900 {
		a.el.checks.Underlying().Get("parentElement").Call("scrollIntoView", map[string]any{"block": "start"}) // with its heading
	}
}

// windowed reports whether the page reads world i in windows: it has more
// events than drawLimit, or more processes than a window names.
func (a *app) windowed(i int) bool {
	w := a.result.Worlds[i]
	return w.Events > drawLimit || w.Processes > windowProcs
}

// showWindow shows the window of world i that lies as how says with
// respect to position at, then calls then.
func (a *app) showWindow(i, at int, how string, then func(error)) {
	a.want[i] = pageWindow{at, how}
	a.loaded[i] = false
	a.showWorld(i, then)
}

// renderWindow says which events of the world shown the page holds, with
// the buttons that move to the windows around it.
func (a *app) renderWindow() {
	on := a.r != nil && a.windowed(a.world)
	show(a.el.window, on)
	if !on {
		return
	}
	from, to, total := a.windows[a.world].from, a.windows[a.world].to, a.result.Worlds[a.world].Events
	a.el.windowText.SetTextContent(fmt.Sprintf("events %s–%s of %s", fmtInt(from+1), fmtInt(to), fmtInt(total)))
	setDisabled(a.el.windowPrev, from == 0)
	setDisabled(a.el.windowNext, to >= total)
}

// firstShown is the world a run opens on: the first with events, else the
// first.
func (a *app) firstShown() int {
	for i := range a.worlds {
		if a.shows(i) {
			return i
		}
	}
	return 0
}

// fillWorldMenu lists the worlds with something to show; a scenario whose
// worlds are all untraced (a sweep that reports a table) gets no menu.
func (a *app) fillWorldMenu() {
	empty(a.el.world)
	listed := 0
	for i, w := range a.result.Worlds {
		if !a.shows(i) {
			continue
		}
		listed++
		o := el("option", "", fmt.Sprintf("world %d: %s, seed %d, %s events", w.World, w.Algorithm, w.Seed, fmtInt(w.Events)))
		o.SetAttribute("value", itoa(i))
		a.el.world.AppendChild(o)
	}
	show(a.el.world, listed > 1)
}

// showWorld renders world i from its trace, with the cursor at the end,
// then calls then (if not nil). A long trace takes a while to index and
// draw, so the work is done in steps that each give the page the thread
// back; the controls stay off until the last one.
//
// Between two steps the browser runs events and draws frames, which read
// the app's state: every step leaves it consistent (see install).
func (a *app) showWorld(i int, then func(err error)) {
	a.pause()
	a.gen++
	gen := a.gen
	a.loading = true
	a.enableTimeline(false)
	a.install(nil, nil)
	if then == nil {
		then = func(error) {}
	}
	if i >= len(a.worlds) {
		a.world = 0
		a.log.reset() // no filters either
		a.loading = false
		a.setCursor(0)
		then(nil)
		return
	}
	a.world = i
	a.stateAll = false
	setValue(a.el.world, itoa(i))
	if !a.loaded[i] {
		a.fetchWorld(i, gen, then)
		return
	}
	w := &a.worlds[i] // a result arriving meanwhile replaces a.worlds
	var rb *replay.Builder
	var db *spacetime.Builder
	// Each step is timed as a performance measure "dsim: <name>", which
	// the browser tests read to report where the time goes.
	steps := []struct {
		name string
		do   func() bool // true: call again, there is more to do
	}{
		{"index the trace", func() bool {
			if rb == nil {
				rb = replay.NewBuilder(w, snapshotEvery)
			}
			return inSlice(func() bool { return rb.Step(indexPerStep) })
		}},
		{"index the diagram", func() bool {
			if db == nil {
				db = spacetime.NewBuilder(rb.Replay())
			}
			if inSlice(func() bool { return db.Step(indexPerStep) }) {
				return true
			}
			a.install(rb.Replay(), db.Diagram())
			return false
		}},
		{"build the overview", func() bool {
			a.diagram.strip.build(a.dia)
			a.diagram.dirty()
			return false
		}},
		{"draw the topology", func() bool {
			return inSlice(func() bool { return !a.topo.addNodes(nodesPerStep) })
		}},
		{"fill the log", func() bool {
			a.log.reset()
			return false
		}},
		{"fill the panels", func() bool {
			a.resetState()
			a.renderStats()
			return false
		}},
		{"show the end of the run", func() bool {
			a.loading = false
			a.enableTimeline(true)
			n := len(a.r.Events)
			a.el.scrubber.SetAttribute("min", itoa(a.first))
			a.el.scrubber.SetAttribute("max", itoa(n))
			a.setCursor(n)
			a.renderWindow()
			return false
		}},
		{"draw the diagram", func() bool {
			a.diagram.draw() // if no frame came since: the run is shown when it is done
			a.prepareSearch(a.r)
			a.chart.showWorld(i)
			a.diagram.cut.offerRecordings()
			then(nil) // last: it may show another window at once
			return false
		}},
	}
	var next func(k int)
	next = func(k int) {
		if a.gen != gen {
			return // another world or run took over
		}
		start := now()
		more := steps[k].do()
		measure(steps[k].name, start)
		if more {
			afterFrame(func() { next(k) })
		} else if k+1 < len(steps) {
			afterFrame(func() { next(k + 1) })
		}
	}
	// not in the task that cleared the page (after reading a trace, that
	// one has work enough)
	afterFrame(func() { next(0) })
}

// inSlice calls step, which does a bounded piece of some work and reports
// whether all of it is done, until it is or drawSlice has passed, and
// reports whether there is more to do.
func inSlice(step func() bool) bool {
	for start := now(); !step(); {
		if now()-start >= drawSlice {
			return true
		}
	}
	return false
}

// fetchWorld asks the engine for the trace of world i, reads it a slice at
// a time and shows it, unless the page has moved on (gen). A world above
// drawLimit is not asked for: its summary stands in for it.
func (a *app) fetchWorld(i, gen int, then func(error)) {
	a.el.progressText.SetTextContent("reading the trace…")
	fail := func(err error) {
		a.loading = false
		a.showError("The trace could not be read: " + err.Error())
		then(err)
	}
	ask := func(fn answerFn) { a.eng.Trace(i, "jsonl", func(text string, err error) { fn(text, span{}, err) }) }
	if a.windowed(i) {
		ask = func(fn answerFn) { a.eng.Window(i, a.want[i].at, windowEvents, windowProcs, a.want[i].how, fn) }
	}
	ask(func(text string, win span, err error) {
		if a.gen != gen {
			return
		}
		if err != nil {
			fail(err)
			return
		}
		a.stopReading = readTrace(text, func(done float64) {
			a.el.progressText.SetTextContent(fmt.Sprintf("reading the trace: %d%%", int(done*100)))
		}, func(worlds []trace.World, err error) {
			a.stopReading = nil
			if a.gen != gen {
				return
			}
			if err == nil && len(worlds) != 1 {
				err = fmt.Errorf("the engine sent %d worlds for one", len(worlds))
			}
			if err != nil {
				fail(err)
				return
			}
			a.worlds[i], a.loaded[i], a.windows[i] = worlds[0], true, win
			a.el.progressText.SetTextContent("drawing…")
			a.showWorld(i, then)
		})
	})
}

// install makes r (nil: none) the world shown, drawn by dia, with the
// cursor after its last event and nothing selected, and empties every view
// built from the world shown before, so that nothing on the page refers to
// another world than a.r; the views fill in later steps of showWorld.
func (a *app) install(r *replay.Replay, dia *spacetime.Diagram) {
	a.r, a.dia, a.lay = r, dia, layout.Layout{}
	a.selected, a.past, a.future = -1, nil, nil
	a.cursor, a.viewT, a.first = 0, 0, 0
	show(a.el.window, false)
	if r != nil {
		a.lay = layout.New(&r.Header, r.Nodes)
		if a.windowed(a.world) {
			from := uint64(a.windows[a.world].from)
			a.first = sort.Search(len(r.Events), func(i int) bool { return r.Events[i].Seq >= from })
		}
		if n := len(r.Events); n > 0 {
			a.cursor, a.viewT = n, float64(r.Events[n-1].T)
		}
	}
	a.topo.reset()
	a.rel.update(nil, &replay.View{}, 0) // hidden until the cursor shows the new world
	a.diagram.reset()
	a.el.diagramBox.RemoveAttribute("data-note")
	a.log.clear()
	empty(a.el.state)
	a.states = stateTable{}
	empty(a.el.stats)
}

// prepareSearch makes the log's search texts of world r in idle time, a
// few milliseconds at a time, while r is shown.
func (a *app) prepareSearch(r *replay.Replay) {
	idle(func() {
		if a.r != r {
			return
		}
		start := now()
		for !r.PrepareText(100) {
			if now()-start > 8 {
				measure("prepare the search", start)
				a.prepareSearch(r)
				return
			}
		}
		measure("prepare the search", start)
	})
}

func (a *app) enableTimeline(on bool) {
	for _, e := range []dom.Element{a.el.scrubber, a.el.play, a.el.step, a.el.back, a.el.fork} {
		setDisabled(e, !on)
	}
	setDisabled(a.el.pause, true)
}

// --- time travel

// setCursor shows the run after its first n events.
func (a *app) setCursor(n int) {
	if a.loading {
		return
	}
	if a.r == nil {
		a.cursor, a.viewT = 0, 0
		a.el.time.SetTextContent("no run yet")
		a.el.summary.SetTextContent("")
		a.renderState(nil)
		return
	}
	n = max(a.first, min(n, len(a.r.Events)))
	a.cursor, a.viewT = n, a.timeAfter(n)
	setValue(a.el.scrubber, itoa(n))
	a.refresh()
	a.followChecks()
}

// timeAfter is the time of the run after its first n events.
func (a *app) timeAfter(n int) float64 {
	if n <= a.first {
		if a.windowed(a.world) {
			return float64(a.windows[a.world].start) // the prelude's last event is older
		}
		return 0
	}
	return float64(a.r.Events[n-1].T)
}

// seqAfter is the position in the whole run of the world shown after its
// first n events: the number of the run's events before that point. It is
// n for a world the page holds whole; in a window, the prelude counts as
// the run up to the window.
func (a *app) seqAfter(n int) int {
	if n <= a.first {
		if a.windowed(a.world) {
			return a.windows[a.world].from
		}
		return 0
	}
	return int(a.r.Events[n-1].Seq) + 1
}

// cursorAt is the cursor that shows the run after its first seq events,
// if the page holds that point of the world shown (see seqAfter).
func (a *app) cursorAt(seq int) (int, bool) {
	if seq == a.seqAfter(a.first) {
		return a.first, true
	}
	i, ok := a.r.IndexOfSeq(uint64(seq - 1))
	return i + 1, ok && seq > 0 && i >= a.first
}

// refresh renders everything that depends on the cursor.
func (a *app) refresh() {
	v := a.r.At(a.cursor)
	total := a.result.Worlds[a.world].Events
	a.el.time.SetTextContent(fmt.Sprintf("t=%s · event %s of %s", fmtInt(int(a.viewT)), fmtInt(a.seqAfter(a.cursor)), fmtInt(total)))
	sum := summary(a.r, v)
	if a.windowed(a.world) && sum != "" {
		sum = fmt.Sprintf("Among the %s processes of these events: %s", fmtInt(len(a.r.Nodes)), sum)
	}
	a.el.summary.SetTextContent(sum)
	a.topo.update(v)
	a.rel.update(a.r, v, a.cursor)
	a.chart.moveCursor(a.viewT)
	a.renderState(v)
	a.diagram.dirty()
	a.log.cursorMoved()
	setDisabled(a.el.back, a.cursor == a.first)
	if a.forking {
		a.el.forkHint.SetTextContent(fmt.Sprintf("Fork at t=%d: click a process to crash or recover it, or a link to cut it. Esc cancels.", int64(a.viewT)))
	}
}

// step moves the cursor by d events; from the end, a step forward starts
// over.
func (a *app) step(d int) {
	if a.r == nil || a.loading {
		return
	}
	a.pause()
	n := a.cursor + d
	if d > 0 && a.cursor >= len(a.r.Events) {
		n = a.first + 1
	}
	a.setCursor(n)
	a.followCursor()
}

// followCursor keeps the latest event in sight in the log and the diagram.
func (a *app) followCursor() {
	if a.cursor > 0 {
		a.log.reveal(a.cursor - 1)
		a.diagram.reveal(a.cursor - 1)
	}
}

func (a *app) play() {
	if a.r == nil || a.loading || a.playing {
		return
	}
	if a.cursor >= len(a.r.Events) {
		if a.windowed(a.world) && a.windows[a.world].to < a.result.Worlds[a.world].Events {
			a.playOn()
			return
		}
		a.setCursor(0)
	}
	a.playing = true
	a.lastTick, a.phase = -1, 0
	show(a.el.replay, false)
	setDisabled(a.el.play, true)
	setDisabled(a.el.pause, false)
	a.frame.request()
}

func (a *app) pause() {
	if !a.playing {
		return
	}
	a.playing = false
	setDisabled(a.el.play, false)
	setDisabled(a.el.pause, true)
	if a.r != nil {
		// settle on the event the animation reached
		a.setCursor(a.cursor)
	}
}

// The playback speeds by the speed slider's position: in events per second
// when playing by events, in time units per second when playing in time.
var (
	eventSpeeds = [...]float64{1, 2, 3, 5, 8, 12, 20, 30, 45, 60}
	timeSpeeds  = [...]float64{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000}
)

// byEvents reports whether playback goes an event at a time (the pace
// menu), not in simulated time.
func (a *app) byEvents() bool { return value(a.el.pace) == "events" }

func (a *app) speed() float64 {
	var i int
	fmt.Sscan(value(a.el.speed), &i)
	i = max(0, min(i-1, len(timeSpeeds)-1))
	if a.byEvents() {
		return eventSpeeds[i]
	}
	return timeSpeeds[i]
}

// maxIdle is the longest stretch without an event, in seconds, that
// playback in time shows: the clock jumps over the rest of a longer one
// (timers waiting), which would otherwise leave the screen still.
const maxIdle = 0.5

// onFrame advances playback and redraws what is dirty.
func (a *app) onFrame(now float64) {
	if a.playing && a.r != nil {
		d := 0.0 // events or time units to advance by
		if a.lastTick >= 0 {
			d = (now - a.lastTick) / 1000 * a.speed()
		}
		a.lastTick = now
		evs := a.r.Events
		n := a.cursor
		if a.byEvents() {
			// At most one event a frame, so that each one is seen; the
			// clock moves on between two events for the messages in flight.
			a.phase = min(a.phase+d, 1)
			if a.phase == 1 {
				n, a.phase = n+1, 0
			}
			a.viewT = a.timeAfter(n)
			if n < len(evs) {
				a.viewT += a.phase * (float64(evs[n].T) - a.viewT)
			}
		} else {
			a.viewT += d
			if n < len(evs) {
				a.viewT = max(a.viewT, float64(evs[n].T)-maxIdle*a.speed())
			}
			for n < len(evs) && float64(evs[n].T) <= a.viewT {
				n++
			}
		}
		if n != a.cursor {
			a.cursor = n
			setValue(a.el.scrubber, itoa(n))
			a.refresh()
			a.followCursor()
		} else {
			a.topo.moveMessages(a.r.At(a.cursor))
		}
		switch {
		case n < len(evs):
			a.frame.request()
		case a.windowed(a.world) && a.windows[a.world].to < a.result.Worlds[a.world].Events:
			a.playOn()
		default:
			a.pause()
		}
	}
	a.diagram.draw()
}

// playOn goes on playing in the window after the one that played to its
// end.
func (a *app) playOn() {
	a.pause()
	a.showWindow(a.world, a.windows[a.world].to, "after", func(err error) {
		if err == nil {
			a.setCursor(a.first)
			a.play()
		}
	})
}

// --- fork from here

func (a *app) setForking(on bool) {
	a.forking = on && a.r != nil && !a.loading
	a.el.fork.SetAttribute("aria-pressed", fmt.Sprint(a.forking))
	show(a.el.forkHint, a.forking)
	body.Class().Remove("forking")
	if a.forking {
		a.pause()
		body.Class().Add("forking")
		a.refresh()
	}
}

// intervene forks the run at the cursor's time, in fork mode or from a
// process's menu: the intervention goes at the top of the scenario, where
// the user keeps it, and the run is redone.
func (a *app) intervene(what string) {
	if a.r == nil {
		return
	}
	line := fmt.Sprintf("sim.intervene{world=%d, t=%d, %s}\n", a.r.Header.World, int64(a.viewT), what)
	a.setText(line + a.text())
	a.showStatus("Forked: " + strings.TrimSpace(line) + " was added at the top of the scenario.")
	a.setForking(false)
	a.run()
}

// --- controls and keys

func (a *app) wireControls() {
	onClick(a.el.run, a.run)
	onClick(a.el.stop, a.stop)
	onClick(a.el.play, a.play)
	onClick(a.el.pause, a.pause)
	onClick(a.el.replay, func() {
		if a.r != nil && a.windowed(a.world) && a.windows[a.world].from > 0 {
			a.showWindow(a.world, 0, "after", func(err error) {
				if err == nil {
					a.setCursor(0)
					a.play()
				}
			})
			return
		}
		a.setCursor(0)
		a.play()
	})
	// The window before ends where this one starts, so the cursor stays at
	// its end; the window after starts with the cursor at its start.
	onClick(a.el.windowPrev, func() { a.showWindow(a.world, a.windows[a.world].from, "before", nil) })
	onClick(a.el.windowNext, func() {
		a.showWindow(a.world, a.windows[a.world].to, "after", func(err error) {
			if err == nil {
				a.setCursor(a.first)
				a.followCursor()
			}
		})
	})
	onClick(a.el.step, func() { a.step(1) })
	onClick(a.el.back, func() { a.step(-1) })
	onClick(a.el.fork, func() { a.setForking(!a.forking) })
	onClick(byID("share"), a.shareLink)
	onClick(byID("restore"), a.restorePrevious)
	onClick(a.el.restoreDraft, func() { a.restoreDraft(0) })
	onClick(a.el.jsonl, func() { a.downloadTrace("jsonl", "dsim-trace.jsonl", "application/x-ndjson") })
	onClick(a.el.shiviz, func() { a.downloadTrace("shiviz", "dsim-trace.shiviz.log", "text/plain") })
	on(a.el.scrubber.Underlying(), "input", func(js.Value) {
		a.pause()
		var n int
		fmt.Sscan(value(a.el.scrubber), &n)
		a.setCursor(n)
		a.followCursor()
	})
	showSpeed := func() {
		unit := " t/s"
		if a.byEvents() {
			unit = " ev/s"
		}
		a.el.speedLabel.SetTextContent(ftoa(a.speed()) + unit)
	}
	on(a.el.speed.Underlying(), "input", func(js.Value) { showSpeed() })
	on(a.el.pace.Underlying(), "change", func(js.Value) {
		showSpeed()
		a.phase = 0 // what is left from playing by events before is stale
	})
	showSpeed()
	on(a.el.world.Underlying(), "change", func(js.Value) {
		var i int
		fmt.Sscan(value(a.el.world), &i)
		a.showWorld(i, nil)
	})
}

func (a *app) wireKeys() {
	on(doc.Underlying(), "keydown", func(ev js.Value) {
		key := ev.Get("key").String()
		mod := ev.Get("ctrlKey").Bool() || ev.Get("metaKey").Bool()
		if mod && key == "Enter" {
			ev.Call("preventDefault")
			a.run()
			return
		}
		if mod || ev.Get("altKey").Bool() {
			return
		}
		if key == "Escape" {
			switch {
			case a.eng.Busy() || a.stopReading != nil:
				a.stop()
			case a.forking:
				a.setForking(false)
			case a.playing:
				a.pause()
			default:
				a.selectEvent(-1, false)
			}
			return
		}
		// Other keys belong to whatever has the focus when it takes text
		// or has its own keys.
		target := ev.Get("target")
		if target.Call("closest", "input, select, textarea, button, [role=button], .cm-editor, [contenteditable]").Truthy() {
			return
		}
		handled := true
		switch key {
		case " ", "k":
			if a.playing {
				a.pause()
			} else {
				a.play()
			}
		case "ArrowRight", ".":
			a.step(1)
		case "ArrowLeft", ",":
			a.step(-1)
		case "Home":
			a.pause()
			a.setCursor(0)
		case "End":
			a.pause()
			a.setCursor(len(a.worldEvents()))
		case "f":
			a.setForking(!a.forking)
		case "c":
			a.diagram.cut.toggle()
		case "s":
			a.diagram.cut.nextRecording()
		case "t":
			a.diagram.stamps.cycle()
		default:
			handled = false
		}
		if handled {
			ev.Call("preventDefault")
		}
	}, map[string]any{"capture": true})
}

func (a *app) worldEvents() []trace.Event {
	if a.r == nil {
		return nil
	}
	return a.r.Events
}

// selectEvent selects event i (-1: none): its causal past and future are
// highlighted, the cursor moves just after it, and the log and the diagram
// show it.
func (a *app) selectEvent(i int, fromDiagram bool) {
	if a.r == nil || a.loading {
		return
	}
	a.pause()
	if i < 0 || i >= len(a.r.Events) {
		a.selected, a.past, a.future = -1, nil, nil
		a.log.render()
		a.diagram.dirty()
		return
	}
	a.selected = i
	a.past, a.future = a.r.Causal(i)
	a.setCursor(i + 1)
	a.log.reveal(i)
	if !fromDiagram {
		a.diagram.reveal(i)
	}
}
