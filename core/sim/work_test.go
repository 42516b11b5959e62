package sim

import "testing"

// TestWorkLimit: a process that publishes an ever longer list at every
// event is stopped once the values copied pass WorkPerEvent per event of
// MaxEvents, and every later Run says so at once; a run whose lists stay
// short is not.
func TestWorkLimit(t *testing.T) {
	grow := func(length int) func(NodeID) Node {
		return func(NodeID) Node {
			var list []int
			return &fnNode{
				start: func(ctx Context) { ctx.SetTimer(1, "tick") },
				timer: func(ctx Context, _ string) {
					list = append(list, len(list))
					if len(list) > length {
						list = list[1:]
					}
					ctx.Set("list", list)
					ctx.SetTimer(1, "tick")
				},
			}
		}
	}
	const maxEvents = 1000
	s, _ := world(t, []NodeID{1}, DefaultLink, grow(1<<20), func(c *Config) { c.MaxEvents = maxEvents })
	r := s.Run(Until{})
	// Lists of 1, 2, ..., k values: k(k+1)/2 > 8·1000 first at k = 127.
	if r.Reason != WorkLimit || r.Events != 127 {
		t.Fatalf("run ended %s, want the work limit after 127 events", r)
	}
	if r := s.Run(Until{}); r.Reason != WorkLimit || r.Events != 0 {
		t.Errorf("the next run ended %s, want the work limit at once", r)
	}
	s, _ = world(t, []NodeID{1}, DefaultLink, grow(4), func(c *Config) { c.MaxEvents = maxEvents })
	if r := s.Run(Until{}); r.Reason != EventLimit {
		t.Errorf("lists of 4 values: run ended %s, want the event limit", r)
	}
}
