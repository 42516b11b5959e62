// Package phases draws up the atomic commit view of the playground: at
// the cursor, where the protocol is (the coordinator's phase), and for
// every site its role, its phase, its vote and decision, and the records
// its stable log holds, the blocked sites marked. It reads the commit
// family's state keys and, for the log, every change of the stable log's
// key up to the cursor.
package phases

import (
	"dsim/core/algo/commit"
	"dsim/core/proc"
	"dsim/core/trace"
	"dsim/wasm/replay"
)

// Site is one row of the view.
type Site struct {
	ID                    int
	Role                  string // "coordinator" or "participant"
	Phase, Vote, Decision string // the keys' values, "" where unset
	Log                   []string
	Up, Blocked           bool
}

// View is the whole view at the cursor.
type View struct {
	Stage string // where the protocol is, in words
	Sites []Site
}

// History is what the view needs of the whole run, read once per world
// and cut at the cursor: the stable log records every process wrote, by
// position, and which processes coordinate (a crashed process shows no
// state, but its row still says what it was).
type History struct {
	logs  [][]Record
	coord []bool
}

// Record is one stable log record and the event that wrote it.
type Record struct {
	At   int
	Text string
}

// Read reads the history of world r.
func Read(r *replay.Replay) *History {
	h := &History{logs: make([][]Record, len(r.Nodes)), coord: make([]bool, len(r.Nodes))}
	for i := range r.Events {
		e := &r.Events[i]
		p := r.NodeOf(i)
		if e.Type != trace.State || p < 0 {
			continue
		}
		switch e.Key {
		case proc.KeyStable:
			h.logs[p] = append(h.logs[p], Record{i, text(e.New)})
		case commit.KeyParticipants:
			h.coord[p] = true
		}
	}
	return h
}

// text is a state value as text: a string, or a JSON string read back.
func text(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case trace.Raw:
		if s, err := trace.Unquote(string(x)); err == nil {
			return s
		}
		return string(x)
	}
	return ""
}

// At is the view after the first n events, whose state is v; ok is false
// when no process has joined a transaction (not a commit world).
func At(r *replay.Replay, v *replay.View, h *History, n int) (out View, ok bool) {
	get := func(p int, key string) string {
		s, has := v.Get(p, key)
		if !has {
			return ""
		}
		if u, err := trace.Unquote(s); err == nil {
			return u
		}
		return s
	}
	coord := ""
	for p, id := range r.Nodes {
		if _, has := v.Get(p, commit.KeyPhase); !has && len(h.logs[p]) == 0 && !h.coord[p] {
			continue
		}
		ok = true
		s := Site{ID: id, Role: "participant", Phase: get(p, commit.KeyPhase), Vote: get(p, commit.KeyVote),
			Decision: get(p, commit.KeyDecision), Up: v.Up[p]}
		if h.coord[p] {
			s.Role = "coordinator"
			coord = s.Phase
			if !s.Up {
				coord = "down"
			}
		}
		s.Blocked = s.Up && s.Phase == commit.Blocked
		for _, rec := range h.logs[p] {
			if rec.At < n {
				s.Log = append(s.Log, rec.Text)
			}
		}
		out.Sites = append(out.Sites, s)
	}
	out.Stage = stage(coord)
	return out, ok
}

// stage says where the protocol is from its coordinator's phase.
func stage(phase string) string {
	switch phase {
	case "":
		return "not started"
	case commit.Prepare:
		return "phase 1: the coordinator asks for votes (prepare T)"
	case commit.PreCommit:
		return "phase 2: precommit, every site voted ready"
	case commit.Commit, commit.Abort:
		return "phase 2: the decision, " + phase + " T, is sent"
	case commit.Complete:
		return "complete: every site acknowledged the decision"
	case "down":
		return "the coordinator is down"
	}
	return phase
}
