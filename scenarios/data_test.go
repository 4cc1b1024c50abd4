package scenarios

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"dpso/solvers"
	"dpso/theory"
)

func TestParseCSV(t *testing.T) {
	cases := []struct {
		name      string
		in        string
		rows      int
		cols      int
		header    bool
		line, col int    // expected error position (0: no error)
		msg       string // substring of the error message
	}{
		{name: "header", in: "x1,x2,y\n1,2,3\n4,5,6\n", rows: 2, cols: 3, header: true},
		{name: "no header", in: "1,2,3\n4,5,6\n", rows: 2, cols: 3},
		{name: "blank lines", in: "\n  \n1,2\n\n3,4\n \t \n5,6\n", rows: 3, cols: 2},
		{name: "crlf and spaces", in: "a, b\r\n 1, 2\r\n3 ,4\r\n", rows: 2, cols: 2, header: true},
		{name: "quoted", in: "\"1.5\",\"-2e3\"\n3,4\n", rows: 2, cols: 2},
		{name: "ragged", in: "1,2,3\n4,5,6\n7,8\n", line: 3, msg: "2 columns, but line 1 has 3"},
		{name: "ragged after blank", in: "h1,h2\n\n1,2\n\n3,4,5\n", line: 5, msg: "3 columns, but line 1 has 2"},
		{name: "bad number", in: "1,2\n3,abc\n", line: 2, col: 2, msg: `"abc" is not a number`},
		{name: "mixed header", in: "x,2,y\n1,2,3\n", line: 1, col: 1, msg: `"x" is not a number`},
		{name: "NaN", in: "1,2\nNaN,4\n", line: 2, col: 1, msg: "NaN is not allowed"},
		{name: "nan lower", in: "1,2\n3,nan\n", line: 2, col: 2, msg: "NaN is not allowed"},
		{name: "Inf", in: "1,2\n3,4\n5,+Inf\n", line: 3, col: 2, msg: "infinity is not allowed"},
		{name: "-infinity", in: "1,2\n-infinity,4\n", line: 2, col: 1, msg: "infinity is not allowed"},
		{name: "overflow", in: "1,2\n1e400,4\n", line: 2, col: 1, msg: "outside the float64 range"},
		{name: "empty file", in: "", msg: "no data rows"},
		{name: "only blanks", in: "\n\n  \n", msg: "no data rows"},
		{name: "only header", in: "a,b,c\n", msg: "header but no data rows"},
		{name: "one column", in: "1\n2\n", line: 1, msg: "1 column"},
		{name: "one row", in: "1,2\n", msg: "1 data row"},
		{name: "bare quote", in: "1,2\n3,4\"5\n", line: 2, msg: "bare"},
		{name: "empty cell", in: "1,2\n3,\n", line: 2, col: 2, msg: `"" is not a number`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tb, err := readCSV(context.Background(), "f.csv", strings.NewReader(c.in))
			if c.msg == "" {
				if err != nil {
					t.Errorf("%s: %v", c.name, err)
					return
				}
				if tb.Rows != c.rows || tb.Cols != c.cols || (tb.Header != nil) != c.header || len(tb.Data) != c.rows*c.cols {
					t.Errorf("%s: rows %d cols %d header %v, want %d %d %v", c.name, tb.Rows, tb.Cols, tb.Header, c.rows, c.cols, c.header)
				}
				return
			}
			var de *DataError
			if !errors.As(err, &de) {
				t.Errorf("%s: error %v, want a *DataError", c.name, err)
				return
			}
			if de.Line != c.line || (c.col != 0 && de.Col != c.col) || !strings.Contains(de.Error(), c.msg) {
				t.Errorf("%s: got %q (line %d, col %d), want line %d col %d containing %q", c.name, de.Error(), de.Line, de.Col, c.line, c.col, c.msg)
			}
			if !strings.Contains(de.Error(), "f.csv") {
				t.Errorf("%s: %q does not name the file", c.name, de.Error())
			}
			if !isUserErr(err) {
				t.Errorf("%s: not a user error", c.name)
			}
		})
	}
	tb, _ := readCSV(context.Background(), "f.csv", strings.NewReader("x1,x2,y\n1,2,3\n\n4,5,6\n"))
	if want := []float64{1, 2, 3, 4, 5, 6}; !slices.Equal(tb.Data, want) || !slices.Equal(tb.Lines, []int32{2, 4}) {
		t.Errorf("data %v lines %v", tb.Data, tb.Lines)
	}
}

func writeCSV(t *testing.T, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "data.csv")
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestUserData(t *testing.T) {
	ctx := context.Background()
	// Rows (a₁, a₂, y).
	path := writeCSV(t, "a1,a2,y\n1,0,1\n0,2,-1\n-1,1,1\n2,-1,-1\n")
	missing := filepath.Join(t.TempDir(), "nope.csv")

	// Constants must come from flags (the class check is the run's:
	// spec's TestSpecValidateEveryField).
	for _, c := range []struct {
		spec  ProblemDef
		field string
	}{
		{ProblemDef{Data: path}, "rk"},
		{ProblemDef{Data: path, Rk: 3}, "beta"},
		{ProblemDef{Data: path, Rk: 3, Beta: 2, Class: theory.SmoothSC}, "mu"},
		{ProblemDef{Data: path, Loss: "hinge", Needs: ConstantNeeds{R2k: true, Solver: "localized"}, Rk: 3}, "r2k"},
		{ProblemDef{Data: path, Loss: "huber"}, "loss"},
		{ProblemDef{Data: path, Scenario: LinRegT}, "data"},
		{ProblemDef{Data: path, Rk: 3, Beta: 1, Tail: 3}, "tail"},
		{ProblemDef{Data: path, Rk: 3, Beta: 1, Lambda1: f64(0.1)}, "lambda1"},
	} {
		t.Run(fmt.Sprintf("%s: %s", caseName(c.spec), c.field), func(t *testing.T) {
			_, err := resolve(c.spec)
			var se *FieldError
			if !errors.As(err, &se) || se.Field != c.field {
				t.Errorf("%+v: error %v, want field %s", c.spec, err, c.field)
			}
		})
	}
	if _, err := Build(ctx, resolved(t, ProblemDef{Data: missing, Rk: 1, Beta: 1})); !isUserErr(err) || !strings.Contains(err.Error(), "nope.csv") {
		t.Errorf("missing file: %v", err)
	}
	if _, err := Build(ctx, resolved(t, ProblemDef{Data: path, Rk: 1, Beta: 1, D: 3})); err == nil || err.(*FieldError).Field != "d" {
		t.Errorf("wrong d: %v", err)
	}
	if _, err := Build(ctx, resolved(t, ProblemDef{Data: path, Rk: 1, Beta: 1, N: 5})); err == nil || err.(*FieldError).Field != "n" {
		t.Errorf("n above the rows: %v", err)
	}

	// Declared constants from flags.
	in := build(t, ProblemDef{Data: path, Rk: 3, Beta: 2, Diam: 4})
	c := in.Constants()
	if c.R(2) != 3 || c.Beta != 2 || c.D != 4 || !math.IsInf(c.Lf, 1) || in.Def().N != 4 || in.Dim() != 2 {
		t.Errorf("constants %+v, n %d, d %d", c, in.Def().N, in.Dim())
	}
	if !in.UserConstants() || in.RiskInfo().Kind != Empirical {
		t.Errorf("user constants %v, kind %s", in.UserConstants(), in.RiskInfo().Kind)
	}
	if ex, se := in.Excess(in.RiskInfo().WStar); ex != 0 || se != 0 {
		t.Errorf("empirical excess at w* = %g ± %g", ex, se)
	}

	// Labels: the logistic loss needs ±1 (0/1 mapped); 2 is rejected with
	// its position.
	bad := writeCSV(t, "1,0,1\n0,2,2\n")
	_, err := Build(ctx, resolved(t, ProblemDef{Data: bad, Loss: "logistic", Rk: 3, Beta: 1}))
	var de *DataError
	if !errors.As(err, &de) || de.Line != 2 || de.Col != 3 {
		t.Errorf("label 2: %v", err)
	}
	zo := writeCSV(t, "1,0,1\n0,2,0\n")
	in = build(t, ProblemDef{Data: zo, Loss: "logistic", Rk: 3, Beta: 1})
	if got := in.m.data.Row(1)[2]; got != -1 {
		t.Errorf("label 0 mapped to %g, want −1", got)
	}

	// Estimated constants (not private): squared loss, W = B(0, 1).
	in = build(t, ProblemDef{Data: path, EstimateConstants: true, Class: theory.SmoothSC})
	c = in.Constants()
	// G_i = ‖a_i‖(R‖a_i‖ + |y_i|) with R = 1: 1·(1+1)=2, 2·(2+1)=6, √2(√2+1)=2+√2, √5(√5+1)=5+√5.
	g := []float64{2, 6, 2 + math.Sqrt2, 5 + math.Sqrt(5)}
	var m2 float64
	for _, v := range g {
		m2 += v * v / 4
	}
	if got := c.R(2); math.Abs(got-math.Sqrt(m2)) > 1e-12 {
		t.Errorf("estimated r̃_2 = %g, want %g", got, math.Sqrt(m2))
	}
	if math.Abs(c.Lf-(5+math.Sqrt(5))) > 1e-14 {
		t.Errorf("estimated L_f = %g, want max G_i = 5 + √5", c.Lf)
	}
	// (1/n)AᵀA = [[6, −3], [−3, 6]]/4: eigenvalues 3/4 and 9/4.
	if math.Abs(c.Beta-2.25) > 1e-12 || math.Abs(c.Mu-0.75) > 1e-12 {
		t.Errorf("estimated β, μ = %g, %g, want 2.25, 0.75", c.Beta, c.Mu)
	}
	notPrivate := false
	for _, n := range in.Notes() {
		notPrivate = notPrivate || strings.Contains(n, "NOT private")
	}
	if !notPrivate {
		t.Errorf("notes %q do not say the run is not private", in.Notes())
	}
}

func TestUserDataPermutation(t *testing.T) {
	var sb strings.Builder
	for i := range 50 {
		sb.WriteString("0," + theory.FormatNumber(float64(i)) + "\n")
	}
	path := writeCSV(t, sb.String())
	read := func(s solvers.Samples) []float64 {
		var out []float64
		rd := s.Open()
		x := make([]float64, s.SampleDim())
		for rd.Next(x) {
			out = append(out, x[1])
		}
		return out
	}
	in := build(t, ProblemDef{Data: path, Rk: 1, Beta: 1})
	a, b := read(in.Dataset(solvers.Seeded, 3, 0)), read(in.Dataset(solvers.Seeded, 3, 0))
	c := read(in.Dataset(solvers.Seeded, 3, 1))
	if !slices.Equal(a, b) {
		t.Error("the same trial gave two orders")
	}
	if slices.Equal(a, c) {
		t.Error("trials 0 and 1 have the same order")
	}
	sorted := slices.Clone(a)
	slices.Sort(sorted)
	for i, v := range sorted {
		if v != float64(i) {
			t.Fatalf("trial 0 is not a permutation of the rows: %v", a)
		}
	}
	sub := build(t, ProblemDef{Data: path, Rk: 1, Beta: 1, N: 20})
	s := read(sub.Dataset(solvers.Seeded, 3, 0))
	if len(s) != 20 || len(slices.Compact(slices.Sorted(slices.Values(s)))) != 20 {
		t.Errorf("subset of 20 distinct rows: %v", s)
	}
}
