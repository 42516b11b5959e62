// Package election holds what the election algorithms share: the
// properties they promise, the roles and state keys the checkers
// (core/check) and the playground read, the configuration keys they have in
// common, the walk round the ring that a message bound for its owner takes,
// and the behaviour every ring process has on boot, recovery,
// suspicion of its coordinator and restart. The algorithms themselves live
// in the sub-packages bully, activelist, changroberts and ring.
package election

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"dsim/core/algo"
	"dsim/core/proc"
)

// State keys every election algorithm sets; the checkers (core/check), the
// playground and the layers that compose an election read them.
const (
	KeyRole   = "role"
	KeyLeader = "leader"
)

// Roles, the values of KeyRole.
const (
	Leader    = "leader"    // this process is the coordinator
	Candidate = "candidate" // this process takes part in an election
	Follower  = "follower"  // this process is neither
)

// None is the value of an id configuration key that names no process.
const None proc.NodeID = -1

// The properties of election (see init for what each holds), judged at the
// end of the run: the texts promise them once the election is over, not
// while it runs, nor while a crash has not been noticed yet.
const (
	Agreement = "election.agreement"
	Highest   = "election.highest"
	OneLeader = "election.one_leader"
)

func init() {
	algo.DeclareFamily("election", "leader election: a coordinator chosen among the live processes")
	algo.DeclareProperty(Agreement, "at the end, every live process has the same leader")
	algo.DeclareProperty(Highest, "at the end, every live process's leader is the highest live id")
	algo.DeclareProperty(OneLeader, `at the end, exactly one live process has role="leader"`)
}

// Properties are what every election algorithm promises: at quiescence the
// live processes agree on one coordinator, it is the highest live id, and
// it alone considers itself the coordinator.
var Properties = []algo.Property{Agreement, Highest, OneLeader}

// StateKeys documents the state keys every election algorithm sets.
var StateKeys = []algo.StateKey{
	{Key: KeyRole, Doc: `"leader", "candidate" (taking part in an election) or "follower"`},
	{Key: KeyLeader, Doc: "the id this process believes is the coordinator (unset until it knows one)"},
}

// ElectCommand is the command every election algorithm accepts.
var ElectCommand = algo.CommandSpec{Name: "elect", Doc: "start an election at this process, as when it notices the coordinator is gone"}

// idParam is an integer key naming a process, or -1 for none.
func idParam(name, doc string) algo.Param {
	return algo.Param{Name: name, Type: algo.Int, Default: int(None), Doc: doc, Min: -1, Max: math.MaxInt32, Process: true}
}

// BootParams are the keys that set what processes know and do at boot:
// nothing starts an election by itself unless start says so.
func BootParams() []algo.Param {
	return []algo.Param{
		idParam("leader", "the coordinator every process knows at boot (-1: none)"),
		idParam("start", "a process that starts an election at boot (-1: none; scenarios usually send the elect command)"),
	}
}

// Boot is the configuration BootParams describe.
type Boot struct {
	Leader proc.NodeID
	Start  proc.NodeID
}

// BootFrom reads the boot keys from resolved values.
func BootFrom(v algo.Values) Boot { return Boot{Leader: v.ID("leader"), Start: v.ID("start")} }

// Validate checks the boot keys.
func (b Boot) Validate() error {
	if b.Leader < None {
		return fmt.Errorf("leader must be a process id or -1, got %d", b.Leader)
	}
	if b.Start < None {
		return fmt.Errorf("start must be a process id or -1, got %d", b.Start)
	}
	return nil
}

// CheckCommand rejects a command name outside known, and any arguments:
// the election commands take none.
func CheckCommand(name string, args proc.Args, known ...string) error {
	if !slices.Contains(known, name) {
		return fmt.Errorf("unknown command %q (known: %s)", name, strings.Join(known, ", "))
	}
	if len(args) > 0 {
		return fmt.Errorf("command %q takes no arguments, got %s", name, args)
	}
	return nil
}
