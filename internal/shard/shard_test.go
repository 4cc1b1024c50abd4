package shard

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/solvers/ledger"
	"dpso/theory"
)

// sameBits reports whether a and b are the same value, floats compared
// bit for bit (NaN equal to NaN of the same bits, 0 unequal to −0), nil
// slices, maps and pointers unequal to empty ones.
func sameBits(a, b reflect.Value) bool {
	if a.Kind() != b.Kind() {
		return false
	}
	switch a.Kind() {
	case reflect.Float32, reflect.Float64:
		return math.Float64bits(a.Float()) == math.Float64bits(b.Float())
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return sameBits(a.Elem(), b.Elem())
	case reflect.Slice, reflect.Map:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		if a.Kind() == reflect.Map {
			for _, k := range a.MapKeys() {
				if !b.MapIndex(k).IsValid() || !sameBits(a.MapIndex(k), b.MapIndex(k)) {
					return false
				}
			}
			return true
		}
		fallthrough
	case reflect.Array:
		for i := range a.Len() {
			if !sameBits(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Struct:
		for i := range a.NumField() {
			if !sameBits(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	}
	return a.Interface() == b.Interface()
}

// fill sets every field of v, recursively, to a value that is not its
// zero (slices of two elements, floats from the list of hard cases), so
// that a field the codec dropped or a value it rounded shows.
func fill(v reflect.Value, r *rand.Rand) {
	hard := []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 5e-324, math.MaxFloat64, 0.1, 1.0 / 3, -2.5e-300}
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(math.MinInt64 >> (64 - v.Type().Bits()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(math.MaxUint64 >> (64 - v.Type().Bits()))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(hard[r.IntN(len(hard))])
	case reflect.String:
		v.SetString("x < y & \"q\" — ε²/2\n")
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), r)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			fill(v.Index(i), r)
		}
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		e := reflect.New(v.Type().Elem()).Elem()
		fill(e, r)
		v.SetMapIndex(reflect.ValueOf("k").Convert(v.Type().Key()), e)
	case reflect.Struct:
		for i := range v.NumField() {
			fill(v.Field(i), r)
		}
	}
}

// TestExactCodecRoundTrip: every field of engine.TrialResult, filled with
// values that are hard to write (NaN, ±Inf, −0, the smallest subnormal,
// the largest float, 0.1, 1/3, extreme integers, HTML characters), reads
// back bit for bit through marshalResults and unmarshalResults; nil and
// empty slices stay apart; a field added to engine.TrialResult (or a type
// it holds) and not to the wire form fails it, since fill walks the type.
func TestExactCodecRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		want := make([]engine.TrialResult, 3)
		for i := range want {
			fill(reflect.ValueOf(&want[i]).Elem(), r)
		}
		want[1].Notes, want[1].W = []string{}, nil // empty and nil stay apart
		b, err := marshalResults(want)
		if err != nil {
			t.Fatal(err)
		}
		got, err := unmarshalResults(b)
		if err != nil {
			t.Fatalf("%v\n%s", err, b)
		}
		if !sameBits(reflect.ValueOf(want), reflect.ValueOf(got)) {
			t.Fatalf("round trip changed the value:\n%s", b)
		}
	}
}

// TestExactCodecRefuses: a results list with an unknown or a missing
// field, a non-finite float that is not one of num's strings, a number out
// of range or a number in another form is refused, not read as zero or
// rounded.
func TestExactCodecRefuses(t *testing.T) {
	good, err := marshalResults([]engine.TrialResult{{Excess: 0.5, NoiseOff: math.NaN(), Spent: ledger.Cost{Rho: math.Inf(1)}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := unmarshalResults(good); err != nil {
		t.Fatalf("%s is refused: %v", good, err)
	}
	for _, c := range []struct{ old, new string }{
		{`"Excess":0.5,`, ``},                        // a missing field
		{`"Excess":0.5,`, `"Excess":0.5,"Extra":1,`}, // an unknown one
		{`"Excess":0.5`, `"Excess":"inf"`},
		{`"Excess":0.5`, `"Excess":1e999`},
		{`"Excess":0.5`, `"Excess":0.50`}, // not the form written
	} {
		t.Run(fmt.Sprintf("%q→%q", c.old, c.new), func(t *testing.T) {
			in := strings.Replace(string(good), c.old, c.new, 1)
			if in == string(good) {
				t.Fatalf("%q is not in %s", c.old, good)
			}
			if _, err := unmarshalResults([]byte(in)); err == nil {
				t.Errorf("%s is read", in)
			}
		})
	}
}

// TestAssign: every item in exactly one bin; a hand-checked case where
// the longest-first rule finds the exact balance (8 + 2.8 + 1 in each
// bin); and on random costs the list-scheduling guarantee (Graham 1966):
// the largest bin is at most total/n + (1 − 1/n)·max cost.
func TestAssign(t *testing.T) {
	bins := assign([]float64{1, 2.8, 8, 1, 2.8, 8, 1, 2.8, 8}, 3)
	for b, is := range bins {
		var load float64
		for _, i := range is {
			load += []float64{1, 2.8, 8}[i%3]
		}
		if math.Abs(load-11.8) > 1e-12 || len(is) != 3 {
			t.Errorf("bin %d: items %v, load %s; want 3 items, 11.8", b, is, theory.Sig6.Format(load))
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		m, n := 1+r.IntN(60), 1+r.IntN(8)
		cost := make([]float64, m)
		var total, big float64
		for i := range cost {
			cost[i] = math.Exp(4 * r.Float64())
			total += cost[i]
			big = math.Max(big, cost[i])
		}
		bins := assign(cost, n)
		count := make([]int, m)
		worst := 0.0
		for _, is := range bins {
			var load float64
			for _, i := range is {
				load += cost[i]
				count[i]++
			}
			worst = math.Max(worst, load)
		}
		if slices.ContainsFunc(count, func(c int) bool { return c != 1 }) {
			t.Fatalf("items dealt %v times, want each once", count)
		}
		if lim := total/float64(n) + (1-1/float64(n))*big; worst > lim*(1+1e-12) {
			t.Errorf("m = %d, n = %d: largest bin %s > %s", m, n, theory.Sig6.Format(worst), theory.Sig6.Format(lim))
		}
	}
}

func TestParseIndex(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Index
		ok   bool
	}{{"1/3", Index{1, 3}, true}, {" 3/3 ", Index{3, 3}, true}, {"1/1", Index{1, 1}, true},
		{"0/3", Index{}, false}, {"4/3", Index{}, false}, {"3", Index{}, false}, {"a/3", Index{}, false}, {"1/0", Index{}, false}, {"-1/3", Index{}, false}} {
		t.Run(c.in, func(t *testing.T) {
			got, err := ParseIndex(c.in)
			if (err == nil) != c.ok || got != c.want {
				t.Errorf("ParseIndex(%q) = %v, %v", c.in, got, err)
			}
		})
	}
}

// sweep prepares a small sweep: 3 points × 2 trials of two solvers.
func sweep(t *testing.T, trials int) (*engine.PreparedSweep, Definition) {
	t.Helper()
	s := spec.Spec{Scenario: "mean-hard", Class: theory.SmoothSC, D: 4, Trials: trials}
	r, err := s.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	sw := engine.SweepSpec{Param: "n", From: 500, To: 2000, Points: 3, Solvers: []string{"clipped-sgd", "nonprivate-schedule"}}
	p, err := engine.PrepareSweep(context.Background(), r, sw)
	if err != nil {
		t.Fatal(err)
	}
	def, err := NewDefinition(s, sw, "test build")
	if err != nil {
		t.Fatal(err)
	}
	return p, def
}

// TestShardsMergeToTheSweep: the three shards' files, written and read
// back, merge into the report of the unsharded sweep — every point's
// reports the same bit for bit, hence every summary (engine.Sweep is
// Run of every unit then Report on the same prepared sweep).
func TestShardsMergeToTheSweep(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	var files []*File
	for i := 1; i <= 3; i++ {
		p, def := sweep(t, 2)
		f, err := Run(ctx, p, def, Index{i, 3}, nil)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "part-"+string(rune('0'+i))+".json")
		b, err := f.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		g, err := Read(path)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, g)
	}
	if err := Check(files); err != nil {
		t.Fatal(err)
	}
	p, _ := sweep(t, 2)
	if err := Merge(p, files); err != nil {
		t.Fatal(err)
	}
	merged, err := p.Report(ctx)
	if err != nil {
		t.Fatal(err)
	}
	whole, _ := sweep(t, 2)
	if err := whole.Run(ctx, whole.Units(), nil); err != nil {
		t.Fatal(err)
	}
	want, err := whole.Report(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want.Points {
		for si := range want.Points[i].Reports {
			a, b := *want.Points[i].Reports[si], *merged.Points[i].Reports[si]
			a.Elapsed, b.Elapsed = 0, 0
			for k := range a.Trials {
				a.Trials[k].Elapsed, b.Trials[k].Elapsed = 0, 0
			}
			if !sameBits(reflect.ValueOf(a), reflect.ValueOf(b)) {
				t.Errorf("point %d, solver %d: the merged report differs from the sweep's", i, si)
			}
		}
	}
	if !sameBits(reflect.ValueOf(want.Slopes), reflect.ValueOf(merged.Slopes)) || !sameBits(reflect.ValueOf(want.Bounds), reflect.ValueOf(merged.Bounds)) {
		t.Error("the merged slopes differ from the sweep's")
	}
	// Merging a unit twice is refused.
	if err := Merge(p, files[:1]); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("a unit merged twice: %v", err)
	}
	// So is a report with a unit missing.
	q, _ := sweep(t, 2)
	if err := Merge(q, files[:2]); err != nil {
		t.Fatal(err)
	}
	if _, err := q.Report(context.Background()); err == nil || !strings.Contains(err.Error(), "incomplete") {
		t.Errorf("a report with units missing: %v", err)
	}
}

// TestCheckRefuses: files of another sweep (naming what differs), of
// another shard count, a shard twice, shards missing; Read refuses an
// edited file and another format.
func TestCheckRefuses(t *testing.T) {
	_, def := sweep(t, 2)
	mk := func(d Definition, i, n int, name string) *File {
		return &File{Format: FormatName, Version: FormatVersion, Fingerprint: d.Fingerprint(), Shard: i, Shards: n, Definition: d, Name: name}
	}
	other := def
	other.Spec.Eps = 2
	other.Sweep.To = 4000
	build := def
	build.Build = "another build"
	for _, c := range []struct {
		files []*File
		want  []string
	}{
		{[]*File{mk(def, 1, 2, "a"), mk(other, 2, 2, "b")}, []string{`"b" is a shard of a different sweep than "a"`, "--eps", "--to"}},
		{[]*File{mk(def, 1, 2, "a"), mk(build, 2, 2, "b")}, []string{"another dpso build"}},
		{[]*File{mk(def, 1, 2, "a"), mk(def, 2, 3, "b")}, []string{`"b" is shard 2/3`, `"a" is shard 1/2`}},
		{[]*File{mk(def, 1, 3, "a"), mk(def, 1, 3, "b"), mk(def, 3, 3, "c")}, []string{`shard 1/3 is given twice: "a" and "b"`}},
		{[]*File{mk(def, 2, 3, "a")}, []string{"shards 1/3, 3/3 are missing (1 of 3 shards given)"}},
		{[]*File{mk(def, 1, 3, "a"), mk(def, 3, 3, "c")}, []string{"shard 2/3 is missing"}},
		{nil, []string{"no shard files"}},
	} {
		t.Run(c.want[0], func(t *testing.T) {
			err := Check(c.files)
			for _, w := range c.want {
				if err == nil || !strings.Contains(err.Error(), w) {
					t.Errorf("Check: %v; want it to say %q", err, w)
				}
			}
		})
	}
	if err := Check([]*File{mk(def, 2, 2, "a"), mk(def, 1, 2, "b")}); err != nil {
		t.Errorf("two shards of one sweep, out of order: %v", err)
	}
	// The workers and the data path are not the sweep's definition.
	w := def
	w.Spec.Workers = 7
	if d2, _ := NewDefinition(w.Spec, w.Sweep, w.Build); d2.Fingerprint() != def.Fingerprint() {
		t.Error("--workers changes the fingerprint")
	}

	dir := t.TempDir()
	path := filepath.Join(dir, "s.json")
	b, err := mk(def, 1, 1, path).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(path, b, 0o644)
	if _, err := Read(path); err != nil {
		t.Fatalf("the file as written: %v", err)
	}
	os.WriteFile(path, []byte(strings.Replace(string(b), `"trials":2`, `"trials":3`, 1)), 0o644)
	if _, err := Read(path); err == nil || !strings.Contains(err.Error(), "edited or damaged") {
		t.Errorf("an edited file: %v", err)
	}
	os.WriteFile(path, []byte(`{"format":"something else"}`), 0o644)
	if _, err := Read(path); err == nil || !strings.Contains(err.Error(), "not a dpso sweep shard") {
		t.Errorf("another format: %v", err)
	}
}

// TestPlanRefusesTooManyShards: a shard without a unit is refused.
func TestPlanRefusesTooManyShards(t *testing.T) {
	p, _ := sweep(t, 1)
	if _, err := Plan(p, 4); err == nil || !strings.Contains(err.Error(), "use 1 to 3 shards") {
		t.Errorf("4 shards of 3 units: %v", err)
	}
	plan, err := Plan(p, 3)
	if err != nil || len(plan) != 3 {
		t.Fatalf("%v %v", plan, err)
	}
	for _, us := range plan {
		if len(us) != 1 {
			t.Errorf("plan %v: want one unit per shard", plan)
		}
	}
}
