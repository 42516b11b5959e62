package check

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"dsim/core/algo/election"
	"dsim/core/trace"
)

// electionKeys are the state keys the agreement and highest checkers read:
// the leaders, and the roles, as a process that set a role but no leader
// knows none.
var electionKeys = []string{election.KeyRole, election.KeyLeader}

// mark names an event.
type mark struct {
	t   int64
	seq uint64
}

func (k mark) String() string { return fmt.Sprintf("t=%d seq=%d", k.t, k.seq) }

// member is what the monitor knows of one process of an election: the role
// and leader it set last, and the events that set them. A crash clears both,
// as the process loses them, and marks it down until it recovers.
type member struct {
	down      bool
	hasLeader bool
	role      string
	leader    any
	roleAt    mark
	leaderAt  mark
	downAt    mark
}

// electionState follows the roles and leaders of a run. The election
// properties hold once the election is over, so they are judged at the end
// from the last values; the events that set them name what broke.
type electionState struct {
	procs map[int]*member // the processes that set a role or a leader
}

func (s *electionState) observe(e *trace.Event) {
	switch e.Type {
	case trace.Crash:
		if p := s.procs[e.Node]; p != nil {
			*p = member{down: true, downAt: mark{e.T, e.Seq}}
		}
	case trace.Recover:
		if p := s.procs[e.Node]; p != nil {
			p.down = false
		}
	case trace.State:
		if e.Key != election.KeyRole && e.Key != election.KeyLeader {
			return
		}
		p := s.procs[e.Node]
		if p == nil {
			p = &member{}
			s.procs[e.Node] = p
		}
		if e.Key == election.KeyRole {
			p.role, _ = e.New.(string)
			p.roleAt = mark{e.T, e.Seq}
		} else {
			p.leader, p.hasLeader, p.leaderAt = e.New, e.New != nil, mark{e.T, e.Seq}
		}
	}
}

// live lists the processes up now, sorted.
func (s *electionState) live() []int {
	var ids []int
	for id, p := range s.procs {
		if !p.down {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

// following is the live processes that follow one leader (none: known is
// false), sorted, and the latest event that set it at one of them.
type following struct {
	leader string // the leader's JSON text
	known  bool
	ids    []int
	since  mark
}

// followings groups the live processes by the leader they follow, in the
// order of their lowest id.
func (s *electionState) followings(live []int) []*following {
	var out []*following
	for _, id := range live {
		p := s.procs[id]
		text := string(trace.AppendJSON(nil, p.leader))
		i := slices.IndexFunc(out, func(f *following) bool { return f.known == p.hasLeader && f.leader == text })
		if i < 0 {
			i = len(out)
			out = append(out, &following{leader: text, known: p.hasLeader})
		}
		f := out[i]
		f.ids = append(f.ids, id)
		if p.hasLeader && p.leaderAt.seq >= f.since.seq {
			f.since = p.leaderAt
		}
	}
	return out
}

// describe says who follows whom, and when the last of them started to; a
// leader that is down says since when.
func (s *electionState) describe(f *following) string {
	if !f.known {
		return idList(f.ids) + plural(f.ids, " knows", " know") + " no leader"
	}
	text := fmt.Sprintf("%s %s %s (since %s)", idList(f.ids), plural(f.ids, "follows", "follow"), f.leader, f.since)
	if id, err := strconv.Atoi(f.leader); err == nil {
		if p := s.procs[id]; p != nil && p.down {
			text += fmt.Sprintf(", which crashed at %s", p.downAt)
		}
	}
	return text
}

// idList names processes for a verdict, the first trace.MaxListed of
// them: a verdict on a million-process world is one line, not megabytes.
func idList(ids []int) string {
	parts := make([]string, 0, min(len(ids), trace.MaxListed)+1)
	for _, id := range ids[:min(len(ids), trace.MaxListed)] {
		parts = append(parts, strconv.Itoa(id))
	}
	if len(ids) > trace.MaxListed {
		parts = append(parts, "... ("+strconv.Itoa(len(ids))+" in all)")
	}
	return strings.Join(parts, ", ")
}

func plural(ids []int, one, many string) string {
	if len(ids) == 1 {
		return one
	}
	return many
}

func (m *Monitor) agreement(now int64) (bool, string) {
	s := &m.election
	live := s.live()
	if len(live) == 0 {
		return true, fmt.Sprintf("no live process at t=%d", now)
	}
	fs := s.followings(live)
	if len(fs) == 1 && fs[0].known {
		return true, fmt.Sprintf("at t=%d, the %d live processes all follow %s", now, len(live), fs[0].leader)
	}
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = s.describe(f)
	}
	return false, fmt.Sprintf("at t=%d, the live processes do not agree on a leader: %s", now, strings.Join(parts, "; "))
}

func (m *Monitor) highest(now int64) (bool, string) {
	s := &m.election
	live := s.live()
	if len(live) == 0 {
		return true, fmt.Sprintf("no live process at t=%d", now)
	}
	top := strconv.Itoa(live[len(live)-1])
	var parts []string
	for _, f := range s.followings(live) {
		if !f.known || f.leader != top {
			parts = append(parts, s.describe(f))
		}
	}
	if len(parts) == 0 {
		return true, fmt.Sprintf("at t=%d, the %d live processes follow %s, the highest live id", now, len(live), top)
	}
	return false, fmt.Sprintf("at t=%d, the highest live id is %s, but %s", now, top, strings.Join(parts, "; "))
}

func (m *Monitor) oneLeader(now int64) (bool, string) {
	s := &m.election
	var leaders []int
	roles := map[string][]int{}
	var order []string // roles in the order of their lowest id
	for _, id := range s.live() {
		r := s.procs[id].role
		if r == election.Leader {
			leaders = append(leaders, id)
		}
		if roles[r] == nil {
			order = append(order, r)
		}
		roles[r] = append(roles[r], id)
	}
	switch len(leaders) {
	case 1:
		return true, fmt.Sprintf("at t=%d, %d alone has role %s (since %s)", now, leaders[0], election.Leader, s.procs[leaders[0]].roleAt)
	case 0:
		if len(order) == 0 {
			return false, fmt.Sprintf("no live process at t=%d", now)
		}
		parts := make([]string, len(order))
		for i, r := range order {
			parts[i] = fmt.Sprintf("%s %s %q", idList(roles[r]), plural(roles[r], "is", "are"), r)
		}
		return false, fmt.Sprintf("at t=%d, no live process has role %s (%s)", now, election.Leader, strings.Join(parts, "; "))
	}
	parts := make([]string, len(leaders))
	for i, id := range leaders {
		parts[i] = fmt.Sprintf("%d (since %s)", id, s.procs[id].roleAt)
	}
	return false, fmt.Sprintf("at t=%d, %d live processes have role %s: %s", now, len(leaders), election.Leader, strings.Join(parts, ", "))
}
