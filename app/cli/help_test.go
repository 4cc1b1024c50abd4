package cli

import (
	"slices"
	"strings"
	"testing"

	"dpso/internal/report"
	"dpso/internal/spec"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// jsonOutputs are, for each command with JSON documents (jsonDocs), calls
// whose --json outputs together hold every key its documents can have:
// the optional ones too (user data, dp-sgd's accountant, a shuffle
// oracle, a moment assumption, a budget-capped schedule, a refusal, the
// per-trial w). Each call's document is walked as it is printed.
var jsonOutputs = map[string][][]string{
	"dpso run": {
		{"run", "--scenario", "linreg-t", "--n", "2000", "--trials", "2", "--emit-w"},
		{"run", "--data", "examples/linreg-t-d3.csv", "--rk", "12", "--beta", "1.5", "--trials", "2", "--rand", "seeded", "--split-budget"},
		{"run", "--scenario", "linreg-t", "--n", "2000", "--trials", "1", "--solver", "dp-sgd"},
		{"run", "--data", "examples/linreg-t-d3.csv", "--rk", "12", "--beta", "1.5", "--oracle", "shuffle-clip"},
		{"run", "--scenario", "linreg-t", "--assumption", "noncentral", "--dry-run"},
		{"run", "--scenario", "hinge-t", "--n", "2048", "--trials", "1", "--work-budget", "200000"},
		// W = B(0, 0.1) cuts off the rows' minimizer (norm ≈ 0.5): the
		// geometry block in full; k = 3 estimates r̃_3 and r̃_6.
		{"run", "--data", "examples/linreg-t-d3.csv", "--estimate-constants", "--diam", "0.2", "--k", "3"},
		{"run", "--data", "examples/linreg-t-d3.csv", "--constants", "private", "--holdout", "0.2", "--rand", "seeded"},
	},
	"dpso run --solvers": {
		{"run", "--scenario", "linreg-t", "--n", "2000", "--trials", "1", "--solvers", "acsa,lipschitz-dpsgd"},
		{"run", "--data", "examples/linreg-t-d3.csv", "--rk", "12", "--beta", "1.5", "--rand", "seeded", "--solvers", "acsa,nonprivate-schedule"},
		{"run", "--data", "examples/linreg-t-d3.csv", "--rk", "12", "--beta", "1.5", "--oracle", "shuffle-clip", "--solvers", "acsa,lipschitz-dpsgd", "--lf", "100"},
	},
	"dpso sweep --vary a,b": {
		{"sweep", "--scenario", "linreg-t", "--d", "3", "--n", "2000", "--vary", "eps,clip", "--from", "0.5", "--to", "2", "--points", "2",
			"--from2", "1", "--to2", "10", "--points2", "2", "--trials", "2", "--solvers", "acsa,dp-sgd"},
		{"sweep", "--data", "examples/linreg-t-d3.csv", "--rk", "12", "--beta", "1.5", "--rand", "seeded", "--vary", "eps,clip", "--from", "1", "--to", "2",
			"--points", "2", "--from2", "1", "--to2", "10", "--points2", "2", "--oracle", "shuffle-clip"},
	},
	"dpso sweep": {
		{"sweep", "--scenario", "linreg-t", "--d", "3", "--vary", "n", "--from", "1000", "--to", "4000", "--points", "2", "--trials", "2", "--solvers", "acsa,nonprivate-schedule,lipschitz-dpsgd"},
		{"sweep", "--scenario", "linreg-t", "--n", "2000", "--class", "smooth-sc", "--vary", "clip", "--points", "2", "--trials", "2"},
		{"sweep", "--scenario", "mean-hard", "--vary", "n", "--from", "1000", "--to", "2000", "--points", "2", "--trials", "2"},
		// localized's work budget binds on affine-hard at k = 2: certificate_not_covered.
		{"sweep", "--scenario", "affine-hard", "--class", "nonsmooth-convex", "--k", "2", "--vary", "n", "--from", "1000", "--to", "2000", "--points", "2", "--trials", "1"},
		{"sweep", "--data", "examples/linreg-t-d3.csv", "--rk", "12", "--beta", "1.5", "--rand", "seeded", "--vary", "eps", "--from", "1", "--to", "2", "--points", "2", "--oracle", "shuffle-clip"},
	},
	"dpso bounds": {
		{"bounds", "--n", "10000", "--d", "100", "--eps", "1", "--k", "4", "--diam", "1", "--r2", "1", "--rk", "2", "--beta", "1"},
	},
	"dpso bounds --map": {
		{"bounds", "--map", "n,d", "--map-size", "4x3"},
	},
	"dpso privacy":              {{"privacy", "--eps", "1"}},
	"dpso privacy --target-eps": {{"privacy", "--target-eps", "4"}},
	"dpso privacy --accountant": {
		{"privacy", "--accountant", "pld", "--noise-multiplier", "1.1", "--sampling-rate", "0.004", "--steps", "150"},
		{"privacy", "--accountant", "rdp", "--sampling-rate", "0.01", "--steps", "50", "--target-eps", "4"},
	},
	"dpso moments": {
		{"moments", "--scenario", "example1"},
		{"moments", "--data", "examples/linreg-t-d3.csv", "--diam", "0.2", "--k", "3"},
		{"moments", "--scenario", "affine-hard", "--class", "nonsmooth-convex", "--n", "256"},
		{"moments", "--scenario", "linreg-t", "--tail", "10", "--lf", "1e6"},
	},
	"dpso audit": {
		{"audit", "--trials", "1000"},
		{"audit", "--oracle", "shuffle-clip", "--trials", "1000", "--negative-control", "1.5"},
		{"audit", "--oracle", "coordinate", "--trials", "1000"},
		{"audit", "--solver", "acsa", "--n", "100", "--trials", "1000"},
		{"audit", "--one-run", "--canaries", "100"},
	},
	"dpso list": {{"list"}},
	"dpso tune": {
		{"tune", "--scenario", "linreg-t", "--d", "3", "--n", "2000", "--trials", "1", "--solvers", "acsa,lipschitz-dpsgd", "--grid-clip", "1,2", "--grid-step", "3", "--grid-iters", "4,8", "--oracle-grid", "coarse"},
		{"tune", "--scenario", "linreg-t", "--d", "3", "--n", "2000", "--trials", "1", "--solver", "dp-sgd", "--grid-clip", "1", "--grid-step", "0.1", "--grid-epochs", "1", "--grid-batch", "100"},
		{"tune", "--data", "examples/linreg-t-d3.csv", "--constants", "private", "--holdout", "0.2", "--references", "--rand", "seeded", "--emit-w", "--emit-candidates"},
	},
	"dpso tune --vary": {
		{"tune", "--scenario", "linreg-t", "--d", "3", "--trials", "1", "--vary", "n", "--from", "500", "--to", "1000", "--points", "2"},
		{"tune", "--data", "examples/linreg-t-d3.csv", "--constants", "private", "--trials", "1", "--vary", "n", "--from", "100", "--to", "200", "--points", "2", "--rand", "seeded"},
	},
}

// TestJSONFieldsAreTheOutputs: the JSON fields --help and the reference
// list (generated from the report types: report.FieldsOf) are the keys
// the commands' --json outputs have — none missing, none that no output
// has.
func TestJSONFieldsAreTheOutputs(t *testing.T) {
	atRepoRoot(t)
	for name, calls := range jsonOutputs {
		t.Run(name, func(t *testing.T) {
			path, when, _ := strings.Cut(name, " --")
			i := slices.IndexFunc(jsonDocs[path], func(d jsonDoc) bool { return strings.TrimPrefix(d.when, "--") == when })
			if i < 0 {
				t.Fatalf("%s has no JSON document", name)
			}
			doc := jsonDocs[path][i]
			want, err := jsonDocFields(doc)
			if err != nil {
				t.Fatal(err)
			}
			var got []report.Field
			for _, args := range calls {
				code, out, errs := dpsoCLI(append(args, "--json")...)
				if code != 0 {
					t.Fatalf("dpso %s --json: status %d: %s", strings.Join(args, " "), code, errs)
				}
				fs, err := report.FieldsOfJSON([]byte(out))
				if err != nil {
					t.Fatalf("dpso %s --json: %v", strings.Join(args, " "), err)
				}
				got = report.MergeFields(got, fs)
			}
			// A key that holds another document (a comparison's runs):
			// the help names it, and the outputs' keys there are that
			// document's.
			for key, ref := range doc.refs {
				j := slices.IndexFunc(got, func(f report.Field) bool { return f.Name == key })
				if j < 0 {
					t.Errorf("%s: no output has %s", name, key)
					continue
				}
				inner, err := report.FieldsOf(ref.value)
				if err != nil {
					t.Fatal(err)
				}
				if extra := missingPaths(got[j].Fields, inner); len(extra) > 0 {
					t.Errorf("%s: %s holds keys that are not a %T's: %v", name, key, ref.value, extra)
				}
				got[j].Fields = []report.Field{{Name: ref.name}}
			}
			g, w := report.FieldPaths(got), report.FieldPaths(want)
			for _, p := range w {
				if !slices.Contains(g, p) {
					t.Errorf("%s: JSON FIELDS lists %s, which no output has", name, p)
				}
			}
			for _, p := range g {
				if !slices.Contains(w, p) {
					t.Errorf("%s: the output has %s, which JSON FIELDS does not list", name, p)
				}
			}
		})
	}
}

// missingPaths are the key paths of a that b lacks.
func missingPaths(a, b []report.Field) []string {
	bp := report.FieldPaths(b)
	var out []string
	for _, p := range report.FieldPaths(a) {
		if !slices.Contains(bp, p) {
			out = append(out, p)
		}
	}
	return out
}

// maxRunHelpLines is the most lines `dpso run --help` may take: one
// screen, with the rest in its reference (docs/cli/dpso_run.md).
const maxRunHelpLines = 80

// TestRunHelpFitsAScreen: `dpso run --help` is at most maxRunHelpLines
// lines, and what it leaves out is in the reference it names.
func TestRunHelpFitsAScreen(t *testing.T) {
	code, out, _ := dpsoCLI("run", "--help")
	if code != 0 {
		t.Fatalf("status %d", code)
	}
	if n := strings.Count(out, "\n"); n > maxRunHelpLines {
		t.Errorf("dpso run --help is %d lines, want at most %d:\n%s", n, maxRunHelpLines, out)
	}
	if !strings.Contains(out, "docs/cli/dpso_run.md") {
		t.Error("dpso run --help does not name its reference page")
	}
}

// TestHelpGroupsFlags: --help lists every flag of the field table under
// its group's heading (spec.Field.Group; a setting of one solver under
// its own), the scenario parameters together on one line, and every flag
// once.
func TestHelpGroupsFlags(t *testing.T) {
	_, out, _ := dpsoCLI("run", "--help")
	section := map[string]string{} // flag → the heading above its line
	heading := ""
	for _, l := range strings.Split(out, "\n") {
		switch {
		case strings.HasSuffix(l, ":") && !strings.HasPrefix(l, " "):
			heading = strings.TrimSuffix(l, ":")
		case strings.HasPrefix(l, "      --") || strings.HasPrefix(l, "  -h, --"):
			names, _, _ := strings.Cut(strings.TrimSpace(strings.TrimPrefix(l, "  -h, ")), "   ")
			for _, f := range strings.Split(names, ", ") {
				name, _, _ := strings.Cut(strings.TrimPrefix(f, "--"), " ")
				if _, dup := section[name]; dup {
					t.Errorf("--%s is listed twice", name)
				}
				section[name] = heading
			}
		}
	}
	params, _ := paramNames()
	for _, f := range spec.Fields() {
		names := []string{f.Name}
		if f.Kind == spec.ParamMap {
			names = params
		}
		for _, n := range names {
			if got, want := section[n], fieldHeading(f); got != want {
				t.Errorf("--%s is under %q, want %q", n, got, want)
			}
		}
	}
	for _, n := range []string{"json", "csv", "plot", "force", "emit-w", "dry-run"} {
		if section[n] != headingOutput {
			t.Errorf("--%s is under %q, want %q", n, section[n], headingOutput)
		}
	}
	if !strings.Contains(out, "      --"+strings.Join(params, ", --")+" float   "+scenarioParamsLine) {
		t.Errorf("the scenario parameters %v are not on one line:\n%s", params, out)
	}
}

// TestHelpListsEveryFlag: every command's --help lists each of its
// visible flags exactly once — a flag of no group under "Flags", a
// collapsed one on its shared line — so that no flag goes missing from
// the help when others are grouped.
func TestHelpListsEveryFlag(t *testing.T) {
	VisitCommands(ReferenceTree(false), func(c *cobra.Command) {
		if !c.Runnable() {
			return
		}
		var b strings.Builder
		c.SetOut(&b)
		if err := usage(c); err != nil {
			t.Fatal(err)
		}
		listed := map[string]int{}
		for _, l := range strings.Split(b.String(), "\n") {
			if !strings.HasPrefix(l, "      --") && !strings.HasPrefix(l, "  -") {
				continue
			}
			l = strings.TrimSpace(l)
			if len(l) > 4 && l[0] == '-' && l[1] != '-' && l[2] == ',' { // "-h, --help"
				l = strings.TrimSpace(l[3:])
			}
			names, _, _ := strings.Cut(l, "   ")
			for _, f := range strings.Split(names, ", ") {
				name, _, _ := strings.Cut(strings.TrimPrefix(f, "--"), " ")
				listed[name]++
			}
		}
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if f.Hidden {
				return
			}
			if listed[f.Name] != 1 {
				t.Errorf("%s --help lists --%s %d times, want once:\n%s", c.CommandPath(), f.Name, listed[f.Name], b.String())
			}
		})
	})
}

// TestHelpShowsJSONFields: every command that prints JSON lists, in its
// --help, its documents' keys (the top level of each, generated from the
// report types) and names its reference page for the keys inside.
func TestHelpShowsJSONFields(t *testing.T) {
	for _, path := range commandsWithJSON() {
		t.Run(path, func(t *testing.T) {
			args := append(strings.Fields(strings.TrimPrefix(path, "dpso")), "--help")
			code, out, _ := dpsoCLI(args...)
			if code != 0 {
				t.Fatalf("status %d", code)
			}
			_, fields, ok := strings.Cut(out, "\nJSON FIELDS (--json")
			if !ok {
				t.Fatalf("%s --help has no JSON FIELDS:\n%s", path, out)
			}
			if page := "docs/cli/" + strings.ReplaceAll(path, " ", "_") + ".md"; !strings.Contains(fields, page) {
				t.Errorf("%s --help does not name %s", path, page)
			}
			flat := strings.Join(strings.Fields(fields), " ")
			for _, d := range jsonDocs[path] {
				fs, err := jsonDocFields(d)
				if err != nil {
					t.Fatal(err)
				}
				if want := report.FormatFields(fs, 1); !strings.Contains(flat, want) {
					t.Errorf("%s --help lacks the fields %s", path, want)
				}
			}
		})
	}
}

// TestEveryJSONCommandListsItsFields: a command with --json has its
// documents in jsonDocs (so that its help and reference list their keys)
// and calls in jsonOutputs that hold each of them (so that
// TestJSONFieldsAreTheOutputs holds the list to the output); a new
// command cannot print JSON its help does not describe.
func TestEveryJSONCommandListsItsFields(t *testing.T) {
	n := 0
	VisitCommands(ReferenceTree(false), func(c *cobra.Command) {
		if c.Flags().Lookup("json") == nil {
			return
		}
		n++
		path := c.CommandPath()
		docs := jsonDocs[path]
		if len(docs) == 0 {
			t.Errorf("%s has --json but no documents in jsonDocs", path)
		}
		if path == "dpso sweep merge" { // merge prints dpso sweep's document (TestSweepShardedMergesToTheSameBytes)
			return
		}
		for _, d := range docs {
			key := path
			if d.when != "" {
				key += " " + d.when
			}
			if len(jsonOutputs[key]) == 0 {
				t.Errorf("%s: no calls in jsonOutputs print its document", key)
			}
		}
	})
	if n < 8 {
		t.Errorf("%d commands with --json, want dpso's 8 at least", n)
	}
}

// commandsWithJSON are the command paths with JSON documents, sorted.
func commandsWithJSON() []string {
	var out []string
	for p := range jsonDocs {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}
