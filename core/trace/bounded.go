package trace

import "strings"

// The texts an event records from a script's values (a command's
// arguments, a partition's groups) are bounded, as everything a script
// makes the kernel keep: a trace records one per event, and a 16 MiB
// string or a list of a million ids given to every command would fill the
// memory between two looks of the memory guard.
const (
	// MaxText is the longest such text, "..." aside.
	MaxText = 1 << 10
	// MaxListed is how many elements of a list one shows.
	MaxListed = 64
)

// Text builds one of those texts from items between separators, cut with
// "..." at MaxText bytes.
type Text struct {
	b     strings.Builder
	items int
	cut   bool
}

// Add appends item, after sep unless it is the first, or cuts the text
// when they would take it past MaxText; it reports whether the text has
// room for more.
func (t *Text) Add(sep, item string) bool {
	if t.items == 0 {
		sep = ""
	}
	if t.cut {
		return false
	}
	if t.b.Len()+len(sep)+len(item) > MaxText {
		t.b.WriteString(sep + "...")
		t.cut = true
		return false
	}
	t.b.WriteString(sep)
	t.b.WriteString(item)
	t.items++
	return true
}

func (t *Text) String() string { return t.b.String() }
