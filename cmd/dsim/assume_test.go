package main

import (
	"encoding/json"
	"strings"
	"testing"

	"dsim/core/algo"
)

// dsim list shows every algorithm's assumptions, in words and as JSON.
func TestListAssumptions(t *testing.T) {
	code, out, errOut := dsim(t, "list")
	wantCode(t, code, exitOK, errOut)
	for _, s := range algo.All() {
		for _, line := range s.Assumptions.Lines() {
			if !strings.Contains(out, "\n    "+line+"\n") {
				t.Errorf("dsim list does not say %s's %q", s.Name, line)
			}
		}
	}
	code, out, errOut = dsim(t, "list", "--json")
	wantCode(t, code, exitOK, errOut)
	var got []jsonAlgorithm
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("dsim list --json: %v\n%s", err, out)
	}
	if len(got) != len(algo.All()) {
		t.Fatalf("dsim list --json lists %d algorithms, the registry has %d", len(got), len(algo.All()))
	}
	for i, s := range algo.All() {
		a, j := s.Assumptions, got[i].Assumptions
		if got[i].Name != s.Name || j.FIFO != a.FIFO || j.Loss != a.Loss || j.Duplication != a.Duplication ||
			j.Partitions != a.Partitions || j.Crashes != a.Crashes.String() || (j.LatencyBound == nil) != (a.Latency.Key == "") ||
			(j.LatencyBound != nil && *j.LatencyBound != jsonLatency{a.Latency.Key, a.Latency.Trips, a.Latency.Timeout}) {
			t.Errorf("dsim list --json gives %s %+v, the spec %+v", got[i].Name, j, a)
		}
	}
	code, out, errOut = dsim(t, "list", "--json", "mutex.lamport")
	wantCode(t, code, exitOK, errOut)
	if !strings.Contains(out, `"fifo": true`) || strings.Count(out, `"name": "mutex.lamport"`) != 1 {
		t.Errorf("dsim list --json mutex.lamport:\n%s", out)
	}
}

// dsim run and check say on stderr where a world left its algorithm's
// assumptions, and still succeed: a warning is not an error.
func TestRunWarns(t *testing.T) {
	want := "testdata/outside.lua:2: warning: world 1: outside the assumptions of mutex.lamport (FIFO links): messages on the links may arrive out of order (fifo = false)\n"
	for _, cmd := range []string{"run", "check"} {
		code, _, errOut := dsim(t, cmd, "testdata/outside.lua")
		wantCode(t, code, exitOK, errOut)
		if errOut != want {
			t.Errorf("dsim %s printed on stderr %q, want %q", cmd, errOut, want)
		}
	}
}
