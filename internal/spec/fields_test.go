package spec

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"
)

// TestSpecJSONBytes pins the Spec's JSON to the bytes it had before the
// field table wrote it (produced by the reflective encoder of commit
// 0e38e9e, scenarios/json.go, on these three Specs): set fields only, keys
// in alphabetical order, ∞ as "+Inf".
func TestSpecJSONBytes(t *testing.T) {
	l0 := 0.0
	for _, c := range []struct {
		s    Spec
		want string
	}{
		{Spec{}, `{}`},
		{Spec{Scenario: "logreg-t", Class: "smooth-sc", K: math.Inf(1), Eps: math.Inf(1), Lambda2: &l0, Lf: math.Inf(1),
			Params: map[string]float64{"wstar": 1.5, "noise": math.Inf(1)}, Seed: 1 << 60, Rand: "secure", Clip: math.Inf(1)},
			`{"class":"smooth-sc","clip":"+Inf","eps":"+Inf","k":"+Inf","lambda2":0,"lf":"+Inf","params":{"noise":"+Inf","wstar":1.5},"rand":"secure","scenario":"logreg-t","seed":1152921504606846976}`},
		{Spec{Data: "a b.csv", Loss: "hinge", EstimateConstants: true, Solver: "nonprivate-schedule", Oracle: "shuffle-clip", Delta: 1e-7, N: 12, D: 3,
			Diam: 0.5, Tail: 3, Beta: 1, Mu: 0.5, R2: 1, Rk: 2, R2k: 3, Iters: 4, Step: 0.1, Trials: 9, Workers: 3, WorkBudget: 1e12,
			Checkpoints: 7, Params: map[string]float64{}},
			`{"beta":1,"checkpoints":7,"d":3,"data":"a b.csv","delta":1e-7,"diam":0.5,"estimate-constants":true,"iters":4,"loss":"hinge","mu":0.5,"n":12,"oracle":"shuffle-clip","params":{},"r2":1,"r2k":3,"rk":2,"solver":"nonprivate-schedule","step":0.1,"tail":3,"trials":9,"work-budget":1000000000000,"workers":3}`},
	} {
		b, err := json.Marshal(c.s)
		if err != nil || string(b) != c.want {
			t.Errorf("JSON\n got %s (%v)\nwant %s", b, err, c.want)
		}
	}
}

// TestFieldRangesEnforced: for every field of the table with a fixed
// range, Resolve accepts each end of the range (or the nearest value
// inside an open end) and refuses the nearest value outside, naming the
// field and printing the range; the flag's parsing (Set) accepts every one
// of these values except an explicit 0 outside the range of a field that
// reads 0 as "the default", which only Set can see.
func TestFieldRangesEnforced(t *testing.T) {
	base := map[string]Spec{
		"k":               {Scenario: "example1"}, // L_f < ∞: every k exists
		"n":               {Scenario: "example1"}, // d = 1: n = 10⁸ within the size cap
		"d":               {Scenario: "linreg-t", N: 100},
		"clip":            {Scenario: "linreg-t", Eps: math.Inf(1)},
		"delta":           {Scenario: "linreg-t", Oracle: "shuffle-clip"},
		"batch":           {Scenario: "example1", N: 100_000_000},   // B ≤ n
		"sampling-rate":   {Scenario: "example1", N: 100_000_000},   // qn ≥ 1
		"klz-tau":         {Scenario: "linreg-t", Eps: math.Inf(1)}, // τ = ∞ needs ε = ∞
		"constants-share": {Scenario: "linreg-t", Constants: ConstantsPrivate},
		"holdout":         {Data: "rows.csv", Rk: 1, Beta: 1}, // user data only (Resolve reads no file)
	}
	checked := 0
	for _, f := range Fields() {
		if f.Range == nil {
			continue
		}
		checked++
		b, ok := base[f.Name]
		if !ok {
			b = Spec{Scenario: "linreg-t"}
		}
		step := func(x, dir float64) float64 {
			if f.Kind == Int {
				return x + dir
			}
			return math.Nextafter(x, math.Inf(int(dir)))
		}
		iv := *f.Range
		in := []float64{iv.Lo, iv.Hi}
		if iv.LoOpen {
			in[0] = step(iv.Lo, 1)
		}
		if iv.HiOpen {
			in[1] = step(iv.Hi, -1)
		}
		if f.Name == "delta" {
			in[1] = step(MaxDelta, -1) // the shuffle oracles' own bound
		}
		out := []float64{step(iv.Lo, -1), step(iv.Hi, 1)}
		if iv.LoOpen {
			out[0] = iv.Lo
		}
		if iv.HiOpen {
			out[1] = iv.Hi
		}
		if math.IsInf(iv.Hi, 1) && !iv.HiOpen {
			out = out[:1] // nothing lies above +∞
		}
		text := func(x float64) string {
			if f.Kind == Int {
				return strconv.FormatInt(int64(x), 10)
			}
			return FormatArg(x)
		}
		for _, x := range in {
			s := b.Clone()
			if err := f.Set(&s, text(x)); err != nil {
				t.Errorf("--%s %s: Set refuses: %v", f.Name, text(x), err)
				continue
			}
			if _, err := s.Resolve(); err != nil {
				t.Errorf("--%s %s: inside %s, but Resolve refuses: %v", f.Name, text(x), f.RangeText(), err)
			}
		}
		for _, x := range out {
			s := b.Clone()
			err := f.Set(&s, text(x))
			if x == 0 && f.ZeroDefault {
				if se, ok := err.(*SpecError); !ok || se.Field != f.Name {
					t.Errorf("--%s 0: Set gives %v, want a SpecError on %s (a Spec reads 0 as the default)", f.Name, err, f.Name)
				}
				continue
			}
			if err != nil {
				t.Errorf("--%s %s: Set refuses a well-formed value (ranges are Resolve's): %v", f.Name, text(x), err)
				continue
			}
			_, err = s.Resolve()
			se, ok := err.(*SpecError)
			if !ok || se.Field != f.Name || !strings.Contains(se.Msg, f.RangeText()) {
				t.Errorf("--%s %s: outside %s, Resolve gives %v", f.Name, text(x), f.RangeText(), err)
			}
		}
	}
	if checked < 15 {
		t.Errorf("only %d fields with a range checked", checked)
	}
}

// TestFlagNames: every field's name is its JSON name, and the other names
// errors carry map to flags.
func TestFlagNames(t *testing.T) {
	for _, f := range Fields() {
		if f.Kind == ParamMap {
			continue
		}
		if FlagName(f.Name) != f.Name {
			t.Errorf("FlagName(%q) = %q", f.Name, FlagName(f.Name))
		}
		if f.Usage() == "" {
			t.Errorf("%s has no help text", f.Name)
		}
	}
	for field, flag := range map[string]string{"D": "diam", "problem": "solver", "schedule": "solver", "noise": "noise"} {
		t.Run(field, func(t *testing.T) {
			if got := FlagName(field); got != flag {
				t.Errorf("FlagName(%q) = %q, want %q", field, got, flag)
			}
		})
	}
}
