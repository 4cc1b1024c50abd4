package tui

import (
	"context"

	"dpso/internal/audit"
	"dpso/internal/engine"
	"dpso/internal/spec"
)

// This file is the explorer's one adapter to the scenarios engine: every
// call of engine.Prescribe, Compare, Sweep, Tune, audit.Oracle and
// spec.Spec.Resolve made by the explorer is here, so that a change of the engine's API changes this
// file only (the tests' fake runner implements Runner).

// Runner is the engine the explorer drives. The program uses Engine
// (package internal/engine); tests inject a deterministic fake. Every
// method must honour ctx's cancellation, and Compare, Sweep and Tune must honour
// the settings' Gate and Put their progress into its Mailbox without ever
// blocking on it.
type Runner interface {
	// Prescribe returns the parameters, bounds and moment profile of r
	// without running.
	Prescribe(ctx context.Context, r spec.Resolved) (*engine.Prescription, error)
	// Compare runs the named solvers (r's solver when names is empty) on
	// the same draws.
	Compare(ctx context.Context, r spec.Resolved, names []string, set *engine.Settings) (*engine.Comparison, error)
	// Sweep runs r over the sweep's log grid.
	Sweep(ctx context.Context, r spec.Resolved, sw engine.SweepSpec, set *engine.Settings) (*engine.SweepReport, error)
	// Tune runs the private search ts for r (engine.Tune): the tuned run
	// beside the prescribed and the oracle-tuned ones.
	Tune(ctx context.Context, r spec.Resolved, ts engine.TuneSpec, set *engine.Settings) (*engine.TuneReport, error)
	// Audit audits a mean oracle black-box (package internal/audit).
	Audit(ctx context.Context, cfg audit.Config) (*audit.Result, error)
}

// Engine is the Runner of the program: engine.Prescribe, Compare, Sweep
// and Tune, and audit.Oracle.
type Engine struct{}

// Prescribe calls engine.Prescribe.
func (Engine) Prescribe(ctx context.Context, r spec.Resolved) (*engine.Prescription, error) {
	return engine.Prescribe(ctx, r)
}

// Compare calls engine.Compare.
func (Engine) Compare(ctx context.Context, r spec.Resolved, names []string, set *engine.Settings) (*engine.Comparison, error) {
	return engine.Compare(ctx, r, names, set)
}

// Sweep calls engine.Sweep.
func (Engine) Sweep(ctx context.Context, r spec.Resolved, sw engine.SweepSpec, set *engine.Settings) (*engine.SweepReport, error) {
	return engine.Sweep(ctx, r, sw, set)
}

// Tune calls engine.Tune.
func (Engine) Tune(ctx context.Context, r spec.Resolved, ts engine.TuneSpec, set *engine.Settings) (*engine.TuneReport, error) {
	return engine.Tune(ctx, r, ts, set)
}

// Audit calls audit.Oracle.
func (Engine) Audit(ctx context.Context, cfg audit.Config) (*audit.Result, error) {
	return audit.Oracle(ctx, cfg)
}

// resolve validates a Spec once and makes its defaults explicit
// (spec.Spec.Resolve): the form's and the presets' one check, the same as
// the CLI's flags; the spec.Resolved is what the engine is given.
func resolve(s spec.Spec) (spec.Resolved, error) { return s.Resolve() }
