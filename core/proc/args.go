package proc

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"dsim/core/trace"
)

// Args are a command's named arguments.
type Args map[string]any

// Int returns the integer argument key, or def when it is absent.
func (a Args) Int(key string, def int) (int, error) {
	v, ok := a[key]
	if !ok || v == nil {
		return def, nil
	}
	switch x := v.(type) {
	case int:
		return x, nil
	case int64:
		return int(x), nil
	case NodeID:
		return int(x), nil
	case float64:
		if x == float64(int(x)) {
			return int(x), nil
		}
	}
	return 0, &ArgError{Key: key, Want: "an integer", Got: v}
}

// String renders the arguments sorted by key, for traces, in at most
// trace.MaxText bytes.
func (a Args) String() string {
	keys := make([]string, 0, len(a))
	for k := range a {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var t trace.Text
	for _, k := range keys {
		if !t.Add(" ", trace.Truncate(k, trace.MaxQuoted)+"="+FormatValue(a[k])) {
			break
		}
	}
	return t.String()
}

// ArgError reports a command argument of the wrong type.
type ArgError struct {
	Key  string
	Want string
	Got  any
}

func (e *ArgError) Error() string {
	return "argument " + trace.Quote(e.Key) + " must be " + e.Want + ", got " + FormatValue(e.Got)
}

// FormatValue renders a state or argument value the same way on every
// platform (no %v of floats or maps). A long string is quoted in part and a
// long list shows its first trace.MaxListed elements.
func FormatValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "nil"
	case string:
		return trace.Quote(x)
	case bool:
		return strconv.FormatBool(x)
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case NodeID:
		return strconv.Itoa(int(x))
	case Time:
		return strconv.FormatInt(int64(x), 10)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case []int:
		return formatList(len(x), func(i int) string { return strconv.Itoa(x[i]) })
	case []NodeID:
		return formatList(len(x), func(i int) string { return strconv.Itoa(int(x[i])) })
	}
	return fmt.Sprintf("%T", v)
}

func formatList(n int, at func(int) string) string {
	var b strings.Builder
	b.WriteByte('[')
	for i := range min(n, trace.MaxListed) {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(at(i))
	}
	if n > trace.MaxListed {
		fmt.Fprintf(&b, ",... (%d in all)", n)
	}
	b.WriteByte(']')
	return b.String()
}
