package check

import (
	"testing"

	"dsim/core/trace"
)

func role(t int64, node int, r string) trace.Event {
	return trace.Event{T: t, Type: trace.State, Node: node, Key: "role", New: r}
}
func leader(t int64, node, id int) trace.Event {
	return trace.Event{T: t, Type: trace.State, Node: node, Key: "leader", New: id}
}

// boot has every process of ids follow the last one, the coordinator.
func boot(ids ...int) []trace.Event {
	var out []trace.Event
	top := ids[len(ids)-1]
	for _, id := range ids {
		r := "follower"
		if id == top {
			r = "leader"
		}
		out = append(out, role(0, id, r), leader(0, id, top))
	}
	return out
}

// elected has every process of ids follow winner, in that order.
func elected(t int64, winner int, ids ...int) []trace.Event {
	var out []trace.Event
	for _, id := range ids {
		r := "follower"
		if id == winner {
			r = "leader"
		}
		out = append(out, leader(t, id, winner), role(t, id, r))
	}
	return out
}

func TestElectionProperties(t *testing.T) {
	// The lecture notes' "Token Ring Election Algorithm" walkthrough: the
	// ring 3,5,0,1,4,6 follows 6, which fails; 3 notices and starts an
	// election, and its COORDINATOR message makes 5 the leader.
	ring := cat(boot(3, 5, 0, 1, 4, 6), []trace.Event{crash(10, 6), role(15, 3, "candidate")})
	ringDone := cat(ring, elected(20, 5, 3, 5, 0, 1, 4))
	// Silberschatz, "The Bully Algorithm": P4 leads; P1 and P4 fail, P3
	// wins P2's election; P1 recovers and knows no leader until P3 wins
	// again; P4 recovers and bullies everyone.
	bully := cat(boot(1, 2, 3, 4), []trace.Event{crash(0, 1), crash(0, 4), role(5, 2, "candidate"), role(6, 3, "candidate")},
		elected(30, 3, 3, 2), []trace.Event{recov(100, 1), role(100, 1, "follower")})
	bullyDone := cat(bully, elected(120, 3, 1), []trace.Event{recov(200, 4)}, elected(201, 4, 4, 1, 2, 3))
	// A partition cuts 1, 2, 3 off from 4, 5, 6: the side without the
	// coordinator elects 3, and it stays so.
	split := cat(boot(1, 2, 3, 4, 5, 6), []trace.Event{role(20, 3, "candidate")}, elected(30, 3, 3, 1, 2))
	tests := []verdictCase{
		{"ring: 5 wins", "election.agreement", ringDone, true,
			"election.agreement: at t=50, the 5 live processes all follow 5"},
		{"ring: 5 is the highest live id", "election.highest", ringDone, true,
			"election.highest: at t=50, the 5 live processes follow 5, the highest live id"},
		{"ring: 5 alone leads", "election.one_leader", ringDone, true,
			"election.one_leader: at t=50, 5 alone has role leader (since t=20 seq=17)"},
		{"ring: still following the crashed 6", "election.agreement", ring, true,
			"election.agreement: at t=50, the 5 live processes all follow 6"},
		{"ring: the crashed 6 is not the highest live id", "election.highest", ring, false,
			"election.highest: at t=50, the highest live id is 5, but 0, 1, 3, 4, 5 follow 6 (since t=0 seq=9), which crashed at t=10 seq=12"},
		{"ring: nobody leads during the election", "election.one_leader", ring, false,
			`election.one_leader: at t=50, no live process has role leader (0, 1, 4, 5 are "follower"; 3 is "candidate")`},

		{"bully: P3 wins while P1 and P4 are down", "election.highest", cat(boot(1, 2, 3, 4), []trace.Event{crash(0, 1), crash(0, 4)}, elected(30, 3, 3, 2)), true,
			"election.highest: at t=50, the 2 live processes follow 3, the highest live id"},
		{"bully: recovered P1 knows no leader", "election.agreement", bully, false,
			"election.agreement: at t=50, the live processes do not agree on a leader: 1 knows no leader; 2, 3 follow 3 (since t=30 seq=14)"},
		{"bully: P4 bullies everyone", "election.highest", bullyDone, true,
			"election.highest: at t=50, the 4 live processes follow 4, the highest live id"},
		{"bully: P3 bullied out", "election.one_leader", bullyDone, true,
			"election.one_leader: at t=50, 4 alone has role leader (since t=201 seq=22)"},

		{"partition: two leaders", "election.one_leader", split, false,
			"election.one_leader: at t=50, 2 live processes have role leader: 3 (since t=30 seq=14), 6 (since t=0 seq=10)"},
		{"partition: two leaders followed", "election.agreement", split, false,
			"election.agreement: at t=50, the live processes do not agree on a leader: 1, 2, 3 follow 3 (since t=30 seq=17); 4, 5, 6 follow 6 (since t=0 seq=11)"},
		{"partition: 3 is not the highest", "election.highest", split, false,
			"election.highest: at t=50, the highest live id is 6, but 1, 2, 3 follow 3 (since t=30 seq=17)"},
		{"nobody", "election.one_leader", []trace.Event{role(0, 1, "follower"), crash(1, 1)}, false,
			"election.one_leader: no live process at t=50"},
	}
	judgeAll(t, 50, tests)
}
