package trace

import "reflect"

// Field is an exported struct field as the trace encoders name it.
type Field struct {
	Index int    // position in the struct, for reflect.Value.Field
	Name  string // the json tag, or the Go name with its leading capitals lowered
}

// Fields lists the fields of struct type t that the encoders write, in
// declaration order, so that scenarios read and build messages under the
// names the trace shows.
func Fields(t reflect.Type) []Field {
	fs := fieldsOf(t)
	out := make([]Field, len(fs))
	for i, f := range fs {
		out[i] = Field{Index: f.index, Name: f.name}
	}
	return out
}
