package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
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
		return Time(d.A + math.Floor(-d.B*detLog(unitOpen(r))))
	case Pareto:
		// U^(-1/shape) = exp(-ln(U)/shape).
		v := d.A * detExp(-detLog(unitOpen(r))/d.B)
		return Time(math.Min(math.Floor(v), 1000*d.A))
	}
	panic("sim: unknown distribution")
}

// Exp draws from the exponential distribution of the given mean with the
// portable logarithm below, so Poisson arrivals built from it (the scenario
// workload) are the same natively and in js/wasm.
func Exp(r *rand.Rand, mean float64) float64 { return float64(-mean * detLog(unitOpen(r))) }

// unitOpen draws from (0, 1]. The conversion keeps the compiler from fusing
// the inlined scaling inside Float64 with the subtraction (see detLog).
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

// detLog and detExp are the portable Go algorithms of math.Log and math.Exp.
// The standard library uses assembly for these on amd64, which can differ
// from the js/wasm result in the last bit, and one bit is enough to change a
// latency and so the whole trace.
//
// Every product that feeds a sum is wrapped in float64(): the spec lets the
// compiler fuse x*y+z into one FMA instruction (it does on arm64, and on
// amd64 with GOAMD64=v3), which rounds differently from wasm; an explicit
// conversion forbids the fusion.
func detLog(x float64) float64 {
	const (
		ln2Hi = 6.93147180369123816490e-01
		ln2Lo = 1.90821492927058770002e-10
		l1    = 6.666666666666735130e-01
		l2    = 3.999999999940941908e-01
		l3    = 2.857142874366239149e-01
		l4    = 2.222219843214978396e-01
		l5    = 1.818357216161805012e-01
		l6    = 1.531383769920937332e-01
		l7    = 1.479819860511658591e-01
	)
	switch {
	case math.IsNaN(x) || math.IsInf(x, 1):
		return x
	case x < 0:
		return math.NaN()
	case x == 0:
		return math.Inf(-1)
	}
	f1, ki := math.Frexp(x)
	if f1 < math.Sqrt2/2 {
		f1 *= 2
		ki--
	}
	f := f1 - 1
	k := float64(ki)
	s := f / (2 + f)
	s2 := float64(s * s)
	s4 := float64(s2 * s2)
	t1 := float64(s2 * (l1 + float64(s4*(l3+float64(s4*(l5+float64(s4*l7)))))))
	t2 := float64(s4 * (l2 + float64(s4*(l4+float64(s4*l6)))))
	r := t1 + t2
	hfsq := float64(0.5 * f * f)
	return float64(k*ln2Hi) - ((hfsq - (float64(s*(hfsq+r)) + float64(k*ln2Lo))) - f)
}

func detExp(x float64) float64 {
	const (
		ln2Hi     = 6.93147180369123816490e-01
		ln2Lo     = 1.90821492927058770002e-10
		log2e     = 1.44269504088896338700e+00
		overflow  = 7.09782712893383973096e+02
		underflow = -7.45133219101941108420e+02
		nearZero  = 1.0 / (1 << 28)
	)
	switch {
	case math.IsNaN(x) || math.IsInf(x, 1):
		return x
	case math.IsInf(x, -1):
		return 0
	case x > overflow:
		return math.Inf(1)
	case x < underflow:
		return 0
	case -nearZero < x && x < nearZero:
		return 1 + x
	}
	var k int
	switch {
	case x < 0:
		k = int(float64(log2e*x) - 0.5)
	case x > 0:
		k = int(float64(log2e*x) + 0.5)
	}
	hi := x - float64(float64(k)*ln2Hi)
	lo := float64(float64(k) * ln2Lo)
	return expmulti(hi, lo, k)
}

func expmulti(hi, lo float64, k int) float64 {
	const (
		p1 = 1.66666666666666657415e-01
		p2 = -2.77777777770155933842e-03
		p3 = 6.61375632143793436117e-05
		p4 = -1.65339022054652515390e-06
		p5 = 4.13813679705723846039e-08
	)
	r := hi - lo
	t := float64(r * r)
	c := r - float64(t*(p1+float64(t*(p2+float64(t*(p3+float64(t*(p4+float64(t*p5)))))))))
	y := 1 - ((lo - float64(r*c)/(2-c)) - hi)
	return math.Ldexp(y, k)
}
