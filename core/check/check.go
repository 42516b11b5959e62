// Package check judges the properties algorithms promise and measures
// their costs, from the trace events of a run. A Monitor is fed every event
// as it happens (it is a sim.Observer), so it needs no recorded trace and
// works the same with tracing off.
//
// Safety properties are judged at every event and the first violation is
// kept with the event (t, seq) where it happened; liveness and the election
// properties, which hold once the election is over, are judged when the
// caller asks (at the end of the run), naming the events that set the
// values that broke them.
//
// The properties are declared, with what they mean, by the algorithm
// families (core/algo/mutex, core/algo/election, core/algo/clock,
// core/algo/snapshot, core/algo/order), whose
// state keys and values check reads; check registers the checker of each.
package check

import (
	"fmt"
	"slices"
	"strings"

	"dsim/core/algo"
	"dsim/core/algo/agreement"
	"dsim/core/algo/cc"
	"dsim/core/algo/clock"
	"dsim/core/algo/commit"
	"dsim/core/algo/deadlock"
	"dsim/core/algo/election"
	"dsim/core/algo/mutex"
	"dsim/core/algo/order"
	"dsim/core/algo/snapshot"
	"dsim/core/trace"
)

// Checker is a property registered with its checker.
type Checker struct {
	Property algo.Property
	// Reads are the state keys the checker reads besides crashes and
	// recoveries: an algorithm promising the property declares them.
	Reads []string
	judge func(m *Monitor, now int64) (bool, string)
	// at gives the seq of the event where a safety property first failed,
	// for a page to show that event rather than the end of the run; nil
	// for properties judged at the end.
	at func(m *Monitor) uint64
}

// checkers are the properties check judges, in the order the reference
// lists them. A test fails when a registered algorithm promises a property
// that has none here.
var checkers = []Checker{
	{election.Agreement, electionKeys, (*Monitor).agreement, nil},
	{election.Highest, electionKeys, (*Monitor).highest, nil},
	{election.OneLeader, []string{election.KeyRole}, (*Monitor).oneLeader, nil},
	{mutex.Safety, []string{mutex.KeyCS}, (*Monitor).safety, func(m *Monitor) uint64 { return m.mutex.unsafeSeq }},
	{mutex.Liveness, []string{mutex.KeyCS, mutex.KeyBacklog}, (*Monitor).liveness, nil},
	{mutex.Ordering, []string{mutex.KeyCS, mutex.KeyStamp}, (*Monitor).ordering, func(m *Monitor) uint64 { return m.mutex.disorderSeq }},
	{clock.Lamport, []string{clock.KeyLamport}, (*Monitor).lamportClock, func(m *Monitor) uint64 { return m.lamport.bad.seq }},
	{clock.Vector, []string{clock.KeyVector}, (*Monitor).vectorClock, func(m *Monitor) uint64 { return m.vector.bad.seq }},
	{clock.Skew, physKeys, (*Monitor).clockSkew, func(m *Monitor) uint64 { return m.phys.skew.seq }},
	{clock.Accuracy, physKeys, (*Monitor).clockAccuracy, func(m *Monitor) uint64 { return m.phys.accurate.seq }},
	{clock.Monotonic, nil, (*Monitor).clockMonotonic, func(m *Monitor) uint64 { return m.phys.mono.seq }},
	{snapshot.Consistent, snapshotKeys, (*Monitor).snapshotConsistent, func(m *Monitor) uint64 { return m.snap.bad.seq }},
	{snapshot.Conserved, snapshotKeys, (*Monitor).snapshotConserved, func(m *Monitor) uint64 { return m.snap.lost.seq }},
	{order.FIFO, []string{order.KeyDelivered}, (*Monitor).orderFIFO, func(m *Monitor) uint64 { return m.order.first(&m.order.fifo).seq }},
	{order.Causal, []string{order.KeyMulticasts, order.KeyDelivered}, (*Monitor).orderCausal, func(m *Monitor) uint64 { return m.order.first(&m.order.causal).seq }},
	{order.Total, []string{order.KeyDelivered}, (*Monitor).orderTotal, func(m *Monitor) uint64 { return m.order.first(&m.order.total).seq }},
	{commit.Atomic, commitKeys, (*Monitor).commitAtomic, func(m *Monitor) uint64 { return m.commit.bad.seq }},
	{commit.NonBlocking, commitKeys, (*Monitor).commitNonBlocking, nil},
	{cc.Serializable, ccKeys, (*Monitor).serializable, (*Monitor).serializableAt},
	{deadlock.Free, freeKeys, (*Monitor).deadlockFree, func(m *Monitor) uint64 { return m.dl.free.seq }},
	{deadlock.Sound, dlKeys[:2], (*Monitor).deadlockSound, func(m *Monitor) uint64 { return m.dl.sound.seq }},
	{deadlock.Complete, []string{dlKeys[0], dlKeys[2]}, (*Monitor).deadlockComplete, func(m *Monitor) uint64 { return m.dl.late.seq }},
	{agreement.IC1, agreementKeys, (*Monitor).ic1, nil},
	{agreement.IC2, agreementKeys, (*Monitor).ic2, nil},
}

// Checkers lists the properties check has a checker for.
func Checkers() []Checker { return slices.Clone(checkers) }

// Known reports whether check has a checker for the property.
func Known(name string) bool { return find(name) != nil }

// Names lists the known property names, for error messages.
func Names() string {
	names := make([]string, len(checkers))
	for i, c := range checkers {
		names[i] = string(c.Property)
	}
	return strings.Join(names, ", ")
}

func find(name string) *Checker {
	for i := range checkers {
		if string(checkers[i].Property) == name {
			return &checkers[i]
		}
	}
	return nil
}

// Monitor watches one run. The zero value is not ready: use New.
type Monitor struct {
	mutex    mutexState
	election electionState
	lamport  lamportState
	vector   vectorState
	phys     physState
	snap     snapState
	order    orderState
	commit   commitState
	cc       ccState
	dl       dlState
	generals agreementState
}

var snapshotKeys = []string{snapshot.KeyBalance, snapshot.KeyRecorded, snapshot.KeyChannel}

// New returns a monitor of a run that has not started yet.
func New() *Monitor {
	return &Monitor{
		mutex:    mutexState{procs: map[int]*proc{}},
		election: electionState{procs: map[int]*member{}},
		lamport:  lamportState{procs: map[int]*lamportProc{}, sent: map[uint64]stampedAt{}},
		vector:   vectorState{procs: map[int]*vecProc{}, sent: map[uint64][]int32{}},
		phys:     physState{byID: map[int]*physProc{}, refs: map[string]*physRef{}},
		snap:     snapState{procs: map[int]*snapProc{}, sent: map[uint64]snapSent{}, snaps: map[int]*snapRec{}},
		order:    orderState{procs: map[int]*orderProc{}, past: map[uint64][]int32{}, count: map[uint64]int{}},
		commit:   commitState{procs: map[int]*commitProc{}, txns: map[int]*txnRec{}},
		cc:       ccState{byKey: map[[2]int]*ccCopy{}, runs: map[int]int{}, last: map[int]int{}, done: map[int]ccCommit{}, home: map[int]int{}},
		dl:       dlState{bound: -1},
		generals: agreementState{procs: map[int]*general{}},
	}
}

// Observe takes the next event of the run. Its signature is sim.Observer's.
func (m *Monitor) Observe(e *trace.Event) {
	m.mutex.observe(e)
	m.election.observe(e)
	m.lamport.observe(e)
	m.vector.observe(e)
	m.phys.observe(e)
	m.snap.observe(e)
	m.order.observe(e)
	m.commit.observe(e)
	m.cc.observe(e)
	m.dl.observe(e)
	m.generals.observe(e)
}

// Verdict is the outcome of one property.
type Verdict struct {
	Property string
	Pass     bool
	// Text says what held, or what went wrong and where: it starts with
	// the property's name.
	Text string
	// At is the seq of the event where a safety property first failed
	// (0: none, or a property judged at the end of the run).
	At uint64
}

// Check judges the property as of virtual time now (the end of the run for
// liveness and the election properties). It fails only for a property check
// has no checker for.
func (m *Monitor) Check(name string, now int64) (Verdict, error) {
	c := find(name)
	if c == nil {
		return Verdict{}, fmt.Errorf("no checker for %s (known: %s)", trace.Quote(name), Names())
	}
	ok, text := c.judge(m, now)
	v := Verdict{Property: name, Pass: ok, Text: name + ": " + text}
	if !ok && c.at != nil {
		v.At = c.at(m)
	}
	return v, nil
}
