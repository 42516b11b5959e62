package check

import (
	"slices"
	"strconv"
	"strings"
)

// Ratio is an exact quotient of integers. Den 0 means undefined (a mean of
// no samples).
type Ratio struct{ Num, Den int64 }

// Defined reports whether the ratio has a value.
func (r Ratio) Defined() bool { return r.Den != 0 }

// Float is the nearest float64 (an exact IEEE division, the same on every
// platform while both parts stay below 2^53); 0 when undefined.
func (r Ratio) Float() float64 {
	if r.Den == 0 {
		return 0
	}
	return float64(r.Num) / float64(r.Den)
}

// String is the reduced fraction, or an integer, or "-" when undefined.
func (r Ratio) String() string {
	if r.Den == 0 {
		return "-"
	}
	g := gcd(abs(r.Num), abs(r.Den))
	n, d := r.Num/g, r.Den/g
	if d < 0 {
		n, d = -n, -d
	}
	if d == 1 {
		return strconv.FormatInt(n, 10)
	}
	return strconv.FormatInt(n, 10) + "/" + strconv.FormatInt(d, 10)
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	if a == 0 {
		return 1
	}
	return a
}

// KindCount is the number of messages of one kind sent.
type KindCount struct {
	Kind string
	Sent int64
}

// Costs are the mutual exclusion cost metrics of a run so far.
//
// A request counts from the moment the process asks the algorithm for the
// critical section (cs becomes "wanted"); a request made while the process
// was already waiting or in the critical section waits in its backlog first
// and counts from when its turn comes. Times are true virtual times.
type Costs struct {
	Requests int64 // times a process's cs became "wanted"
	Entries  int64 // times a process's cs became "held"
	Messages int64 // every message sent in the run, of every kind
	ByKind   []KindCount
	// SyncDelay is the mean time from a process leaving the critical
	// section to the next entry, over the entries whose process was
	// already waiting when the previous one left (a holder's crash is no
	// leaving: the next entry after it is not a sample).
	SyncDelay Ratio
	// Response is the mean time from a request to leaving the critical
	// section, over the requests that left it (not by a crash).
	Response Ratio
	// Waiting is the mean time from a request to entering.
	Waiting Ratio
	// Throughput is entries per 1000 ticks over the span from the first
	// request to the last exit.
	Throughput Ratio
}

// PerEntry is n per critical-section entry.
func (c Costs) PerEntry(n int64) Ratio { return Ratio{n, c.Entries} }

// String is a one-line summary, for logs and test failures.
func (c Costs) String() string {
	var b strings.Builder
	b.WriteString("requests=" + strconv.FormatInt(c.Requests, 10) + " entries=" + strconv.FormatInt(c.Entries, 10) +
		" messages=" + strconv.FormatInt(c.Messages, 10) + " per_entry=" + c.PerEntry(c.Messages).String())
	for _, k := range c.ByKind {
		b.WriteString(" " + k.Kind + "=" + c.PerEntry(k.Sent).String())
	}
	b.WriteString(" sync_delay=" + c.SyncDelay.String() + " response=" + c.Response.String() +
		" waiting=" + c.Waiting.String() + " throughput=" + c.Throughput.String())
	return b.String()
}

// Costs returns the mutual exclusion metrics so far.
func (m *Monitor) Costs() Costs {
	s := &m.mutex
	c := Costs{
		Requests:  s.costs.requests,
		Entries:   s.costs.entries,
		Messages:  s.costs.messages,
		ByKind:    slices.Clone(s.kinds),
		SyncDelay: Ratio{s.costs.syncSum, s.costs.syncN},
		Response:  Ratio{s.costs.respSum, s.costs.respN},
		Waiting:   Ratio{s.costs.waitSum, s.costs.waitN},
	}
	slices.SortFunc(c.ByKind, func(a, b KindCount) int { return strings.Compare(a.Kind, b.Kind) })
	if s.spanOpen && s.costs.respN > 0 && s.exitAt > s.firstReq {
		c.Throughput = Ratio{s.costs.entries * 1000, s.exitAt - s.firstReq}
	}
	return c
}
