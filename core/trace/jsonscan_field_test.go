package trace

import "testing"

func TestFieldOf(t *testing.T) {
	type order struct {
		Path  []int `json:"path"`
		Value int   `json:"value"`
	}
	for _, msg := range []any{order{[]int{1, 3}, 0}, Raw(`{"path": [1, 3], "value": 0}`)} {
		if p, ok := FieldOf(msg, "path"); !ok || string(p) != "[1,3]" && string(p) != "[1, 3]" {
			t.Errorf("FieldOf(%v, path) = %s, %v", msg, p, ok)
		}
		if v, ok := FieldOf(msg, "value"); !ok || string(v) != "0" {
			t.Errorf("FieldOf(%v, value) = %s, %v", msg, v, ok)
		}
		if _, ok := FieldOf(msg, "signers"); ok {
			t.Errorf("FieldOf(%v, signers) found a field it does not have", msg)
		}
	}
	if _, ok := FieldOf(Raw(`{"path": [1,`), "path"); ok {
		t.Error("a broken object has no field")
	}
}
