package sim

import (
	"fmt"
	"math"
	"math/rand/v2"

	"dsim/core/detmath"
)

// DistKind names a latency distribution.
type DistKind uint8

const (
	Constant    DistKind = iota // A ticks
	Uniform                     // an integer in [A, B]
	Exponential                 // A + an exponential draw of mean B
	Pareto                      // A * U^(-1/B): a long tail of shape B, capped at 1000*A
)

var distNames = [...]string{Constant: "constant", Uniform: "uniform", Exponential: "exponential", Pareto: "pareto"}

func (k DistKind) String() string {
	if int(k) < len(distNames) {
		return distNames[k]
	}
	return fmt.Sprintf("dist(%d)", uint8(k))
}

// DistKinds maps the names scripts use to distributions; "exp" and
// "longtail" are aliases.
var DistKinds = map[string]DistKind{
	"constant": Constant, "uniform": Uniform, "exponential": Exponential,
	"exp": Exponential, "pareto": Pareto, "longtail": Pareto,
}

// Dist is a latency distribution in ticks.
type Dist struct {
	Kind DistKind
	A, B float64
}

func (d Dist) String() string {
	switch d.Kind {
	case Constant:
		return fmt.Sprintf("constant %g", d.A)
	default:
		return fmt.Sprintf("%s %g %g", d.Kind, d.A, d.B)
	}
}

// Validate reports a distribution that cannot be drawn from.
func (d Dist) Validate() error {
	bad := func(msg string) error { return fmt.Errorf("latency %s: %s", d, msg) }
	if math.IsNaN(d.A) || math.IsNaN(d.B) || math.IsInf(d.A, 0) || math.IsInf(d.B, 0) {
		return bad("not a finite number")
	}
	if d.A < 0 || d.B < 0 {
		return bad("must not be negative")
	}
	switch d.Kind {
	case Constant, Exponential:
	case Uniform:
		if d.B < d.A {
			return bad("the upper bound is below the lower bound")
		}
	case Pareto:
		if d.A < 1 || d.B <= 0 {
			return bad("pareto needs a minimum of at least 1 and a positive shape")
		}
	default:
		return bad("unknown distribution")
	}
	if d.A > 1e12 || d.B > 1e12 {
		return bad("too large")
	}
	return nil
}

// constant reports whether every draw gives the same value, so the kernel can
// skip both the random draw and FIFO bookkeeping.
func (d Dist) constant() bool {
	return d.Kind == Constant || (d.Kind == Uniform && d.A == d.B)
}

// Min is the shortest latency a draw can give, in ticks.
func (d Dist) Min() float64 { return math.Floor(d.A) }

// Max is the longest latency a draw can give, in ticks: +Inf for an
// exponential of positive mean, which has no bound.
func (d Dist) Max() float64 {
	switch d.Kind {
	case Uniform:
		return math.Floor(max(d.A, d.B))
	case Exponential:
		if d.B > 0 {
			return math.Inf(1)
		}
	case Pareto:
		return math.Floor(1000 * d.A)
	}
	return math.Floor(d.A)
}

func (d Dist) draw(r *rand.Rand) Time {
	switch d.Kind {
	case Constant:
		return Time(d.A)
	case Uniform:
		lo, hi := int64(d.A), int64(d.B)
		if hi <= lo {
			return Time(lo)
		}
		return Time(lo + r.Int64N(hi-lo+1))
	case Exponential:
		return Time(d.A + math.Floor(-d.B*detmath.Log(unitOpen(r))))
	case Pareto:
		// U^(-1/shape) = exp(-ln(U)/shape).
		v := d.A * detmath.Exp(-detmath.Log(unitOpen(r))/d.B)
		return Time(math.Min(math.Floor(v), 1000*d.A))
	}
	panic("sim: unknown distribution")
}

// Exp draws from the exponential distribution of the given mean with the
// portable logarithm below, so Poisson arrivals built from it (the scenario
// workload) are the same natively and in js/wasm.
func Exp(r *rand.Rand, mean float64) float64 { return float64(-mean * detmath.Log(unitOpen(r))) }

// unitOpen draws from (0, 1]. The conversion keeps the compiler from fusing
// the inlined scaling inside Float64 with the subtraction (see detmath).
func unitOpen(r *rand.Rand) float64 { return 1 - float64(r.Float64()) }

// Link is the model of one directed link, and of the network's default.
type Link struct {
	Latency Dist
	Loss    float64 // probability a message is lost
	Dup     float64 // probability a message is delivered twice
	FIFO    bool    // deliveries keep send order on this link
}

// DefaultLink is the network a world gets unless told otherwise: one tick of
// latency, reliable, FIFO.
var DefaultLink = Link{Latency: Dist{Kind: Constant, A: 1}, FIFO: true}

// Validate reports a link model that cannot be used.
func (l Link) Validate() error {
	if err := l.Latency.Validate(); err != nil {
		return err
	}
	for _, p := range []struct {
		name string
		v    float64
	}{{"loss", l.Loss}, {"dup", l.Dup}} {
		if !(p.v >= 0 && p.v <= 1) {
			return fmt.Errorf("%s must be a probability between 0 and 1, got %g", p.name, p.v)
		}
	}
	return nil
}
