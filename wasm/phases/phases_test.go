package phases

import (
	"slices"
	"testing"

	"dsim/wasm/internal/runs"
	"dsim/wasm/replay"
)

// The blocking scenario of two-phase commit (Silberschatz, "Failure of the
// coordinator"): the participants log <ready T1>, the coordinator fails
// before deciding, and they are blocked until it recovers and aborts.
func TestBlocking(t *testing.T) {
	worlds, err := runs.Example("commit/twophase-blocking.lua")
	if err != nil {
		t.Fatal(err)
	}
	r := replay.New(&worlds[0], 0)
	h := Read(r)
	at := func(tm int64) View {
		n := 0
		for n < len(r.Events) && r.Events[n].T <= tm {
			n++
		}
		v, ok := At(r, r.At(n), h, n)
		if !ok {
			t.Fatalf("t=%d: no commit view", tm)
		}
		return v
	}
	v := at(20)
	if v.Stage != "the coordinator is down" || len(v.Sites) != 3 {
		t.Fatalf("t=20: %+v", v)
	}
	for _, s := range v.Sites[1:] {
		if !s.Blocked || s.Role != "participant" || !slices.Equal(s.Log, []string{"<ready T1>"}) {
			t.Errorf("t=20: site %d not blocked with <ready T1> alone: %+v", s.ID, s)
		}
	}
	if c := v.Sites[0]; c.Role != "coordinator" || c.Up || !slices.Equal(c.Log, []string{"<prepare T1>"}) {
		t.Errorf("t=20: the coordinator %+v", c)
	}
	end := at(1 << 40)
	if c := end.Sites[0]; !slices.Equal(c.Log, []string{"<prepare T1>", "<abort T1>", "<complete T1>"}) || end.Stage != "complete: every site acknowledged the decision" {
		t.Errorf("end: %q %+v", end.Stage, c)
	}
	for _, s := range end.Sites[1:] {
		if s.Blocked || s.Decision != "abort" {
			t.Errorf("end: site %d %+v", s.ID, s)
		}
	}
}
