package scenarios

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"dpso/solvers"
)

// heavyRows is the walk's data law: 50 rows of d = 2 features and a label,
// each cell Student-t(3)·scale (t = Z/√(χ²₃/3)), from a fixed seed.
func heavyRows(scale float64) *solvers.Matrix {
	const n, cols = 50, 3
	r := rand.New(rand.NewPCG(7, 3))
	m := &solvers.Matrix{Data: make([]float64, n*cols), Dim: cols}
	for i := range m.Data {
		var chi float64
		for range 3 {
			z := r.NormFloat64()
			chi += z * z
		}
		m.Data[i] = r.NormFloat64() / math.Sqrt(chi/3) * scale
	}
	return m
}

// writeRows writes m as a CSV file with a header, each value in full.
func writeRows(t *testing.T, m *solvers.Matrix) string {
	var b strings.Builder
	b.WriteString("a1,a2,y\n")
	for i := range m.Len() {
		for j, v := range m.Row(i) {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
		}
		b.WriteByte('\n')
	}
	p := filepath.Join(t.TempDir(), "h.csv")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestMinimizerWithoutFiniteIterate: on rows whose gradients' squared
// norms overflow float64 (Student-t(3)·10¹⁰⁰ and ·10¹⁵², squared loss on
// B(0, 1)) every Frank–Wolfe gap is ∞ or NaN; the F̂* minimization says
// so with an error, never a nil point.
func TestMinimizerWithoutFiniteIterate(t *testing.T) {
	for _, scale := range []float64{1e100, 1e152} {
		t.Run(fmt.Sprint(scale), func(t *testing.T) {
			w, _, err := minimizeSample(context.Background(), &glm{loss: squaredLoss{}, d: 2}, solvers.Regularizer{}, heavyRows(scale), 1)
			if !errors.Is(err, errNoFiniteIterate) || w != nil {
				t.Errorf("w = %v, err = %v; want no point and errNoFiniteIterate", w, err)
			}
		})
	}
}

// TestHeavyScaledDataRefusedAtLoad: the walk's data law at ×10⁵⁰ builds
// (F̂* certified finite), at ×10¹⁰⁰ and ×10¹⁵² the loader refuses the
// first row whose summed gradient's squared norm overflows, naming its
// line, its largest cell and the fix, before any minimization.
func TestHeavyScaledDataRefusedAtLoad(t *testing.T) {
	for _, tc := range []struct {
		scale  float64
		refuse bool
	}{{1e50, false}, {1e100, true}, {1e152, true}} {
		t.Run(fmt.Sprint(tc.scale), func(t *testing.T) {
			rows := heavyRows(tc.scale)
			def := ProblemDef{Data: writeRows(t, rows), Loss: Squared, Rk: 1, Beta: 1, Class: "smooth-convex"}
			if err := def.ResolveSource(); err != nil {
				t.Fatal(err)
			}
			if err := def.Resolve(nil); err != nil {
				t.Fatal(err)
			}
			in, err := Build(context.Background(), def)
			if !tc.refuse {
				if err != nil {
					t.Fatalf("×%g: %v, want a problem", tc.scale, err)
				}
				if ri := in.RiskInfo(); math.IsNaN(ri.FStar) || math.IsInf(ri.FStar, 0) || math.IsNaN(ri.FStarErr) || len(ri.WStar) != 2 {
					t.Errorf("×%g: F̂* = %g ± %g at %v, want finite", tc.scale, ri.FStar, ri.FStarErr, ri.WStar)
				}
				return
			}
			var de *DataError
			if !errors.As(err, &de) {
				t.Fatalf("×%g: err = %v, want a *DataError", tc.scale, err)
			}
			// The first row, in file order, whose (4·n·sup‖∇ℓ‖)² overflows.
			o := &glm{loss: squaredLoss{}, d: 2}
			want := -1
			for i := range rows.Len() {
				if g := 4 * 50 * o.supGrad(rows.Row(i), 1); math.IsInf(g*g, 1) {
					want = i
					break
				}
			}
			big := 1
			for j, v := range rows.Row(want) {
				if math.Abs(v) > math.Abs(rows.Row(want)[big-1]) {
					big = j + 1
				}
			}
			if de.Line != want+2 || de.Col != big || !strings.Contains(de.Msg, "squared norm") || !strings.Contains(de.Msg, "rescale the data") {
				t.Errorf("×%g: %v; want line %d, column %d, the gradient's squared norm and the fix", tc.scale, err, want+2, big)
			}
		})
	}
}
