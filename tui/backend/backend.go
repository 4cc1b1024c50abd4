package backend

import (
	"context"
	"errors"

	"dpso/internal/audit"
	"dpso/internal/engine"
	"dpso/internal/spec"
)

// Runner is the engine the explorer drives: every computation the explorer
// asks of package internal/engine (and of internal/audit) goes through it.
// The program uses Local; an embedding may wrap it (dpso serve's pool, which
// shares the CPUs between sessions), tests inject a deterministic fake.
// Both methods must honour ctx's cancellation; Run must honour the
// settings' Gate and Put its progress into their Mailbox without ever
// blocking on it.
type Runner interface {
	// Prescribe returns the parameters, bounds and moment profile of r
	// without running.
	Prescribe(ctx context.Context, r spec.Resolved) (*engine.Prescription, error)
	// Run makes the call c.
	Run(ctx context.Context, c Call, set *engine.Settings) (Result, error)
}

// Queued is a Runner whose calls wait for a share of CPU slots before they
// run (dpso serve's pool): Run Puts an engine.Progress with Queue into the
// settings' Mailbox while the call waits (its position) and once it holds
// its slots (Position 0), before any progress of the engine. A caller
// shows such a call as waiting from the moment it asks until that report.
type Queued interface {
	Runner
	// QueuesRuns reports whether a call may wait for its slots.
	QueuesRuns() bool
}

// QueuedPrescriber is a Runner whose prescriptions wait for a CPU slot
// (dpso serve's pool): PrescribeQueued is Prescribe that reports the
// call's place in the queue to report while it waits (Position k > 0),
// and Position 0 once it holds its slot, as Run reports a call's.
type QueuedPrescriber interface {
	PrescribeQueued(ctx context.Context, r spec.Resolved, report func(engine.Queue)) (*engine.Prescription, error)
}

// QueuesRuns reports whether the runner's calls wait for CPU slots
// (a Queued runner that says so).
func QueuesRuns(r Runner) bool {
	q, ok := r.(Queued)
	return ok && q.QueuesRuns()
}

// Fitter is a Runner that can say, for a comparison whose work is long,
// the smaller n whose plan fits a given work (engine.FitN): Local.
type Fitter interface {
	// FitN is the largest n below the call's, two significant digits,
	// whose plan is at most maxWork floats, with that plan (0: none).
	FitN(ctx context.Context, c Call, maxWork float64) (int, engine.Plan, error)
}

// Kind is the engine call a Call makes.
type Kind int

const (
	// Compare is engine.Compare of one solver, or of several on the same
	// draws.
	Compare Kind = iota
	// Sweep is engine.Sweep over a log grid of one parameter.
	Sweep
	// Audit is audit.Oracle, an oracle audit (no progress, no pause).
	Audit
	// Tune is engine.Tune, a private search beside the prescribed and the
	// oracle-tuned runs.
	Tune
)

// Call is one call into the engine: its kind, the resolved Spec it runs on,
// and what that kind reads besides. A new kind of call is a Kind, its
// arguments here, its result in Result (and Empty), and its case in
// Local.Run and Check.
type Call struct {
	Kind Kind
	// Spec is the form's Spec, resolved (what the engine is given).
	Spec spec.Resolved
	// Names are the solvers, the paper's first: Compare runs them (the
	// Spec's solver when empty); the other kinds' progress names them.
	Names []string
	// SweepSpec is the grid (Sweep).
	SweepSpec engine.SweepSpec
	// TuneSpec is the search (Tune).
	TuneSpec engine.TuneSpec
	// AuditConfig is the audit (Audit).
	AuditConfig audit.Config
}

// Result is what a Call returns: the field of its kind.
type Result struct {
	Comparison *engine.Comparison  // Compare
	Sweep      *engine.SweepReport // Sweep
	Audit      *audit.Result       // Audit
	Tune       *engine.TuneReport  // Tune
}

// Empty reports whether the result holds nothing (the engine returned no
// result).
func (r Result) Empty() bool {
	return r.Comparison == nil && r.Sweep == nil && r.Audit == nil && r.Tune == nil
}

// Workers is the number of workers the call asks for (the Spec's; an
// audit's own; 0: the engine's default).
func (c Call) Workers() int {
	if c.Kind == Audit {
		return c.AuditConfig.Workers
	}
	return c.Spec.Spec.Workers
}

// WithWorkers is the call with its workers set to w (see Workers).
func (c Call) WithWorkers(w int) Call {
	if c.Kind == Audit {
		c.AuditConfig.Workers = w
	} else {
		c.Spec.Spec.Workers = w
	}
	return c
}

// Check says why the call cannot be made (nil: it can), before it
// starts: a search's own rules (engine.CheckTune: ε = ∞, a shuffle
// oracle, a fixed C, step or T, --split-budget).
func (c Call) Check() error {
	if c.Kind == Tune {
		return engine.CheckTune(c.Spec, c.TuneSpec)
	}
	return nil
}

// Local is the Runner of the program: the engine's calls in this process.
type Local struct{}

// Prescribe calls engine.Prescribe.
func (Local) Prescribe(ctx context.Context, r spec.Resolved) (*engine.Prescription, error) {
	return engine.Prescribe(ctx, r)
}

// FitN calls engine.FitN on a comparison (0 for another kind of call).
func (Local) FitN(ctx context.Context, c Call, maxWork float64) (int, engine.Plan, error) {
	if c.Kind != Compare {
		return 0, engine.Plan{}, nil
	}
	return engine.FitN(ctx, c.Spec, c.Names, maxWork)
}

// Run calls engine.Compare, Sweep or Tune, or audit.Oracle, by c's kind.
func (Local) Run(ctx context.Context, c Call, set *engine.Settings) (Result, error) {
	var (
		res Result
		err error
	)
	switch c.Kind {
	case Compare:
		res.Comparison, err = engine.Compare(ctx, c.Spec, c.Names, set)
	case Sweep:
		res.Sweep, err = engine.Sweep(ctx, c.Spec, c.SweepSpec, set)
	case Audit:
		res.Audit, err = audit.Oracle(ctx, c.AuditConfig)
	case Tune:
		res.Tune, err = engine.Tune(ctx, c.Spec, c.TuneSpec, set)
	default:
		err = errors.New("no engine call of this kind")
	}
	return res, err
}

// Resolve validates a Spec once and makes its defaults explicit
// (spec.Spec.Resolve): the form's and the presets' one check, the same as
// the CLI's flags; the spec.Resolved is what the engine is given.
func Resolve(s spec.Spec) (spec.Resolved, error) { return s.Resolve() }

// CheckSweepPoint is engine.CheckPoint: why the sweep point param = v
// of r would not build (nil: it builds), so that a screen's grid stops
// where its points stop building instead of failing as a whole.
func CheckSweepPoint(ctx context.Context, r spec.Resolved, param string, v float64) error {
	return engine.CheckPoint(ctx, r, param, v)
}

// StoppedError is a run stopped part way by whoever runs it (dpso serve's
// bound on the time a run holds its CPU slots), not refused by a solver:
// the run as a whole ended early, its trials done so far are what it has.
// Short names the stop in a few words ("stopped after 30 s on its CPU
// slots"), Reason says it in full with what to do.
type StoppedError struct{ Short, Reason string }

func (e *StoppedError) Error() string { return e.Reason }

// SpecMessage is the text of a refusal: "field: message" for a
// *spec.SpecError, the error's text otherwise.
func SpecMessage(err error) string {
	var se *spec.SpecError
	if errors.As(err, &se) {
		return se.Field + ": " + se.Msg
	}
	return err.Error()
}
