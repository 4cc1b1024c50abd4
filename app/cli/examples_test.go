package cli

import (
	"context"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"dpso/internal/spec"
	"dpso/internal/testutil/golden"
	"dpso/scenarios"
)

// exampleData is the example data file the README's --data example uses:
// synthetic rows, drawn from the linreg-t scenario (d = 3, ν = 6), the
// dataset of trial 0 of `dpso run --scenario linreg-t --d 3 --n 1000
// --seed 1` (its "data" stream), written with 6 significant digits.
const exampleData = "examples/linreg-t-d3.csv"

var exampleSpec = spec.Spec{Scenario: scenarios.LinRegT, D: 3, N: 1000, Seed: 1}

// exampleCSV draws exampleSpec's dataset and writes it as CSV, a header
// a1,…,a_d,y and one row per sample, the label last.
func exampleCSV(t *testing.T) (string, *scenarios.Instance) {
	t.Helper()
	r, err := exampleSpec.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	in, err := scenarios.Build(context.Background(), r.Problem)
	if err != nil {
		t.Fatal(err)
	}
	ds := in.Dataset(r.Rand, r.Spec.Seed, 0)
	var b strings.Builder
	for j := 1; j <= r.Spec.D; j++ {
		b.WriteString("a" + strconv.Itoa(j) + ",")
	}
	b.WriteString("y\n")
	x := make([]float64, ds.SampleDim())
	rd := ds.Open()
	for rd.Next(x) {
		for j, v := range x {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.FormatFloat(v, 'g', 6, 64))
		}
		b.WriteByte('\n')
	}
	return b.String(), in
}

// TestExampleData: the shipped example file is exactly the draw its
// note in docs/ describes (DPSO_UPDATE_GOLDEN=1 go test ./app/cli -run
// TestExampleData writes it), and the constants the docs' --data example declares
// are valid for the distribution the rows come from: r̃_k at least the
// scenario's r̃_2 and β at least its β (the prescription needs upper
// bounds).
func TestExampleData(t *testing.T) {
	atRepoRoot(t)
	want, in := exampleCSV(t)
	if golden.Update() {
		if err := os.WriteFile(exampleData, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(exampleData)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("%s is not the draw of %+v (DPSO_UPDATE_GOLDEN=1 rewrites it)", exampleData, exampleSpec)
	}
	var cmd string
	for _, page := range markdownFiles(t) {
		text, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		if cmd = regexp.MustCompile(`\$ dpso run --data ` + regexp.QuoteMeta(exampleData) + `[^\n]*`).FindString(string(text)); cmd != "" {
			break
		}
	}
	if cmd == "" {
		t.Fatalf("neither the README nor docs/ has a `dpso run --data %s` example", exampleData)
	}
	c := in.Constants()
	for flag, truth := range map[string]float64{"--rk": c.R(2), "--beta": c.Beta} {
		t.Run(flag, func(t *testing.T) {
			m := regexp.MustCompile(regexp.QuoteMeta(flag) + ` ([0-9.]+)`).FindStringSubmatch(cmd)
			if m == nil {
				t.Errorf("the docs' example %q lacks %s", cmd, flag)
				return
			}
			if v, _ := strconv.ParseFloat(m[1], 64); v < truth {
				t.Errorf("the docs' %s %s is below the distribution's %g: not a valid bound", flag, m[1], truth)
			}
		})
	}
}
