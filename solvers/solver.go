package solvers

import (
	"context"
	"fmt"

	"dpso/solvers/ledger"
	"dpso/solvers/oracle"
	"dpso/theory"
)

// Config is what a caller chooses for one run, the same for every solver
// (a solver's own settings are fields of its value: Descriptor.Settings).
// The zero values of the override fields mean "as the theorem prescribes".
type Config struct {
	// Eps is the zCDP ε: the run is ρ-zCDP with ρ = ε²/2 (Gaussian
	// oracles). With a shuffle oracle the run is (Eps, Delta)-shuffle DP.
	// +Inf means no privacy: no noise and, unless Clip is set, no clipping.
	Eps float64
	// Delta is δ for the shuffle oracles, in (0, 1/2) (their protocols'
	// range); unused otherwise.
	Delta float64
	// PriorRho is the ρ of a zCDP release on the same rows made before the
	// run (dpso's private estimates of the constants, ρ₀), with Eps what is
	// left: ε²/2 = ρ − ρ₀. A solver accounted as a whole by a privacy
	// accountant (dp-sgd) calibrates its noise so that that release and its
	// steps together meet the exact ε' of the whole ρ = ε²/2 + PriorRho at
	// its δ (accountant.CalibrateAfterZCDP), and records the two composed
	// (ledger.Event.PriorRho); the zCDP solvers read Eps alone.
	PriorRho float64
	// K is the moment order k ≥ 2 of Assumption 1 the prescription uses;
	// +Inf means the worst-case Lipschitz regime (r̃_∞ = L_f).
	K float64
	// Oracle is the mean oracle's registry name (see oracle.Names);
	// "" means "clip-gaussian".
	Oracle string
	// Assumption chooses the moment constants the prescription reads in
	// place of r̃_k and r̃_2 (see Assumption); "" is AssumeTilde.
	Assumption Assumption

	// Overrides of the prescribed parameters; 0 means prescribed.
	Iters int     // T (per phase for the localized methods: T_i for every i)
	Clip  float64 // ℓ2 clip threshold C (C_i for every phase)
	Step  float64 // the step-size parameter (η; see each solver's doc)

	// Schedule names the paper solver whose schedule (T, batches, step
	// sizes, phases) the baselines "sgd" and "lipschitz-dpsgd" reuse; ""
	// means "acsa". Other solvers ignore it.
	Schedule string

	// NoNoise switches the oracle's privacy noise off and nothing else: the
	// run has the same schedule (T, batches, C, step sizes, phases) as the
	// private run of the same Config, so that its excess risk is what
	// clipping, sampling and optimization leave of the private run's, the
	// noise's share removed (the "noise_off" of a clip sweep). Such a run
	// is not private: its ledger budget is infinite.
	NoNoise bool

	// WorkBudget caps the total number of per-sample gradient evaluations
	// of multi-pass solvers (0: the solver's default). When it binds, the
	// result says so: the theorem's guarantee assumes the full T_i.
	WorkBudget int64

	// Randomness: the noise stream is NewRand(Rand, Seed, Trial, "noise").
	Seed  uint64
	Trial int
	Rand  RandMode

	// Context cancels a long preparation before the run (dp-sgd's noise
	// calibration, which Prescribe does too); nil: context.Background.
	// Run's own context cancels the run.
	Context context.Context

	// Workers is the number of goroutines the run may use for its own work
	// (0 or 1: the caller's goroutine only). An oracle call that reads
	// enough samples of a chunked dataset (Chunked, *Matrix) spreads its
	// chunks over them, and a streamed multi-pass dataset is materialized
	// chunk by chunk in parallel; the result is the same bits for any
	// number of workers.
	Workers int

	// Checkpoints is the number of progress checkpoints, log-spaced in
	// gradient evaluations, besides the first and the last (0: 64).
	Checkpoints int
	// Observe, if not nil, is called synchronously by the solver's
	// goroutine at each checkpoint, in order. It must return quickly; a
	// consumer that may be slow should hand the checkpoint on without
	// blocking (the engine's Mailbox does).
	Observe func(Checkpoint)
	// NoBatchDetail leaves the distribution of the norms out of every
	// checkpoint's Batch (its Hist, Under and Over are 0, its Quantiles
	// NaN; Size, Clipped and NonFinite are counted): a caller that
	// observes the iterates but shows no batch statistics spares the run
	// a histogram of every per-sample gradient of the calls a checkpoint
	// ends (oracle.DetailSetter).
	NoBatchDetail bool
	// Pulse, if not nil, is called from inside the run's long oracle
	// calls and passes over the data with the per-sample gradient
	// evaluations done so far, those of the call in progress included:
	// about once per PulseWork floats of data read (a call of
	// 10⁸ samples of d = 10⁴ is one iteration between two checkpoints;
	// its pulses are what shows it moving). It may be called from any of
	// the run's goroutines, concurrently: it must be safe for that,
	// return quickly and never block. It sees no iterate and changes
	// nothing of the run.
	Pulse func(gradEvals int64)
}

// PulseWork is the data, in floats read, between two pulses of one
// goroutine of a run (Config.Pulse): 2²² floats take a few milliseconds
// to read and process, so a progress line fed by pulses moves many
// times a second, and a pulse (an atomic add and a call) costs nothing
// next to the work between two.
const PulseWork = 1 << 22

// Budget is the per-sample privacy budget a run must not exceed:
// ρ = ε²/2 (theory.Rho, dpso's one ε → ρ conversion) for Gaussian
// oracles, (ε, δ) for shuffle oracles.
func (c Config) Budget(kind oracle.Kind) ledger.Cost {
	if kind == oracle.Shuffle {
		return ledger.Cost{Eps: c.Eps, Delta: c.Delta}
	}
	return ledger.Cost{Rho: theory.Rho(c.Eps)}
}

// batchDetail reports whether a checkpoint's Batch carries the
// distribution of the norms: someone observes the run and wants it.
func (c Config) batchDetail() bool { return c.Observe != nil && !c.NoBatchDetail }

// Checkpoint is a progress report of a running solver.
type Checkpoint struct {
	Iter      int       // iterations done (over all phases)
	Iters     int       // iterations planned (over all phases)
	Phase     int       // current phase (1-based) of multi-phase solvers, else 0
	GradEvals int64     // per-sample gradient evaluations so far
	W         []float64 // the current output iterate; a copy the receiver owns
	Spent     ledger.Cost
	// Batch describes the per-sample gradients of the latest oracle call.
	Batch     oracle.BatchStats
	NonFinite int64 // non-finite per-sample gradients zeroed so far
	Done      bool  // the last checkpoint of the run
}

// Phase is the prescription of one phase of a multi-phase solver.
type Phase struct {
	N      int     // samples in the phase's batch, n_i
	Iters  int     // T_i
	Clip   float64 // C_i
	Sigma  float64 // σ_i
	Step   float64 // η_i
	Lambda float64 // λ_i (regularization), 0 if none
	Radius float64 // D_i (localization radius), +Inf if none
	// Stage is the stage (1-based) of localized-sc's strongly convex
	// reduction the phase belongs to; 0 for a single run of Algorithm
	// "localization".
	Stage int
}

// Params are a run's algorithmic parameters.
type Params struct {
	Iters int     // T (total over phases)
	Batch int     // samples per oracle call (first phase for multi-phase)
	Clip  float64 // C (first phase for multi-phase); +Inf means no clipping
	Sigma float64 // per-coordinate std of the oracle's privacy noise
	Step  float64 // step-size parameter (see each solver's doc)
	// Prescribed is true when no override is in force.
	Prescribed bool
	// Overridden lists the overridden parameters among "iters", "clip",
	// "step".
	Overridden []string
	Phases     []Phase
	// BudgetBound is true when Config.WorkBudget cut the prescribed
	// iterations (every T_i scaled down): the parameters are then neither
	// the theorem's prescription nor an override, and the theorem's
	// guarantee assumes the full schedule.
	BudgetBound bool
	// GradEvals is the planned number of per-sample gradient evaluations.
	GradEvals int64
	// Notes explain the prescription in sentences (e.g. a clamp applied,
	// a work budget that binds).
	Notes []string
}

// Result is what a run returns.
type Result struct {
	Solver    string
	Oracle    string
	W         []float64
	Params    Params
	GradEvals int64
	Budget    ledger.Cost // requested per-sample budget
	Spent     ledger.Cost // maximum per-sample cost, from the ledger
	NonFinite int64       // non-finite per-sample gradients zeroed
	// Clipped and Fed count the per-sample vectors that clipping changed
	// and the vectors fed, summed over the run's oracle calls
	// (oracle.BatchStats.Clipped and Size): Clipped/Fed is the fraction of
	// per-sample gradients clipped. Both are 0 for the non-private
	// baseline, which does not clip.
	Clipped, Fed int64
	Rand         RandMode
	// BudgetBound is true when WorkBudget cut the prescribed iterations.
	BudgetBound bool
	// Events are the mechanisms the run's ledger recorded as a whole, with
	// their accountant's (ε, δ) (dp-sgd's subsampled Gaussian steps); nil
	// for the solvers charged call by call.
	Events []ledger.Event
	Notes  []string
}

// Solver is one algorithm.
type Solver interface {
	// Name is the registry name, e.g. "acsa".
	Name() string
	// Describe is a one-line description with the paper's reference.
	Describe() string
	// Prescribe computes the parameters a run on n samples would use,
	// without running (for displays). It returns a *ConfigError or a
	// *RefusedError when the run is impossible.
	Prescribe(p Problem, n int, cfg Config) (Params, error)
	// Run runs the solver on one trial's dataset. It stops within 50 ms
	// of ctx's cancellation, returning ctx's error.
	Run(ctx context.Context, p Problem, data Samples, cfg Config) (Result, error)
}

// ConfigError is an invalid configuration: Field names the setting
// ("eps", "k", "iters", …) and Msg says the allowed range.
type ConfigError struct {
	Field string
	Msg   string
}

func (e *ConfigError) Error() string { return fmt.Sprintf("%s: %s", e.Field, e.Msg) }

// RefusedError is a run a solver declines on principle, with the sentence
// that says why (e.g. Lipschitz DP-SGD when L_f = +Inf).
type RefusedError struct {
	Solver string
	Reason string
}

func (e *RefusedError) Error() string { return e.Solver + ": " + e.Reason }
