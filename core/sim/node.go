// Package sim is the deterministic kernel: integer virtual time, an event
// queue ordered by (time, seq), seeded random streams, the node runtime with
// crash and recovery, per-node drifting clocks that processes may step or
// slew, the network model and the failure detector.
//
// Nothing here reads the wall clock, starts a goroutine or ranges over a map
// where the order could reach the schedule or the trace: one seed gives one
// run, natively and in WebAssembly alike.
package sim

import "dsim/core/proc"

// The contract's types, named here too so that the kernel and its callers
// read as before: the algorithm contract itself is package proc.
type (
	NodeID         = proc.NodeID
	Time           = proc.Time
	Duration       = proc.Duration
	Message        = proc.Message
	Node           = proc.Node
	SuspectHandler = proc.SuspectHandler
	Factory        = proc.Factory
	Context        = proc.Context
	Args           = proc.Args
	ArgError       = proc.ArgError
)
