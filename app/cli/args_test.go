package cli

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/solvers"
	"dpso/theory"

	"github.com/spf13/pflag"
)

// specFromArgs parses `dpso run` flags into a validated Spec, as the run
// command does before running.
func specFromArgs(args []string) (spec.Spec, error) {
	cmd, o := newRunCommand(&env{})
	if err := cmd.ParseFlags(args); err != nil {
		return spec.Spec{}, flagError(cmd, err)
	}
	if _, _, err := o.validated(cmd); err != nil {
		return spec.Spec{}, err
	}
	s, _, _ := o.sf.Spec()
	return s, nil
}

// roundTrip checks flags → Spec → Args → flags → Spec: the same resolved
// Spec (up to what the run does not read: RunSpec), and Args a fixed point; also through Command's shell quoting.
// It reports whether args were valid (the round trip was made).
func roundTrip(t *testing.T, args []string) bool {
	t.Helper()
	s, err := specFromArgs(args)
	if err != nil {
		return false // invalid flags: nothing to reproduce
	}
	want, err := s.Resolve()
	if err != nil {
		t.Fatalf("%v validated but does not resolve: %v", args, err)
	}
	sArgs := s.Args()
	for _, again := range [][]string{sArgs, shellWords(t, s.Command())[2:]} {
		s2, err := specFromArgs(again)
		if err != nil {
			t.Fatalf("%v → %v: %v", args, again, err)
		}
		got, err := s2.Resolve()
		if err != nil || !reflect.DeepEqual(got.RunSpec(), want.RunSpec()) {
			t.Fatalf("%v → %v:\n got %+v (%v)\nwant %+v", args, again, got, err, want)
		}
		if a2 := s2.Args(); !reflect.DeepEqual(a2, sArgs) {
			t.Fatalf("%v: Args %v, then %v", args, sArgs, a2)
		}
	}
	return true
}

// shellWords splits a POSIX command line with single quotes (what
// spec.ShellQuote writes).
func shellWords(t *testing.T, line string) []string {
	t.Helper()
	var words []string
	var cur strings.Builder
	inWord, quoted, escaped := false, false, false
	for _, r := range line {
		switch {
		case escaped:
			cur.WriteRune(r)
			escaped, inWord = false, true
		case quoted && r == '\'':
			quoted = false
		case quoted:
			cur.WriteRune(r)
		case r == '\'':
			quoted, inWord = true, true
		case r == '\\':
			escaped = true
		case r == ' ':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			if strings.ContainsRune("$`\"*?[]#~&;|<>(){}!", r) {
				t.Fatalf("unquoted shell character %q in %q", r, line)
			}
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quoted {
		t.Fatalf("unterminated quote in %q", line)
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}

// TestArgsRoundTripPresets: every scenario × class of the catalogue, with
// and without a full set of overrides.
func TestArgsRoundTripPresets(t *testing.T) {
	for _, in := range scenarios.List() {
		for _, c := range in.Classes {
			base := []string{"--scenario", in.Name, "--class", string(c)}
			if in.Name == scenarios.AffineHard && c == theory.SmoothConvex {
				base = append(base, "--beta", "1")
			}
			roundTrip(t, base)
			full := append(base, "--solver", "nonprivate-schedule", "--eps", "0.25", "--k", "2", "--n", "4321", "--trials", "3",
				"--seed", "18446744073709551615", "--iters", "7", "--step", "0.125", "--rand", "secure", "--workers", "2",
				"--checkpoints", "9", "--work-budget", "100000")
			roundTrip(t, full)
		}
	}
	// User data (the path needs quoting).
	roundTrip(t, []string{"--data", "my data's dir/points.csv", "--loss", "logistic", "--rk", "2.5", "--beta", "0.25", "--lambda2", "0"})
	roundTrip(t, []string{"--data", "x.csv", "--iters", "3", "--clip", "1", "--step", "0.5"})
}

// flagPool lists values to draw for each flag: valid, default-valued and
// a few invalid ones (the round trip then has nothing to check).
var flagPool = map[string][]string{
	"scenario":     append(scenarios.ScenarioNames(), "nope"),
	"class":        {"smooth-convex", "smooth-sc", "nonsmooth-convex", "nonsmooth-sc", "ppl"},
	"solver":       {"acsa", "clipped-sgd", "localized", "localized-sc", "prox-sgd", "nonprivate-schedule", "lipschitz-dpsgd", "klz-gd", "dp-sgd"},
	"oracle":       {"clip-gaussian", "coordinate", "shuffle-clip", "shuffle-coordinate"},
	"assumption":   {"tilde", "noncentral", "coordinatewise", "bogus", ""},
	"k":            {"2", "2.5", "3", "4", "8", "inf", "1.5"},
	"eps":          {"1", "0.1", "0.5", "2", "10", "inf", "1e-3", "1e-308", "1e-200", "1e200"},
	"delta":        {"1e-6", "1e-5", "1e-8", "0.3", "0.7"},
	"n":            {"100", "1000", "10000", "2", "99999999"},
	"d":            {"1", "2", "3", "10", "40", "10000"},
	"diam":         {"2", "1", "0.5", "6", "1e6"},
	"tail":         {"6", "5", "3", "10", "200", "0.01", "0.3", "0", "1.5"},
	"lambda1":      {"0", "0.05", "0.5", "2000"},
	"lambda2":      {"0", "0.1", "1", "-1"},
	"noise":        {"0", "1", "0.5", "2"},
	"wstar":        {"0", "0.5", "2"},
	"cond":         {"1", "4", "100"},
	"support":      {"0.2", "1", "0.5"},
	"size":         {"100", "10", "1e4"},
	"sigma":        {"1", "0.5"},
	"r":            {"1", "3"},
	"curvature":    {"1", "2", "0.5"},
	"beta":         {"0", "1", "2.5", "1e12"},
	"mu":           {"0", "0.5", "1", "3"},
	"r2":           {"0", "1", "5"},
	"rk":           {"0", "2", "5", "40"},
	"r2k":          {"0", "3", "50"},
	"lf":           {"0", "10", "inf", "1e30"},
	"iters":        {"0", "1", "10", "1000"},
	"clip":         {"0", "1", "3.5", "inf"},
	"step":         {"0", "0.1", "2"},
	"trials":       {"1", "5", "3", "10000"},
	"seed":         {"0", "1", "42", "18446744073709551615"},
	"rand":         {"seeded", "secure", ""},
	"workers":      {"0", "1", "4096"},
	"checkpoints":  {"0", "1", "64", "10000"},
	"work-budget":  {"0", "1", "1000000"},
	"split-budget": {"true", "false"},
	// Private constants and held-out rows.
	"constants": {"declared", "private", "private:0.5", "private:1", "", "bogus"},
	"holdout":   {"0", "0.2", "0.9", "0.95"},
	// dp-sgd's and klz-gd's settings.
	"accountant":       {"pld", "rdp", "moments"},
	"adjacency":        {"replace-one", "add-remove", "swap"},
	"batch":            {"0", "1", "64", "256"},
	"sampling-rate":    {"0.01", "0.5", "1", "1.5"},
	"epochs":           {"1", "5", "0.5", "2.5"},
	"adaptive-clip":    {"true", "false"},
	"clip-quantile":    {"0.5", "0.9", "1"},
	"clip-rate":        {"0.2", "1", "0.05"},
	"clip-count-noise": {"1", "12.8", "100"},
	"klz-groups":       {"0", "1", "7", "40"},
	"klz-tau":          {"0", "0.5", "3", "inf"},
}

// randomArgs draws a flag set: a scenario and one of its classes, a
// solver (the paper's, any, or none), then each other flag with
// probability 1/5 from flagPool (the scenario's own parameters only, and
// dp-sgd's and klz-gd's settings only with their solver, since a setting
// of a solver the run does not include is refused), so that many sets are
// valid and the rest fail on one rule or another.
func randomArgs(r *rand.Rand, names []string) []string {
	infos := scenarios.List()
	in := infos[r.IntN(len(infos))]
	c := in.Classes[r.IntN(len(in.Classes))]
	args := []string{"--scenario", in.Name, "--class", string(c)}
	if in.Name == scenarios.AffineHard && c == theory.SmoothConvex {
		args = append(args, "--beta", "1")
	}
	own := map[string]bool{"tail": in.Tail != nil, "lambda1": in.Lambda1 != nil, "lambda2": in.Lambda2 != nil}
	for _, p := range in.Params {
		own[p.Name] = true
	}
	params, _ := paramNames()
	solver := ""
	switch u := r.Float64(); {
	case u < 0.3:
		d, _ := solvers.PaperSolver(c)
		solver = d.Name()
	case u < 0.5:
		vs := flagPool["solver"]
		solver = vs[r.IntN(len(vs))]
	}
	if solver != "" {
		args = append(args, "--solver", solver)
	}
	for _, n := range names {
		f, _ := spec.FieldByName(n)
		switch {
		case n == "scenario" || n == "class" || n == "solver":
			continue
		case f.Solver() != "" && f.Solver() != solver:
			continue
		case (slices.Contains(params, n) || n == "tail" || n == "lambda1" || n == "lambda2") && !own[n]:
			continue
		}
		if r.Float64() < 0.2 {
			vs := flagPool[n]
			args = append(args, "--"+n, vs[r.IntN(len(vs))])
		}
	}
	return args
}

// TestArgsRoundTripRandom checks the round trip on random flag sets (a
// fixed seed): 1000 draws, at least a fifth of them valid (asserted, so
// that the test cannot pass vacuously).
func TestArgsRoundTripRandom(t *testing.T) {
	names := make([]string, 0, len(flagPool))
	for n := range flagPool {
		names = append(names, n)
	}
	slices.Sort(names) // map order is random: sort for a reproducible draw
	r := rand.New(rand.NewPCG(1, 2))
	valid := 0
	const draws = 1000
	for range draws {
		if roundTrip(t, randomArgs(r, names)) {
			valid++
		}
	}
	if valid < draws/5 {
		t.Errorf("only %d of %d random flag sets were valid: the round trip was hardly exercised", valid, draws)
	}
	t.Logf("%d of %d random flag sets valid", valid, draws)
}

// FuzzRunFlags parses two (flag, value) pairs and validates the Spec, as
// `dpso run` does before running: no panic, and every error is a usage
// error (exit status 2) of one line that names a flag; a valid Spec
// survives the Args round trip. The seed corpus (every flag with a valid
// and an invalid value) runs with go test.
func FuzzRunFlags(f *testing.F) {
	for name, vals := range flagPool {
		for _, v := range vals {
			f.Add(name, v, "scenario", "linreg-t")
		}
		f.Add(name, "nan", "n", "100")
		f.Add(name, "-1", "", "")
		f.Add(name, "1e400", "trials", "2")
		f.Add(name, "", "k", "inf")
	}
	for _, b := range []string{"json", "csv", "emit-w", "dry-run", "estimate-constants"} {
		f.Add(b, "true", "json", "true")
	}
	f.Add("data", "/nonexistent/x.csv", "rk", "1")
	f.Add("plot", "x.gif", "scenario", "mean-hard")
	f.Add("tail", "0", "scenario", "contaminated")
	f.Add("bogus", "1", "k", "2")
	// Hostile values: escape sequences, long values, values
	// at float64's edges, empty strings.
	osc := "\x1b]0;pwned\x07"
	for _, c := range [][4]string{
		{"scenario", osc, "k", "2"}, {osc, "1", "", ""}, {"scenario", strings.Repeat("x", 5000), "", ""},
		{"eps", "1e-308", "", ""}, {"eps", "1e200", "dry-run", "true"}, {"eps", "1e-200", "dry-run", "true"},
		{"clip", "1e308", "scenario", "linreg-t"}, {"rk", "1e300", "scenario", "linreg-t"},
		{"delta", "1e-320", "oracle", "shuffle-clip"}, {"oracle", "", "", ""}, {"rand", "", "", ""},
		{"plot", "", "", ""}, {"split-budget", "true", "eps", "inf"}, {"seed", "\u202e1", "", ""},
		{"trials", "10000", "checkpoints", "10000"}, {"data", "/dev/zero", "rk", "1"},
	} {
		f.Add(c[0], c[1], c[2], c[3])
	}
	f.Fuzz(func(t *testing.T, n1, v1, n2, v2 string) {
		var args []string
		for _, p := range [][2]string{{n1, v1}, {n2, v2}} {
			if p[0] != "" {
				args = append(args, "--"+p[0]+"="+p[1])
			}
		}
		if !utf8.ValidString(strings.Join(args, "")) {
			return
		}
		s, err := specFromArgs(args)
		if err != nil {
			var ue *usageError
			if !errors.As(err, &ue) {
				t.Fatalf("%q: %T %v is not a usage error (status 2)", args, err, err)
			}
			// What the user sees: execute prints the first line.
			msg := oneLine(err.Error())
			if !strings.Contains(msg, "--") {
				t.Fatalf("%q: message %q does not name a flag", args, msg)
			}
			// Echoed input is quoted and cut (theory.Quote): no control
			// character reaches the terminal, and the line stays short
			// however long the input.
			for _, r := range msg {
				if r < 0x20 || r == 0x7f {
					t.Fatalf("%q: message %q carries %U raw", args, msg, r)
				}
			}
			if len(msg) > 2000 {
				t.Fatalf("%q: message of %d bytes", args, len(msg))
			}
			// Our own messages (not pflag's echo of a garbled flag name)
			// are one line.
			if strings.HasPrefix(err.Error(), "--") && strings.Contains(err.Error(), "\n") && !strings.ContainsAny(n1+v1+n2+v2, "\n\r") {
				t.Fatalf("%q: message %q spans lines", args, err.Error())
			}
			return
		}
		if _, err := s.Resolve(); err != nil {
			t.Fatalf("%q: validated, but Resolve fails: %v", args, err)
		}
		roundTrip(t, args)
	})
}

// TestFuzzSeedsCoverEveryFlag keeps the fuzz corpus in step with the
// flags: every Spec flag of run has values in flagPool.
func TestFuzzSeedsCoverEveryFlag(t *testing.T) {
	cmd, _ := newRunCommand(&env{})
	skip := map[string]bool{"data": true, "loss": true, "estimate-constants": true, "emit-w": true, "dry-run": true,
		"json": true, "csv": true, "plot": true, "plot-size": true, "plot-hide": true, "force": true, "solvers": true} // --solvers is a comparison, not a Spec field (TestRunSolvers*); --plot-size and --plot-hide shape the figure only
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if !skip[f.Name] && flagPool[f.Name] == nil {
			t.Errorf("--%s has no values in flagPool", f.Name)
		}
	})
}
