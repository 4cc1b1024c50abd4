package scenarios

import (
	"context"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"dpso/internal/testutil/golden"
	"dpso/theory"
)

// knownMinimaDefs are the evaluation samples minima.txt holds: hinge-t at
// its defaults (the hinge preset's law) for every d of the explorer's sweep
// over d on that preset and the small d the engine's tests use, convex and
// strongly convex (λ₂ = 0.1).
func knownMinimaDefs() []ProblemDef {
	var defs []ProblemDef
	for _, d := range []int{1, 2, 3, 4, 6, 10, 16, 40} {
		defs = append(defs, ProblemDef{Scenario: HingeT, Class: theory.NonsmoothConvex, D: d})
	}
	for _, d := range []int{2, 3, 4, 10} {
		defs = append(defs, ProblemDef{Scenario: HingeT, Class: theory.NonsmoothSC, D: d})
	}
	return defs
}

// TestKnownMinimaAreTheSearches: for every sample of minima.txt, the
// certified minimization run from scratch (no known minimum) reaches the
// point and smoothing level the file holds, to the bit, and the bound it
// proves is the one computed at the file's point; the file holds no other
// sample. So F* and its width are the search's whether the file is read or
// not. DPSO_UPDATE_GOLDEN=1 rewrites the file from the searches.
func TestKnownMinimaAreTheSearches(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var text strings.Builder
	keys := map[string]bool{}
	for _, def := range knownMinimaDefs() {
		t.Run(fmt.Sprintf("%s/%s/d=%d", def.Scenario, def.Class, def.D), func(t *testing.T) {
			if err := def.Resolve(nil); err != nil {
				t.Fatal(err)
			}
			m, err := lookupDef(def.Scenario).build(ctx, &def)
			if err != nil {
				t.Fatal(err)
			}
			key := distKey(&def, m)
			keys[key] = true
			data, err := evalSample(ctx, m)
			if err != nil {
				t.Fatal(err)
			}
			w, lower, tau, err := minimizeSampleFrom(ctx, m.obj, m.reg, data, m.radius, nil)
			if err != nil {
				t.Fatal(err)
			}
			text.WriteString(minimaLine(key, knownMinimum{tau: tau, w: w}))
			if golden.Update() {
				return
			}
			k := knownMinimumOf(key, len(w))
			if k == nil {
				t.Fatalf("%s is not in minima.txt (DPSO_UPDATE_GOLDEN=1 adds it)", key)
			}
			if k.tau != tau || !sameBits(k.w, w) {
				t.Fatalf("%s: the search ends at τ = %g, w = %v; minima.txt holds τ = %g, w = %v (DPSO_UPDATE_GOLDEN=1 rewrites it)", key, tau, w, k.tau, k.w)
			}
			kw, klower, _, err := minimizeSampleFrom(ctx, m.obj, m.reg, data, m.radius, k)
			if err != nil || !sameBits(kw, w) || math.Float64bits(klower) != math.Float64bits(lower) {
				t.Errorf("%s: from the known minimum the bound is %v (%v), the search's %v", key, klower, err, lower)
			}
			if s, ok := m.risk.(*sampleRisk); !ok || !sameBits(s.wopt, w) {
				t.Errorf("%s: the built instance's F* is not at the search's point", key)
			}
		})
	}
	if golden.Update() {
		if err := os.WriteFile("minima.txt", []byte(text.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	for key := range parseMinima(minimaText) {
		if !keys[key] {
			t.Errorf("minima.txt holds %s, which no search here checks", key)
		}
	}
}

func sameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// minimaLine is knownMinimum k's line of minimaText under key.
func minimaLine(key string, k knownMinimum) string {
	f := []string{key, strconv.FormatFloat(k.tau, 'x', -1, 64)}
	for _, v := range k.w {
		f = append(f, strconv.FormatFloat(v, 'x', -1, 64))
	}
	return strings.Join(f, "\t") + "\n"
}
