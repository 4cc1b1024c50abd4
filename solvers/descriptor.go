package solvers

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"dpso/theory"
)

// MomentOrder is the highest moment of Assumption 1 a solver's
// prescription reads.
type MomentOrder int

const (
	// MomentK: r̃_k (and r̃_2, r̃_∞ = L_f where a formula uses them).
	MomentK MomentOrder = iota
	// Moment2K: r̃_2k as well — the localized methods (Theorem
	// "localization convex": C_i = r̃_2k(·)^{1/k}).
	Moment2K
)

// DataAccess is how a solver reads its dataset, which decides the memory a
// run takes: a streamed dataset costs O(d) floats at any n, a materialized
// one n × SampleDim.
type DataAccess int

const (
	// Materializes: the solver makes several passes and keeps the whole
	// dataset in memory (n × SampleDim float64s) — the multi-pass
	// solvers. It is the zero value, so a Descriptor that does not say
	// is held to the materialization cap.
	Materializes DataAccess = iota
	// Streams: the solver reads each sample once, in order, in O(d)
	// memory — the one-pass solvers.
	Streams
	// AsSchedule: a baseline that runs a paper solver's schedule
	// (Config.Schedule) reads the data as that solver does.
	AsSchedule
)

// Certificate is the explicit-constant bound of the paper that certifies a
// solver's run: internal/engine's Certify evaluates it at the run's own
// parameters (T, C, σ, the batches, the phases).
type Certificate int

const (
	// CertUnstated is the zero value: a Descriptor must state its
	// certificate, CertNone included (Descriptor.Check).
	CertUnstated Certificate = iota
	// CertNone: the paper proves no explicit-constant bound for the
	// solver (Kamath, Liu & Zhang's method, DP-SGD with an accountant).
	CertNone
	// CertACSA: Proposition "prop: ACSA generic" (theory.ACSAGenericSum,
	// else theory.ACSAGeneric) with the oracle of Lemma "lem: bias and
	// variance of bd14".
	CertACSA
	// CertSCSGD: Proposition "prop: strongly convex biased sgd"
	// (theory.SCSGD).
	CertSCSGD
	// CertProxPL: Proposition "lemma:extendsAS21Thm6" (theory.ProxPL).
	CertProxPL
	// CertLocalized: the proof of Theorem "localization convex" composed
	// over the phases of Algorithm "localization" (theory.LocalizedConvex).
	CertLocalized
	// CertLocalizedSC: the reduction of "app: localization strongly"
	// composed over its stages (theory.LocalizedSC).
	CertLocalizedSC
	// CertSchedule: the certificate of the paper solver whose schedule the
	// baseline runs (Config.Schedule), at the run's k: a run at C = ∞ and
	// σ = 0 is one of that algorithm's runs.
	CertSchedule
	// CertScheduleLipschitz: the certificate of the schedule's paper solver
	// at k = ∞ (r̃_∞ = L_f), the regime the baseline is calibrated to.
	CertScheduleLipschitz
)

// OnSchedule reports whether the certificate is the one of the paper
// solver whose schedule the solver runs.
func (c Certificate) OnSchedule() bool { return c == CertSchedule || c == CertScheduleLipschitz }

// SettingValues gives the settings a run chose, by name (internal/spec's
// Spec reads them from its fields of the same names). A setting the run
// does not give reads as its zero value, the solver's default.
type SettingValues interface {
	Int(name string) int
	Float(name string) float64
	Bool(name string) bool
	String(name string) string
}

// Settings name a solver's own settings: fields of its value, whose zero
// value is the solver's defaults, as gonum's optimize.LBFGS{Store}. A
// solver with settings is Configurable.
type Settings struct {
	// Names lists them by the name a *ConfigError that refuses one gives
	// as its Field; internal/spec's field table has a field of each name
	// (its flag), which it refuses in a call that does not run the solver.
	Names []string
	none  bool
}

// NoSettings are the Settings of a solver with none of its own.
var NoSettings = Settings{none: true}

// Stated reports whether s lists settings or is NoSettings.
func (s Settings) Stated() bool { return s.none || len(s.Names) > 0 }

// Configurable is a solver with settings of its own (Descriptor.Settings
// names them).
type Configurable interface {
	Solver
	// WithSettings returns the solver with its settings read from v.
	WithSettings(v SettingValues) Solver
}

// Has reports whether name is one of the settings.
func (s Settings) Has(name string) bool { return slices.Contains(s.Names, name) }

// Descriptor is what the rest of dpso knows about a solver without running
// it. Every fact about one solver that another package reads is a field
// here, so that a new solver is its file and one line in the registry
// (Check lists what a line must state).
type Descriptor struct {
	// Solver is the solver with its default settings.
	Solver Solver
	// Legend is the solver's human name, as a figure's legend writes it
	// (internal/plot.SolverLabel adds its id): "noisy clipped AC-SA".
	Legend string
	// Class is the loss class whose theorem the solver implements, ""
	// for a baseline.
	Class theory.Class
	// Certificate is the paper's explicit-constant bound that certifies
	// its runs, or CertNone.
	Certificate Certificate
	// Settings are the solver's own settings (NoSettings: none).
	Settings Settings
	// DefaultOracle is the mean oracle the solver uses when a run names
	// none (oracle.Names). TestDescriptorsMatchSolvers checks that the
	// solver's Result.Oracle agrees.
	DefaultOracle string
	// Moments is the highest moment the prescription reads.
	Moments MomentOrder
	// Accounted: the solver's privacy is an (ε', δ) that a privacy
	// accountant gives for the whole run (dp-sgd's Poisson-subsampled
	// Gaussian steps, recorded as a ledger.Event), calibrated to the exact
	// (ε', δ) of ρ = ε²/2 at the run's δ, rather than ρ charged call by
	// call.
	Accounted bool
	// OnSchedule: a baseline that prescribes with the class's paper
	// solver's schedule at the run's own k (nonprivate-schedule), so it reads that
	// solver's moments as well as its own.
	OnSchedule bool
	// Estimator is the name outputs give the solver's gradient estimate
	// when it is not a registered oracle (dp-sgd: oracle.NoisySumName,
	// its Poisson-subsampled clipped noisy sum); "" when the solver uses
	// the run's oracle. See OracleName.
	Estimator string
	// Data is how the solver reads its dataset (see Materializes).
	// TestDescriptorsMatchSolvers checks it against what the solver does.
	Data DataAccess
	// RandomRows: the solver reads its materialized rows at random
	// (dp-sgd's Poisson batches), a cache miss a row, where the others
	// stream them; a scheduler's estimate of its time counts it
	// (internal/engine's taskCost).
	RandomRows bool
}

// Check reports what d leaves unstated: a solver, its legend name, a
// known class (or none, a baseline), its certificate (CertNone
// included; a schedule's certificate only for a baseline, which runs one)
// and its settings (NoSettings included).
func (d Descriptor) Check() error {
	if d.Solver == nil {
		return errors.New("solvers: a descriptor without a solver")
	}
	var missing []string
	if d.Legend == "" {
		missing = append(missing, "its legend name")
	}
	if d.Class != "" {
		if _, err := theory.ParseClass(string(d.Class)); err != nil {
			missing = append(missing, "a known class ("+err.Error()+")")
		}
	}
	switch {
	case d.Certificate <= CertUnstated || d.Certificate > CertScheduleLipschitz:
		missing = append(missing, "its certificate (CertNone if it has none)")
	case d.Certificate.OnSchedule() && !d.Baseline():
		missing = append(missing, "its own certificate (a paper solver runs no other's schedule)")
	}
	_, configurable := d.Solver.(Configurable)
	switch {
	case !d.Settings.Stated():
		missing = append(missing, "its settings (NoSettings if it has none)")
	case configurable != (len(d.Settings.Names) > 0):
		missing = append(missing, "settings that match its value (a Configurable solver names its settings, and only one)")
	}
	if d.DefaultOracle == "" {
		missing = append(missing, "its default oracle")
	}
	if len(missing) > 0 {
		return fmt.Errorf("solvers: the descriptor of %s lacks %s", d.Solver.Name(), strings.Join(missing, ", "))
	}
	return nil
}

// Configured is d with its solver's own settings read from v (d itself
// for a solver with none).
func (d Descriptor) Configured(v SettingValues) Descriptor {
	if c, ok := d.Solver.(Configurable); ok {
		d.Solver = c.WithSettings(v)
	}
	return d
}

// OracleName is what the solver's outputs name as its oracle in a run
// whose resolved oracle is resolved: its Estimator when it has one (the
// run's oracle is then only the clipping rule it shares), else resolved.
func (d Descriptor) OracleName(resolved string) string {
	if d.Estimator != "" {
		return d.Estimator
	}
	return resolved
}

// Materializes reports whether the solver keeps the whole dataset in
// memory when it runs on the schedule of the paper solver named schedule
// (spec.Resolved.Schedule: the class's paper solver; "" is acsa's, as in
// Config.Schedule; it matters only to a baseline whose Data is
// AsSchedule). This is the one rule that says whether a run on a
// synthetic scenario is held to the materialization cap
// (scenarios.MaxFloats); a run on user data holds the rows in memory
// whatever the solver.
func (d Descriptor) Materializes(schedule string) bool {
	switch d.Data {
	case Streams:
		return false
	case AsSchedule:
		sch, err := lookupSchedule(schedule) // "" is acsa's
		if err != nil {
			return true // unknown: the safe answer
		}
		s, ok := DescriptorOf(sch.Name())
		return !ok || s.Data != Streams
	}
	return true
}

// Name is the solver's registry name.
func (d Descriptor) Name() string { return d.Solver.Name() }

// Baseline reports whether the solver is not one of the paper's
// algorithms: a comparison runs every baseline beside the paper's solver.
func (d Descriptor) Baseline() bool { return d.Class == "" }
