package serve

import (
	"context"
	"errors"
	"strings"
	"testing"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/solvers"
	"dpso/tui/backend"
	"dpso/tui/presets"
)

func mustResolve(t *testing.T, s spec.Spec) spec.Resolved {
	t.Helper()
	r, err := s.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestLimitSecureNoiseAndCaps(t *testing.T) {
	caps := Caps{N: 5000, D: 20, Trials: 4, WorkBudget: 1_000_000}
	cases := []struct {
		name  string
		s     spec.Spec
		field string // "" accepted
		says  string
	}{
		{"within the caps", spec.Spec{Scenario: scenarios.LinRegT, N: 5000, D: 20, Trials: 4}, "", ""},
		{"n above", spec.Spec{Scenario: scenarios.LinRegT, N: 5001}, "n", "caps n at 5000 per session"},
		{"the default n above", spec.Spec{Scenario: scenarios.LinRegT}, "n", "caps n at 5000"},
		{"d above", spec.Spec{Scenario: scenarios.LinRegT, N: 1000, D: 21}, "d", "caps d at 20"},
		{"trials above", spec.Spec{Scenario: scenarios.LinRegT, N: 1000, Trials: 5}, "trials", "caps trials at 4"},
		{"the default work budget above", spec.Spec{Scenario: scenarios.LinRegT, N: 1000, Trials: 1}, "work-budget", "caps the work budget at 10⁶"},
		{"a seed", spec.Spec{Scenario: scenarios.LinRegT, N: 1000, Seed: 7}, "seed", "secure randomness"},
		{"seeded randomness", spec.Spec{Scenario: scenarios.LinRegT, N: 1000, Rand: "seeded"}, "rand", "secure randomness"},
		{"a data file", spec.Spec{Data: "/etc/passwd"}, "data", "no file of the server"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cc := caps
			if c.field == "" || c.field == "n" || c.field == "d" || c.field == "trials" || c.field == "seed" || c.field == "rand" {
				cc.WorkBudget = 0
			}
			got, err := cc.Limit(c.s)
			if c.field == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if got.Rand != solvers.Secure.String() {
					t.Fatalf("rand %q, want secure", got.Rand)
				}
				return
			}
			var se *spec.SpecError
			if !errors.As(err, &se) || se.Field != c.field || !strings.Contains(se.Msg, c.says) {
				t.Fatalf("error %v, want a *spec.SpecError on %s saying %q", err, c.field, c.says)
			}
		})
	}
}

func TestPoolRefusesAboveTheCaps(t *testing.T) {
	p := NewPool(newBlockRunner(), 2, 1, Caps{N: 5000}).Seat()
	ctx := context.Background()
	_, err := p.Run(ctx, backend.Call{Kind: backend.Compare, Spec: mustResolve(t, spec.Spec{Scenario: scenarios.LinRegT, N: 6000})}, nil)
	var re *solvers.RefusedError
	if !errors.As(err, &re) || !strings.Contains(re.Reason, "caps n at 5000") {
		t.Fatalf("Compare above the cap: %v, want the server's refusal", err)
	}
	// A sweep of n whose grid goes past the cap (the explorer's grid for a
	// small n runs to 16n).
	_, err = p.Run(ctx, backend.Call{Kind: backend.Sweep, Spec: mustResolve(t, spec.Spec{Scenario: scenarios.LinRegT, N: 400}), SweepSpec: engine.SweepSpec{Param: spec.SweepN, From: 400, To: 6400, Points: 5}}, nil)
	if !errors.As(err, &re) || !strings.Contains(re.Reason, "6400 is above it") {
		t.Fatalf("Sweep past the cap: %v, want the server's refusal", err)
	}
}

// TestPoolSharesItsSlots: a call holds its workers' slots while it runs
// (a second call waits for them, and gets them when the first ends), and
// no call runs with more workers than a session's share.
func TestPoolSharesItsSlots(t *testing.T) {
	run := newBlockRunner()
	pool := NewPool(run, 2, 2, Caps{})
	p := pool.Seat()
	r := mustResolve(t, spec.Spec{Scenario: scenarios.LinRegT, N: 1000, Workers: 64})
	errs := make(chan error, 2)
	go func() {
		_, err := p.Run(context.Background(), backend.Call{Kind: backend.Compare, Spec: r}, nil)
		errs <- err
	}()
	first := <-run.started
	if first.Spec.Workers != 2 {
		t.Fatalf("the call ran with %d workers, want the session's 2", first.Spec.Workers)
	}
	if free := pool.sched.freeSlots(); free != 0 {
		t.Fatalf("%d slots were free while a call held both", free)
	}
	go func() {
		_, err := p.Run(context.Background(), backend.Call{Kind: backend.Compare, Spec: r}, nil)
		errs <- err
	}()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Run(ctx, backend.Call{Kind: backend.Compare, Spec: r}, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("a call cancelled while waiting for slots: %v", err)
	}
	close(run.release) // the first ends; the second gets the slots
	<-run.started
	<-errs
	<-errs
	if free := pool.sched.freeSlots(); free != 2 {
		t.Fatalf("%d slots free at the end, want both given back", free)
	}
}

// TestDefaultCapsOpenEveryPreset: a student who connects with plain ssh
// (the first preset) or names any preset gets it, not a refusal.
func TestDefaultCapsOpenEveryPreset(t *testing.T) {
	for i, p := range presets.All {
		t.Run(p.Title, func(t *testing.T) {
			if _, err := DefaultCaps.Limit(p.Spec); err != nil {
				t.Errorf("preset %d is above the default caps: %v", i+1, err)
			}
		})
	}
}
