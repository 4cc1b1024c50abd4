package solvers

import (
	"context"

	"gonum.org/v1/gonum/floats"

	"dpso/solvers/oracle"
	"dpso/solvers/vec"
)

// feedBlock feeds the gradients at w of the block xs of nb samples, the
// samples [i, i+nb) of the source, into dst (sa: dst as a ScaledAdder,
// or nil).
func (r *runner) feedBlock(s *slot, dst oracle.Part, sa oracle.ScaledAdder, xs []float64, i, nb int, w []float64) {
	if r.lin != nil && (sa != nil || r.lin.L2() != 0) {
		r.feedLinear(s, dst, sa, xs, i, nb, w)
		return
	}
	sd := r.sd
	for j := range nb {
		r.p.Grad(s.g, w, xs[j*sd:(j+1)*sd:(j+1)*sd])
		dst.Add(s.g)
	}
}

// feedLinear feeds a block of nb samples of a LinearLoss problem, the
// samples [i, i+nb) of the source: the scores, the slopes, then slope·a in
// factored form (λ = 0) or the formed gradient slope·a + λw. In factored
// form the squared norms ‖a_i‖² the oracle needs come from the pass that
// computes the scores, or from r.src.sq on a materialized dataset, so each
// sample is read twice: for its score and to be accumulated.
func (r *runner) feedLinear(s *slot, dst oracle.Part, sa oracle.ScaledAdder, xs []float64, i, nb int, w []float64) {
	sd, d := r.sd, r.d
	score, slope := s.score[:nb], s.slope[:nb]
	l2 := r.lin.L2()
	if l2 == 0 {
		var sq []float64
		if r.src.sq != nil {
			sq = r.src.sq[i : i+nb]
			vec.DotRows(score, w[:d], xs, sd)
		} else {
			sq = s.sq[:nb]
			vec.DotSqRows(score, sq, w[:d], xs, sd)
		}
		r.lin.Slopes(slope, score, xs, sd)
		if na, ok := sa.(oracle.NormScaledAdder); ok && r.src.rn != nil {
			na.AddScaledNorms(slope, sq, r.src.rn[i:i+nb], xs, sd)
			return
		}
		sa.AddScaled(slope, sq, xs, sd)
		return
	}
	vec.DotRows(score, w[:d], xs, sd)
	r.lin.Slopes(slope, score, xs, sd)
	g := s.g
	for j, k := range slope {
		a := xs[j*sd : j*sd+d]
		for i := range g {
			g[i] = k*a[i] + l2*w[i]
		}
		dst.Add(g)
	}
}

// sqNorms returns ‖a_i‖² (floats.Dot) of the first d entries of every row of
// m, checking ctx every cancelWork floats.
func sqNorms(ctx context.Context, m *Matrix, d int) ([]float64, error) {
	n, sd := m.Len(), m.Dim
	sq := make([]float64, n)
	every := int(checkInterval(sd))
	for i := range sq {
		if i%every == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		a := m.Data[i*sd : i*sd+d]
		sq[i] = floats.Dot(a, a)
	}
	return sq, nil
}
