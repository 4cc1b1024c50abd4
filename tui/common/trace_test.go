package common

import (
	"reflect"
	"testing"

	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/solvers"
)

// TestChangesSeedRow: secure randomness against a preset's seed 0 is a
// change of the seed row, which the form writes "none" — the form shows
// it, so it is named, not "other settings".
func TestChangesSeedRow(t *testing.T) {
	base := spec.Spec{Scenario: scenarios.LinRegT, K: 4, Eps: 1, N: 200000, D: 10, Trials: 8, Rand: solvers.Seeded.String()}
	secure := base
	secure.Rand = solvers.Secure.String()
	reseeded := base
	reseeded.Seed = 7
	for _, tc := range []struct {
		name string
		a, b spec.Spec
		want []Change
	}{
		{"same", base, base, nil},
		{"secure against seed 0", secure, base, []Change{{"seed", "none"}}},
		{"seed 0 against secure", base, secure, []Change{{"seed", "0"}}},
		{"another seed", reseeded, base, []Change{{"seed", "7"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Changes(tc.a, tc.b); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Changes = %v, want %v", got, tc.want)
			}
		})
	}
}
