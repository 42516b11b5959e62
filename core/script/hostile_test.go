package script

import (
	"bytes"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"

	"dsim/core/script/scripttest"
)

// hostileOptions are the corpus's limits: a memory and an instruction
// budget small enough that every script ends within a second, natively and
// under Node. The CLI's test runs the same corpus with its defaults, in a
// process under a real address-space cap.
var hostileOptions = Options{Seed: 1, MaxMemory: 32 << 20, Budget: 20_000_000, MaxEvents: 1_000_000}

// hostileSlack is how far the memory Go maps may grow beyond the budget
// while a hostile script runs in a test: the guard stops the run once it
// holds its budget, and between the collector's cycles the heap holds
// garbage too (the CLI also sets the runtime's soft limit; tests do not).
const hostileSlack = 2*32<<20 + 64<<20

// Every hostile script ends as its header says: with the one clean error at
// its file and line, or without one, printing what it says. It does so twice
// the same way, and the memory the process maps grows by no more than the
// budget and the slack.
func TestHostileScripts(t *testing.T) {
	corpus, err := scripttest.LoadHostile("testdata/hostile")
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range corpus {
		t.Run(h.Name, func(t *testing.T) {
			before := mappedMemory()
			first, err1 := runHostile(h)
			if grown := int64(mappedMemory()) - int64(before); grown > int64(hostileOptions.MaxMemory+hostileSlack) {
				t.Errorf("the process mapped %d MiB more, over the budget and slack of %d MiB", grown>>20, (hostileOptions.MaxMemory+hostileSlack)>>20)
			}
			second, err2 := runHostile(h)
			if first != second || errText(err1) != errText(err2) {
				t.Errorf("two runs differ:\n%s%v\n---\n%s%v", first, err1, second, err2)
			}
			if first != h.Output {
				t.Errorf("output:\n%s\nwant:\n%s", first, h.Output)
			}
			switch {
			case h.Error == nil && err1 != nil:
				t.Errorf("error %v, want none", err1)
			case h.Error != nil && err1 == nil:
				t.Errorf("no error, want one matching %s", h.Error)
			case h.Error != nil:
				e := scriptError(t, err1)
				if e.File != h.Name || e.Line < 1 || strings.Contains(e.Msg, "\n") {
					t.Errorf("error %q is not one line at a line of %s", err1, h.Name)
				}
				if !h.Error.MatchString(err1.Error()) {
					t.Errorf("error:\n  %v\nwant a match for:\n  %s", err1, h.Error)
				}
			}
		})
	}
}

func runHostile(h scripttest.Hostile) (string, error) {
	var out bytes.Buffer
	opt := hostileOptions
	opt.Out = &out
	opt.Budget = max(opt.Budget, h.Budget)
	_, err := Run(h.Name, h.Src, opt)
	return out.String(), err
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// mappedMemory is the memory the Go runtime has mapped, after a collection:
// it seldom gives any back, and under WebAssembly never, so its growth
// over a run is at least the run's peak.
func mappedMemory() uint64 {
	runtime.GC()
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
