package vec

import (
	"math"

	"gonum.org/v1/gonum/floats"
)

// Norm is the Euclidean norm ‖x‖. The plain sum of squares (gonum's
// floats.Dot of x with itself, SIMD assembly on amd64) is used when it is a
// normal finite number (the common case, and the fast one); otherwise
// gonum's scaled norm is used, so the result neither overflows for entries
// near math.MaxFloat64 nor underflows for tiny ones. It is NaN if any entry
// is NaN, else +Inf if any entry is infinite.
func Norm(x []float64) float64 {
	var ssq float64
	if len(x) < 4 {
		// floats.Dot's sum when it has no full block of 4: in order,
		// without the call (the audit's and the tests' d = 1, 2, 3).
		for _, v := range x {
			ssq += float64(v * v)
		}
	} else {
		ssq = floats.Dot(x, x)
	}
	if ssq > 0x1p-900 && ssq < 0x1p+900 {
		return math.Sqrt(ssq)
	}
	if ssq == 0 && allZero(x) { // a zero vector, common in batches
		return 0
	}
	// Tiny (possibly underflowed to 0), huge, or non-finite: rescale.
	return floats.Norm(x, 2)
}

// ProjectBall projects w onto the ball B(0, r) in place:
// Π(w) = w·min(1, r/‖w‖). A non-finite w is mapped to the centre 0, never to
// NaN.
func ProjectBall(w []float64, r float64) {
	n := Norm(w)
	if n <= r {
		return
	}
	if math.IsInf(n, 0) || math.IsNaN(n) {
		clear(w)
		return
	}
	s := r / n
	for i := range w {
		w[i] *= s
	}
}

// allZero reports whether every entry of x is ±0.
func allZero(x []float64) bool {
	for _, v := range x {
		if v != 0 {
			return false
		}
	}
	return true
}
