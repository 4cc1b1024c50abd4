package solvers

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"dpso/theory"
)

// TestDescriptorsMatchSolvers: every descriptor says what its solver does —
// run with no oracle named, the solver uses the descriptor's default
// oracle; the paper solvers cover each class once and come before the
// baselines (the display order of `dpso list`).
func TestDescriptorsMatchSolvers(t *testing.T) {
	problems := map[string]testProblem{"localized": tpLAD, "localized-sc": tpMean}
	sizes := map[string]int{"localized": 128, "localized-sc": 128}
	classes := map[theory.Class]bool{}
	seenBaseline := false
	for _, d := range registry[:8] { // the built-in solvers (tests may append theirs)
		if d.Baseline() {
			seenBaseline = true
		} else {
			if seenBaseline {
				t.Errorf("paper solver %s listed after a baseline", d.Name())
			}
			if classes[d.Class] {
				t.Errorf("class %s has two paper solvers", d.Class)
			}
			classes[d.Class] = true
			if p, ok := PaperSolver(d.Class); !ok || p.Name() != d.Name() {
				t.Errorf("PaperSolver(%q) = %v, %v; want %s", d.Class, p.Name(), ok, d.Name())
			}
		}
		var p testProblem = tpLinReg
		n := 2000
		if q, ok := problems[d.Name()]; ok {
			p, n = q, sizes[d.Name()]
		}
		if d.Name() == "lipschitz-dpsgd" {
			p = &meanProblem{d: 3, radius: 1, center: []float64{0.3, 0.1, -0.2}, scale: 1, nu: 7, cut: 1e3}
		}
		res, err := d.Solver.Run(context.Background(), p, p.samples(n, 1, 0), Config{Eps: 1, K: 3, WorkBudget: 50000})
		if err != nil {
			t.Errorf("%s: %v", d.Name(), err)
			continue
		}
		// sgd calls no oracle (its Result says so); its default oracle is
		// the one of the schedule it borrows, which the run header names.
		if res.Oracle != d.DefaultOracle && d.Name() != "nonprivate-schedule" {
			t.Errorf("%s ran with oracle %q, its descriptor says %q", d.Name(), res.Oracle, d.DefaultOracle)
		}
	}
	if len(classes) != 5 {
		t.Errorf("paper solvers for %d classes, want 5", len(classes))
	}
	if _, ok := DescriptorOf("nope"); ok {
		t.Error("DescriptorOf of an unknown name reports ok")
	}
}

// tallySamples is a dataset that counts the samples read from it (it is
// not Chunked, so every solver reads it through Open).
type tallySamples struct {
	Samples
	read *int64
}

func (c tallySamples) Open() SampleReader { return tallyReader{c.Samples.Open(), c.read} }

type tallyReader struct {
	SampleReader
	read *int64
}

func (r tallyReader) Next(x []float64) bool {
	ok := r.SampleReader.Next(x)
	if ok {
		*r.read++
	}
	return ok
}

// TestDescriptorsDataAccess: a descriptor's Data says what its solver does
// with the dataset. A solver that materializes has read all n samples at
// its first checkpoint after an iteration (it copies the dataset before it
// starts); a streaming one has read only what its first iterations used,
// fewer than n. Baselines on a schedule are checked on a one-pass schedule
// (acsa) and a multi-pass one (localized).
func TestDescriptorsDataAccess(t *testing.T) {
	const n = 2000
	for _, d := range registry[:9] {
		schedules := []string{""}
		if d.Data == AsSchedule {
			schedules = []string{"acsa", "localized"}
		}
		for _, sch := range schedules {
			var p testProblem = tpLinReg
			if d.Name() == "localized" || d.Name() == "localized-sc" || sch == "localized" {
				p = tpLAD
			}
			if d.Name() == "localized-sc" {
				p = tpMean
			}
			if d.Name() == "lipschitz-dpsgd" {
				p = &meanProblem{d: 3, radius: 1, center: []float64{0.3, 0.1, -0.2}, scale: 1, nu: 7, cut: 1e3}
			}
			var read int64
			atFirst, reserved := int64(-1), int64(-1)
			free := datasets.free
			cfg := Config{Eps: 1, K: 3, WorkBudget: 50000, Schedule: sch, Iters: 8, Checkpoints: 1000, Observe: func(cp Checkpoint) {
				if atFirst < 0 && cp.Iter >= 1 {
					atFirst = read
					datasets.mu.Lock()
					reserved = free - datasets.free
					datasets.mu.Unlock()
				}
			}}
			res, err := d.Solver.Run(context.Background(), p, tallySamples{p.samples(n, 1, 0), &read}, cfg)
			if err != nil {
				t.Errorf("%s on %q: %v", d.Name(), sch, err)
				continue
			}
			if res.Params.Iters < 2 || atFirst < 0 {
				t.Errorf("%s on %q: T = %d, first checkpoint after %d reads: the test needs T ≥ 2 and a checkpoint", d.Name(), sch, res.Params.Iters, atFirst)
				continue
			}
			materialized := atFirst == n
			if want := d.Materializes(sch); materialized != want {
				t.Errorf("%s on schedule %q: read %d of %d samples by its first checkpoint (materialized: %v), but its descriptor says Materializes = %v",
					d.Name(), sch, atFirst, n, materialized, want)
			}
			// A copy of the data is held under the process's budget
			// (MaxMaterializedAtOnce), and given back when the run ends.
			if sd := int64(p.samples(1, 1, 0).Dim); materialized && reserved != n*sd*8 {
				t.Errorf("%s on schedule %q: %d bytes of the dataset budget reserved while it ran, want n·SampleDim·8 = %d", d.Name(), sch, reserved, n*sd*8)
			}
			if datasets.free != free {
				t.Errorf("%s on schedule %q: the dataset budget was not given back (%d bytes short)", d.Name(), sch, free-datasets.free)
			}
		}
	}
}

// readValues is a SettingValues that records the settings read and gives
// a non-zero value to the one named set ("" for none).
type readValues struct {
	set  string
	read map[string]bool
}

func (v readValues) note(name string) bool {
	v.read[name] = true
	return name == v.set
}
func (v readValues) Int(name string) int {
	if v.note(name) {
		return 3
	}
	return 0
}
func (v readValues) Float(name string) float64 {
	if v.note(name) {
		return 0.25
	}
	return 0
}
func (v readValues) Bool(name string) bool { return v.note(name) }
func (v readValues) String(name string) string {
	if v.note(name) {
		return "rdp"
	}
	return ""
}

// TestRegistryComplete: every registered solver states every fact the
// rest of dpso reads from its Descriptor — its legend name, its class (a
// known one, or none for a baseline), its certificate (or CertNone) and
// its settings (or NoSettings) — and its settings are what its value
// reads: WithSettings reads exactly Settings.Names, with nothing given it returns
// the registered value (the defaults), and each setting alone changes the
// value.
func TestRegistryComplete(t *testing.T) {
	legends := map[string]string{}
	for _, d := range Descriptors() {
		if err := d.Check(); err != nil {
			t.Error(err)
			continue
		}
		if o, ok := legends[d.Legend]; ok {
			t.Errorf("%s and %s share the legend name %q", o, d.Name(), d.Legend)
		}
		legends[d.Legend] = d.Name()
		if !d.Baseline() && (d.Certificate == CertNone || d.Certificate.OnSchedule()) {
			t.Errorf("%s, the paper's algorithm for %s, states no proposition of its own as its certificate (%d)", d.Name(), d.Class, d.Certificate)
		}
		v := readValues{read: map[string]bool{}}
		if got := d.Configured(v).Solver; !reflect.DeepEqual(got, d.Solver) {
			t.Errorf("%s: with no setting given Configured gives %+v, want the registered %+v", d.Name(), got, d.Solver)
		}
		for name := range v.read {
			if !d.Settings.Has(name) {
				t.Errorf("%s: WithSettings reads %q, which Settings.Names does not list", d.Name(), name)
			}
		}
		for _, name := range d.Settings.Names {
			if !v.read[name] {
				t.Errorf("%s: Settings.Names lists %q, which WithSettings does not read", d.Name(), name)
			}
			one := readValues{set: name, read: map[string]bool{}}
			if got := d.Configured(one).Solver; reflect.DeepEqual(got, d.Solver) {
				t.Errorf("%s: setting %q alone leaves the solver %+v unchanged", d.Name(), name, got)
			}
		}
	}
	// Check names what an entry leaves out.
	full, _ := DescriptorOf("acsa")
	for _, c := range []struct {
		unset func(*Descriptor)
		want  string
	}{
		{func(d *Descriptor) { d.Legend = "" }, "legend"},
		{func(d *Descriptor) { d.Class = "smooth" }, "class"},
		{func(d *Descriptor) { d.Certificate = CertUnstated }, "certificate"},
		{func(d *Descriptor) { d.Certificate = CertSchedule }, "own certificate"},
		{func(d *Descriptor) { d.Settings = Settings{} }, "settings"},
		{func(d *Descriptor) { d.Settings = Settings{Names: []string{"batch"}} }, "match its value"},
		{func(d *Descriptor) { d.DefaultOracle = "" }, "oracle"},
	} {
		t.Run(c.want, func(t *testing.T) {
			d := full
			c.unset(&d)
			if err := d.Check(); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Check of a descriptor without its %s: %v", c.want, err)
			}
		})
	}
}
