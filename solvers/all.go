package solvers

import (
	"fmt"
	"slices"
	"sync"

	"dpso/solvers/oracle"
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

// Descriptor is what the rest of dpso knows about a solver without running
// it: the facts that used to be scattered over the runner, the CLI and the
// explorer.
type Descriptor struct {
	Solver Solver
	// Class is the name of the loss class (theory.Class's value, e.g.
	// "smooth-convex") whose theorem the solver implements, "" for a
	// baseline. This package imports nothing of dpso's, so it is a string;
	// the internal/spec package checks that every Class parses.
	Class string
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
// Config.Schedule; it matters only to a baseline whose Data is AsSchedule). This is the one rule that says
// whether a run on a synthetic scenario is held to the materialization
// cap (scenarios.MaxFloats); a run on user data holds the rows in memory
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

// registry lists the solvers in display order: the paper's algorithms (one
// per class), then the baselines. Adding a solver is one line here.
var registry = []Descriptor{
	{Solver: ACSA{}, Class: "smooth-convex", DefaultOracle: "clip-gaussian", Moments: MomentK, Data: Streams},
	{Solver: ClippedSGD{}, Class: "smooth-sc", DefaultOracle: "clip-gaussian", Moments: MomentK, Data: Streams},
	{Solver: Localized{}, Class: "nonsmooth-convex", DefaultOracle: "clip-gaussian", Moments: Moment2K, Data: Materializes},
	{Solver: LocalizedSC{}, Class: "nonsmooth-sc", DefaultOracle: "clip-gaussian", Moments: Moment2K, Data: Materializes},
	{Solver: ProxSGD{}, Class: "ppl", DefaultOracle: "clip-gaussian", Moments: MomentK, Data: Streams},
	{Solver: SGD{}, DefaultOracle: "clip-gaussian", Moments: MomentK, OnSchedule: true, Data: AsSchedule},
	{Solver: LipschitzDPSGD{}, DefaultOracle: "clip-gaussian", Moments: MomentK, Data: AsSchedule},
	{Solver: KLZGD{}, DefaultOracle: "coordinate", Moments: MomentK, Data: Materializes},
	{Solver: DPSGD{}, DefaultOracle: "clip-gaussian", Moments: MomentK, Accounted: true, Estimator: oracle.NoisySumName, Data: Materializes},
}

// registryMu guards registry against Register racing with lookups (tests
// register their own solvers from init functions and may run in parallel).
var registryMu sync.RWMutex

// Register adds a solver after the built-in ones (tests use it for their
// own solvers). It panics on a duplicate name or a paper class that
// already has its solver: both are programming errors.
func Register(d Descriptor) {
	registryMu.Lock()
	defer registryMu.Unlock()
	for _, r := range registry {
		if r.Name() == d.Name() {
			panic("solvers: duplicate registration of " + d.Name())
		}
		if d.Class != "" && r.Class == d.Class {
			panic(fmt.Sprintf("solvers: class %s already has its paper solver %s", d.Class, r.Name()))
		}
	}
	registry = append(registry, d)
}

// Descriptors lists every registered solver in display order.
func Descriptors() []Descriptor {
	registryMu.RLock()
	defer registryMu.RUnlock()
	return slices.Clone(registry)
}

// Names lists the registered solvers in display order.
func Names() []string {
	ds := Descriptors()
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.Name()
	}
	return out
}

// aliases are former names that still name a solver: "sgd" is
// "nonprivate-schedule" (the run of a paper solver's schedule without
// clipping or noise, which its old name called a non-private floor though
// it moves with ε).
var aliases = map[string]string{"sgd": NonPrivateScheduleName}

// Canonical is the registry name of name: its solver's name when name is
// a former name (aliases), name itself otherwise; renamed reports whether
// it was a former name.
func Canonical(name string) (canonical string, renamed bool) {
	if c, ok := aliases[name]; ok {
		return c, true
	}
	return name, false
}

// DescriptorOf returns the registered solver with this name (or former
// name: see Canonical).
func DescriptorOf(name string) (Descriptor, bool) {
	name, _ = Canonical(name)
	registryMu.RLock()
	defer registryMu.RUnlock()
	for _, d := range registry {
		if d.Name() == name {
			return d, true
		}
	}
	return Descriptor{}, false
}

// Lookup returns the registered solver with this name.
func Lookup(name string) (Solver, bool) {
	d, ok := DescriptorOf(name)
	return d.Solver, ok
}

// PaperSolver returns the paper's algorithm for the class named class
// (theory.Class's value), the default solver of a run of that class.
func PaperSolver(class string) (Descriptor, bool) {
	registryMu.RLock()
	defer registryMu.RUnlock()
	for _, d := range registry {
		if d.Class != "" && d.Class == class {
			return d, true
		}
	}
	return Descriptor{}, false
}

// Baselines lists the baselines in display order.
func Baselines() []Descriptor {
	var out []Descriptor
	for _, d := range Descriptors() {
		if d.Baseline() {
			out = append(out, d)
		}
	}
	return out
}
