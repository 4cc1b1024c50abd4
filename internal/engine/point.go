package engine

import (
	"context"

	"dpso/internal/spec"
	"dpso/scenarios"
)

// CheckPoint reports why the sweep point param = v of r would not build
// (nil: it builds): the point's Spec must resolve (spec.Resolved.At) and
// its problem must build with the constants the Spec declares
// (scenarios.Build, which holds r̃₂ ≤ r̃_k ≤ r̃_2k ≤ L_f where one is
// declared: a declared L_f = 10⁴ admits no k whose r̃_2k is infinite).
// These are the first two things PrepareSweep checks at each point, and
// cheap on the catalogue's scenarios; its solvers' prescriptions, which
// come next, are not made. User data are read from their file.
func CheckPoint(ctx context.Context, r spec.Resolved, param string, v float64) error {
	at, err := r.At(param, v)
	if err != nil {
		return err
	}
	_, err = scenarios.Build(ctx, at.Problem)
	return err
}
