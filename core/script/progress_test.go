package script

import "testing"

// TestProgress checks the progress callback: one call per ProgressEvery
// observed events, counting across worlds, with the time of the event that
// completed the batch, and no effect on the trace.
func TestProgress(t *testing.T) {
	const src = `
for i = 1, 2 do
  local w = sim.world{algorithm="test.echo", n=2, config={every=1}}
  w:command(1, "tick")
  w:command(2, "tick")
  w:run{until_time=5000}
end
`
	type call struct {
		events uint64
		t      int64
	}
	var calls []call
	res, _ := mustRun(t, src, Options{Seed: 1, Progress: func(events uint64, t int64) { calls = append(calls, call{events, t}) }})
	total := 0
	for _, w := range res.Worlds {
		total += w.Len()
	}
	if want := total / ProgressEvery; len(calls) != want || want < 2 {
		t.Fatalf("%d progress calls for %d events, want %d (and at least 2)", len(calls), total, want)
	}
	// The batches run through world 1, then world 2: the event numbers
	// count on across worlds while the time starts again.
	first := res.Worlds[0].Len()
	for i, c := range calls {
		n := uint64(i+1) * ProgressEvery
		if c.events != n {
			t.Errorf("call %d reports %d events, want %d", i, c.events, n)
		}
		w, k := 0, int(n)-1
		if k >= first {
			w, k = 1, k-first
		}
		if got := worldEvents(res, w)[k].T; c.t != got {
			t.Errorf("call %d reports t=%d, want %d (the time of event %d of world %d)", i, c.t, got, k, w+1)
		}
	}
	plain, _ := mustRun(t, src)
	if jsonl(t, plain) != jsonl(t, res) {
		t.Error("the trace differs when Progress is set")
	}
}
