package scenarios

import (
	"context"
	"fmt"
	"math"

	"dpso/theory"
)

// gradHeadroom is the factor by which the solvers' gradients can exceed
// n·sup_W ‖∇ℓ‖ before they are squared: the F* minimizer's gradient of
// F̂ + (ν/2)‖w‖² is at most twice it (ν ≤ ‖∇F̂(0)‖/R·1.01), and L-BFGS
// squares differences of two such gradients (yᵀy), so 4.
const gradHeadroom = 4

// checkFiniteRows refuses a row that makes what the solvers compute leave
// float64's range somewhere on W = B(0, R), alone or summed over the
// file's n rows:
//   - the loss: sup_W ℓ ≤ supValue(R‖a‖, |y|) + λ₂R²/2, times n;
//   - the gradient's squared norm (Frank–Wolfe gaps, L-BFGS's curvature
//     pairs, clipping norms): (gradHeadroom·n·sup_W ‖∇ℓ‖)², with
//     sup_W ‖∇ℓ‖ = glm.supGrad;
//   - the smoothness term of the step sizes, β·D² with the row's
//     β ≤ curvature·‖a‖² + λ₂ and D = 2R, times n (smooth losses).
//
// Otherwise the empirical risk and its minimization turn into ∞ or NaN.
// The error names the row's line and its largest cell, the one to
// rescale. It checks ctx every 4096 rows.
func checkFiniteRows(ctx context.Context, path string, t *Table, data interface{ Row(int) []float64 }, o *glm, R float64) error {
	n := float64(t.Rows)
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	for i := range t.Rows {
		if i%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		x := data.Row(i)
		a, y := x[:o.d], math.Abs(x[o.d])
		na2 := sqnorm(a)
		sup := o.loss.supValue(R*math.Sqrt(na2), y) + o.l2*R*R/2
		g := gradHeadroom * n * o.supGrad(x, R)
		curv := o.loss.curvature()
		var what string
		switch {
		case !finite(n * sup):
			what = fmt.Sprintf("makes the %s loss on W = B(0, %s) leave float64's range (summed over the %d rows)", o.loss.Name(), theory.FormatNumber(R), t.Rows)
		case !finite(g * g):
			what = fmt.Sprintf("makes the squared norm of the %s loss's gradient on W = B(0, %s), summed over the %d rows, leave float64's range (the solvers and the F̂* minimization compute it)", o.loss.Name(), theory.FormatNumber(R), t.Rows)
		case !math.IsInf(curv, 1) && !finite(n*(curv*na2+o.l2)*4*R*R):
			what = fmt.Sprintf("makes the smoothness term β·D² of the %s loss (β ≤ sup ℓ″·‖a‖² + λ₂, D = %s), summed over the %d rows, leave float64's range", o.loss.Name(), theory.FormatNumber(2*R), t.Rows)
		default:
			continue
		}
		col := 0
		for j, v := range x {
			if col == 0 || math.Abs(v) > math.Abs(x[col-1]) {
				col = j + 1
			}
		}
		return &DataError{Path: path, Line: int(t.Lines[i]), Col: col, Msg: fmt.Sprintf(
			"%s %s; rescale the data (e.g. standardize each column)", theory.FormatNumber(x[col-1]), what)}
	}
	return nil
}
