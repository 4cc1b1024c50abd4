package engine

import (
	"context"
	"reflect"
	"testing"

	"dpso/internal/spec"
	"dpso/scenarios"
)

// TestPlanCompareIsTheRunsPlan: PlanCompare gives, without running, the
// Plan that Compare hands Settings.Plan before its first trial — for one
// solver (test-gd: 3·(1000 + 1000) floats a trial, TestPlanIsThePrescribedWork)
// and for the paper's solver beside every baseline on the same draws —
// whose Reads name each solver that runs with its trials' rows drawn,
// dp-sgd alone reading at random.
func TestPlanCompareIsTheRunsPlan(t *testing.T) {
	for _, tc := range []struct {
		name  string
		s     spec.Spec
		names []string
		want  float64 // 0: not known in closed form
		runs  int     // the solvers that run (lipschitz-dpsgd refuses without an L_f)
	}{
		{"test-gd", spec.Spec{Scenario: scenarios.LinRegT, D: 2, N: 1000, Trials: 3, Workers: 2, Solver: "test-gd"}, nil, 3 * 3 * 2000, 1},
		{"comparison", spec.Spec{Scenario: scenarios.LinRegT, D: 2, N: 2000, Trials: 2, Workers: 1},
			[]string{"acsa", "nonprivate-schedule", "lipschitz-dpsgd", "klz-gd", "dp-sgd"}, 0, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := resolve(t, tc.s)
			got, err := PlanCompare(context.Background(), r, tc.names)
			if err != nil {
				t.Fatal(err)
			}
			var plans []Plan
			if _, err := Compare(context.Background(), r, tc.names, &Settings{Plan: func(pl Plan) { plans = append(plans, pl) }}); err != nil {
				t.Fatal(err)
			}
			if len(plans) != 1 || !reflect.DeepEqual(plans[0], got) {
				t.Errorf("PlanCompare %+v, Compare's Settings.Plan %+v", got, plans)
			}
			if tc.want != 0 && got.Work != tc.want {
				t.Errorf("work %v, want %v", got.Work, tc.want)
			}
			if len(got.Reads) != tc.runs {
				t.Errorf("reads %+v: want one entry for each of the %d solvers that run", got.Reads, tc.runs)
			}
			for _, rd := range got.Reads {
				if rd.Drawn != float64(tc.s.Trials*tc.s.N) || rd.Rows < rd.Drawn/10 {
					t.Errorf("%s reads %v rows of %v drawn: want the %d trials' n = %d drawn", rd.Solver, rd.Rows, rd.Drawn, tc.s.Trials, tc.s.N)
				}
				if want := rd.Solver == "dp-sgd"; rd.Random != want {
					t.Errorf("%s reads at random: %v, want %v", rd.Solver, rd.Random, want)
				}
			}
			if got.Jobs != tc.s.Trials || got.Work <= float64(tc.s.Trials*(tc.s.D+1)*tc.s.N) {
				t.Errorf("plan %+v: want %d jobs and more work than the draws' %d floats", got, tc.s.Trials, tc.s.Trials*(tc.s.D+1)*tc.s.N)
			}
		})
	}
}

// TestFitN: the n FitN offers is written with two significant digits,
// its comparison's plan fits the work asked for and is the plan
// PlanCompare gives at that n, and 1.2·n does not fit (the search stops
// within an eighth); where not even MinFitN rows fit (their draws alone
// pass the work), it offers none.
func TestFitN(t *testing.T) {
	s := spec.Spec{Scenario: scenarios.LinRegT, D: 2, N: 20000, Trials: 2, Workers: 1}
	names := []string{"acsa", "nonprivate-schedule", "klz-gd"}
	r := resolve(t, s)
	full, err := PlanCompare(context.Background(), r, names)
	if err != nil {
		t.Fatal(err)
	}
	at := func(n int) Plan {
		t.Helper()
		rn, err := r.At(spec.SweepN, float64(n))
		if err != nil {
			t.Fatal(err)
		}
		pl, err := PlanCompare(context.Background(), rn, names)
		if err != nil {
			t.Fatal(err)
		}
		return pl
	}
	for _, tc := range []struct {
		name    string
		maxWork float64
		none    bool
	}{
		{"a quarter", full.Work / 4, false},
		{"a fiftieth", full.Work / 50, false},
		{"less than MinFitN's draws", float64(s.Trials*(s.D+1)*MinFitN) / 2, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, pl, err := FitN(context.Background(), r, names, tc.maxWork)
			if err != nil {
				t.Fatal(err)
			}
			if tc.none {
				if n != 0 {
					t.Errorf("FitN = %d (%+v), want none", n, pl)
				}
				return
			}
			if n < MinFitN || n >= s.N || twoDigits(n) != n {
				t.Fatalf("FitN = %d, want two significant digits in [%d, %d)", n, MinFitN, s.N)
			}
			if pl.Work > tc.maxWork || !reflect.DeepEqual(pl, at(n)) {
				t.Errorf("FitN's plan %+v at n = %d: want PlanCompare's %+v, work ≤ %v", pl, n, at(n), tc.maxWork)
			}
			if up := at(n * 6 / 5); up.Work <= tc.maxWork {
				t.Errorf("1.2·n = %d fits too (%v ≤ %v): FitN stopped short", n*6/5, up.Work, tc.maxWork)
			}
		})
	}
}

func TestTwoDigits(t *testing.T) {
	for _, tc := range [][2]int{{137456, 130000}, {99, 99}, {100, 100}, {1999, 1900}, {5, 5}} {
		if got := twoDigits(tc[0]); got != tc[1] {
			t.Errorf("twoDigits(%d) = %d, want %d", tc[0], got, tc[1])
		}
	}
}
