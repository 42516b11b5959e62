package detmath

import (
	"math"
	"testing"
)

// The portable functions agree with the standard library's to within a
// unit in the last place (they are its Go algorithms; amd64's assembly may
// round the other way), and keep its special cases.
func TestAgreesWithTheStandardLibrary(t *testing.T) {
	near := func(a, b float64) bool {
		if a == b || math.IsNaN(a) && math.IsNaN(b) {
			return true
		}
		return math.Abs(a-b) <= 2*math.Abs(math.Nextafter(b, math.Inf(1))-b)
	}
	one := []struct {
		name     string
		got, std func(float64) float64
	}{
		{"Exp", Exp, math.Exp}, {"Log", Log, math.Log}, {"Log10", Log10, math.Log10},
		{"Sinh", Sinh, math.Sinh}, {"Cosh", Cosh, math.Cosh}, {"Tanh", Tanh, math.Tanh},
	}
	xs := []float64{0, 1e-300, 1e-9, 0.1, 0.5, 0.625, 1, 1.5, 2.5, 3.7, 10, 21.5, 88, 700, 1e300,
		-0.1, -1.5, -30, math.Inf(1), math.Inf(-1), math.NaN()}
	for _, f := range one {
		for _, x := range xs {
			if g, s := f.got(x), f.std(x); !near(g, s) {
				t.Errorf("%s(%v) = %v, the standard library %v", f.name, x, g, s)
			}
		}
	}
	for _, x := range xs {
		for _, y := range []float64{0, 0.5, -0.5, 1, 2, 2.5, -3, 0.3, 1e10, math.Inf(1), math.NaN()} {
			if g, s := Pow(x, y), math.Pow(x, y); !near(g, s) {
				t.Errorf("Pow(%v, %v) = %v, the standard library %v", x, y, g, s)
			}
		}
	}
}
