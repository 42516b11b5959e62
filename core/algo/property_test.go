package algo_test

import (
	"strings"
	"testing"

	"dsim/core/algo"
	"dsim/core/proc"
)

// mustPanic fails the test unless f panics with a message containing want.
func mustPanic(t *testing.T, want string, f func()) {
	t.Helper()
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), want) {
			t.Errorf("panic %v, want one with %q", r, want)
		}
	}()
	f()
}

func TestPropertyDeclarations(t *testing.T) {
	mustPanic(t, "malformed property nofamily", func() { algo.DeclareProperty("nofamily", "doc") })
	mustPanic(t, "malformed property test.nodoc", func() { algo.DeclareProperty("test.nodoc", "") })
	mustPanic(t, "mutex.safety declared twice", func() { algo.DeclareProperty("mutex.safety", "again") })
	// A spec promising a property no family declares is refused: core/check
	// could have no checker for it.
	mustPanic(t, "test.undeclared promises the undeclared property test.nothing", func() {
		algo.Register(algo.Spec{Name: "test.undeclared", Summary: "s", Description: "d",
			Properties: []algo.Property{"test.nothing"},
			New:        func(algo.Values) (proc.Factory, error) { return nil, nil },
			Memory:     algo.Memory{Boot: algo.Bytes(1)}})
	})
	if p := algo.Property("election.agreement"); p.Family() != "election" || p.Doc() == "" {
		t.Errorf("%s: family %q, doc %q", p, p.Family(), p.Doc())
	}
}
