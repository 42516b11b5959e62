package check

import (
	"testing"

	dsproc "dsim/core/proc"
	"dsim/core/trace"
)

// kv is a state event of a commit site at time t.
func kv(t int64, node int, key string, v any) trace.Event {
	return trace.Event{Type: trace.State, T: t, Node: node, Key: key, New: v}
}

// prepared is T1 started by coordinator 1 over sites 2 and 3 (as the
// kernel keeps the list, or as a JSONL trace gives it back), with their
// votes.
func prepared(parts any, vote2, vote3 string) []trace.Event {
	return []trace.Event{
		kv(0, 1, "transaction", 1), kv(0, 1, "participants", parts), kv(0, 1, "phase", "prepare"),
		kv(1, 2, "transaction", 1), kv(1, 2, "vote", vote2), kv(1, 2, "phase", "ready"),
		kv(1, 3, "transaction", 1), kv(1, 3, "vote", vote3), kv(1, 3, "phase", "ready"),
	}
}

func decision(t int64, node int, d string) trace.Event { return kv(t, node, "decision", d) }

func TestCommitProperties(t *testing.T) {
	ids := []dsproc.NodeID{2, 3}
	crash := func(t int64, node int) trace.Event { return trace.Event{Type: trace.Crash, T: t, Node: node} }
	recov := func(t int64, node int) trace.Event { return trace.Event{Type: trace.Recover, T: t, Node: node} }
	const allDecided = "commit.nonblocking: every participant up at t=50 has decided its transaction"
	judgeAll(t, 50, []verdictCase{
		{"atomic: everyone commits", "commit.atomic", cat(prepared(ids, "ready", "ready"),
			[]trace.Event{decision(2, 1, "commit"), decision(3, 2, "commit"), decision(3, 3, "commit")}),
			true, "commit.atomic: every site decided each transaction alike, and a commit only after every participant voted ready (1 transaction(s) decided)"},
		{"atomic: commit with a vote no", "commit.atomic", cat(prepared([]any{2.0, 3.0}, "ready", "no"),
			[]trace.Event{decision(2, 1, "commit")}),
			false, "commit.atomic: t=2 seq=9: process 1 decided commit on T1, but 3 has not voted ready"},
		{"atomic: commit before the votes are in", "commit.atomic", cat(prepared([]int{2, 3, 4}, "ready", "ready"),
			[]trace.Event{decision(2, 1, "commit")}),
			false, "commit.atomic: t=2 seq=9: process 1 decided commit on T1, but 4 has not voted ready"},
		{"atomic: commit with no participants named", "commit.atomic", []trace.Event{
			kv(0, 2, "transaction", 1), kv(0, 2, "vote", "ready"), decision(1, 2, "commit")},
			false, "commit.atomic: t=1 seq=2: process 2 decided commit on T1, whose participants no coordinator named"},
		{"atomic: the sites disagree", "commit.atomic", cat(prepared(ids, "ready", "ready"),
			[]trace.Event{decision(2, 1, "abort"), decision(3, 2, "abort"), decision(9, 3, "commit")}),
			false, "commit.atomic: t=9 seq=11: process 3 decided commit on T1, but process 1 decided abort at t=2 seq=9"},
		{"atomic: a crashed site's decision counts", "commit.atomic", cat(prepared(ids, "ready", "ready"),
			[]trace.Event{decision(2, 1, "commit"), crash(3, 1), decision(9, 3, "abort")}),
			false, "commit.atomic: t=9 seq=11: process 3 decided abort on T1, but process 1 decided commit at t=2 seq=9"},
		{"atomic: a recovered site redoes its decision", "commit.atomic", cat(prepared(ids, "ready", "ready"),
			[]trace.Event{decision(2, 1, "commit"), decision(3, 2, "commit"), crash(4, 2), recov(5, 2),
				kv(5, 2, "transaction", 1), kv(5, 2, "vote", "ready"), decision(5, 2, "commit")}),
			true, "commit.atomic: every site decided each transaction alike, and a commit only after every participant voted ready (1 transaction(s) decided)"},
		{"nonblocking: everyone decided", "commit.nonblocking", cat(prepared(ids, "ready", "ready"),
			[]trace.Event{decision(2, 1, "abort"), decision(3, 2, "abort"), decision(3, 3, "abort")}),
			true, allDecided},
		{"nonblocking: the participants blocked", "commit.nonblocking", cat(prepared(ids, "ready", "ready"),
			[]trace.Event{crash(2, 1), kv(12, 2, "phase", "blocked"), kv(12, 3, "phase", "blocked")}),
			false, "commit.nonblocking: at t=50, 2 participant(s) up have not decided: 2 (T1: phase blocked since t=12 seq=10); 3 (T1: phase blocked since t=12 seq=11)"},
		{"nonblocking: a failed participant is not waited for", "commit.nonblocking", cat(prepared(ids, "ready", "ready"),
			[]trace.Event{crash(2, 3), decision(3, 1, "commit"), decision(4, 2, "commit")}),
			true, allDecided},
		{"nonblocking: a participant that never heard of T waits for nothing", "commit.nonblocking", cat(prepared(ids, "ready", "ready")[:6],
			[]trace.Event{decision(3, 1, "abort"), decision(4, 2, "abort")}),
			true, allDecided},
		{"nonblocking: a recovered participant that forgot T", "commit.nonblocking", cat(prepared(ids, "ready", "ready"),
			[]trace.Event{crash(2, 3), recov(3, 3), decision(3, 1, "abort"), decision(4, 2, "abort")}),
			false, "commit.nonblocking: at t=50, 1 participant(s) up have not decided: 3 (T1: no state of it since it crashed)"},
	})
}
