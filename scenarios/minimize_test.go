package scenarios

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"testing"
	"time"

	"dpso/solvers"
)

// lbfgs (gonum's L-BFGS with the approximate Wolfe line search) drives the
// gradient of a quadratic with a large constant offset, f(x) = 10⁶ +
// ½Σ h_j(x_j − c_j)², h_j ∈ [1, 100], below 10⁻⁹ although every decrease
// of f beyond ‖∇f‖ ≈ 10⁻⁵ is below the rounding of f (ulp(10⁶) ≈ 1.2·10⁻¹⁰
// and the decrease is ≈ ‖∇f‖²/(2h)): a line search that insists on a
// strict decrease stops orders of magnitude earlier. The minimizer is
// x = c, so ‖∇f(x)‖ = ‖h ∘ (x − c)‖ is checked exactly.
func TestLBFGSBelowRounding(t *testing.T) {
	const d = 20
	r := testRand(3)
	h, c := make([]float64, d), make([]float64, d)
	for j := range h {
		h[j] = math.Pow(100, float64(j)/(d-1))
		c[j] = r.NormFloat64()
	}
	f := func(x, g []float64) float64 {
		v := 1e6
		for j := range x {
			e := x[j] - c[j]
			v += h[j] * e * e / 2
			g[j] = h[j] * e
		}
		return v
	}
	for _, gtol := range []float64{1e-6, 1e-9} {
		t.Run(fmt.Sprintf("gtol=%g", gtol), func(t *testing.T) {
			x, err := lbfgs(context.Background(), f, 0, make([]float64, d), gtol, nil)
			if err != nil {
				t.Fatal(err)
			}
			var gn float64
			for j := range x {
				e := h[j] * (x[j] - c[j])
				gn += e * e
			}
			if gn = math.Sqrt(gn); gn > gtol {
				t.Errorf("gtol %g: ‖∇f‖ = %g at the returned point", gtol, gn)
			}
		})
	}
	// A budget of 5 evaluations is honoured (the point returned is the
	// last accepted one, here still far from c).
	b := &evalBudget{limit: 5}
	if _, err := lbfgs(context.Background(), f, 0, make([]float64, d), 1e-12, b); err != nil || b.used > 5 {
		t.Errorf("budget of 5: used %d, err %v", b.used, err)
	}
	// The ν term: argmin f + (ν/2)‖x‖² is x_j = h_j c_j/(h_j + ν).
	x, err := lbfgs(context.Background(), f, 3, make([]float64, d), 1e-9, nil)
	if err != nil {
		t.Fatal(err)
	}
	for j := range x {
		if want := h[j] * c[j] / (h[j] + 3); math.Abs(x[j]-want) > 1e-9 {
			t.Fatalf("ν = 3: x_%d = %.15g, want %.15g", j, x[j], want)
		}
	}
}

// Cancelling the context stops the F* minimization of an evaluation
// sample (hinge loss, continuation over smoothing levels) soon, with the
// context's error. The context is cancelled once the minimization has
// begun — when it first checks the context, an event rather than a sleep
// —; it checks it after every evaluation of F̂ (about a millisecond here),
// and the 5 s guard only catches a minimization that ignores cancellation
// (it runs for seconds otherwise).
func TestSampleRiskCancellation(t *testing.T) {
	const n, d = 40000, 30
	r := testRand(4)
	data := &solvers.Matrix{Data: make([]float64, n*(d+1)), Dim: d + 1}
	w0 := randVec(r, d, 1)
	for i := range n {
		row := data.Row(i)
		for j := range d {
			row[j] = r.NormFloat64()
		}
		row[d] = math.Copysign(1, dot(w0, row[:d])+0.5*r.NormFloat64())
	}
	parent, cancel := context.WithCancel(context.Background())
	started := make(chan struct{})
	ctx := &firstCheck{Context: parent, started: started}
	done := make(chan error, 1)
	go func() {
		_, err := newSampleRisk(ctx, &glm{loss: hingeLoss{}, d: d}, solvers.Regularizer{}, data, 3, Population, "test", nil)
		done <- err
	}()
	<-started // the minimization is under way
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	case <-time.After(time.Minute): // only ends a test that would hang; no assertion reads the time
		t.Fatal("the F* minimization did not stop after its cancellation")
	}
}

// firstCheck is a context that closes started the first time its Err or
// Done is asked for: the moment a computation starts to honour it.
type firstCheck struct {
	context.Context
	once    sync.Once
	started chan struct{}
}

func (c *firstCheck) Err() error {
	c.once.Do(func() { close(c.started) })
	return c.Context.Err()
}

func (c *firstCheck) Done() <-chan struct{} {
	c.once.Do(func() { close(c.started) })
	return c.Context.Done()
}
