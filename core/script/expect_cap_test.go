package script

import (
	"strings"
	"testing"

	"dsim/core/trace"
)

// expect's message is cut like log's text: at maxShow bytes, then "...".
// Without the cap 200 expectations of a few megabytes each printed a fifth
// of a gigabyte through dsim check, trace and JUnit report alike.
func TestExpectMessageIsCapped(t *testing.T) {
	res, _ := mustRun(t, `
local w = sim.world{algorithm="test.echo", n=2}
local big = ("x"):rep(1000000)
for i = 1, 200 do expect(i % 2 == 0, big) end
expect(true, setmetatable({}, {__tostring = function() return ("y"):rep(100000) end}))
expect(true, ("z"):rep(`+itoa(maxShow)+`))
expect(false, "short")
expect(false)`)
	if len(res.Checks) != 204 {
		t.Fatalf("want 204 checks, got %d", len(res.Checks))
	}
	cut := strings.Repeat("x", maxShow) + "..."
	for i, c := range res.Checks[:200] {
		if c.Text != cut {
			t.Fatalf("check %d: %d bytes (prefix %q), want the message cut to %d bytes and \"...\"", i+1, len(c.Text), c.Text[:min(len(c.Text), 10)], maxShow)
		}
	}
	if c := res.Checks[200]; c.Text != strings.Repeat("y", maxShow)+"..." {
		t.Errorf("a __tostring message: %d bytes, want it cut as well", len(c.Text))
	}
	if c := res.Checks[201]; c.Text != strings.Repeat("z", maxShow) {
		t.Errorf("a message of exactly maxShow bytes must stay whole, got %d bytes", len(c.Text))
	}
	if c := res.Checks[202]; c.Text != "short" {
		t.Errorf("a short message changed: %q", c.Text)
	}
	if c := res.Checks[203]; c.Text != "expectation at line 8" {
		t.Errorf("no message: %q", c.Text)
	}
	// The trace's check events carry the same cut text.
	n := 0
	res.Worlds[0].Each(func(e *trace.Event) {
		if e.Type != trace.Check {
			return
		}
		if n < 200 && e.Text != cut {
			t.Errorf("check event %d: %d bytes, want the cut message", n+1, len(e.Text))
		}
		n++
	})
	if n != 204 {
		t.Errorf("want 204 check events in the trace, got %d", n)
	}
}
