package solvers

import (
	"fmt"
	"slices"
	"sync"

	"dpso/solvers/oracle"
	"dpso/theory"
)

// builtins lists the solvers in display order: the paper's algorithms (one
// per class), then the baselines. Adding a solver is its file and one line
// here. They are registered (Register: every entry checked) before any
// lookup.
var builtins = []Descriptor{
	{Solver: ACSA{}, Legend: "noisy clipped AC-SA", Class: theory.SmoothConvex, Certificate: CertACSA, Settings: NoSettings,
		DefaultOracle: "clip-gaussian", Moments: MomentK, Data: Streams},
	{Solver: ClippedSGD{}, Legend: "noisy clipped SGD", Class: theory.SmoothSC, Certificate: CertSCSGD, Settings: NoSettings,
		DefaultOracle: "clip-gaussian", Moments: MomentK, Data: Streams},
	{Solver: Localized{}, Legend: "localized noisy clipped subgradient", Class: theory.NonsmoothConvex, Certificate: CertLocalized, Settings: NoSettings,
		DefaultOracle: "clip-gaussian", Moments: Moment2K, Data: Materializes},
	{Solver: LocalizedSC{}, Legend: "localized method, strongly convex reduction", Class: theory.NonsmoothSC, Certificate: CertLocalizedSC, Settings: NoSettings,
		DefaultOracle: "clip-gaussian", Moments: Moment2K, Data: Materializes},
	{Solver: ProxSGD{}, Legend: "noisy clipped proximal SGD", Class: theory.PPL, Certificate: CertProxPL, Settings: NoSettings,
		DefaultOracle: "clip-gaussian", Moments: MomentK, Data: Streams},
	{Solver: SGD{}, Legend: "the paper solver's schedule without clipping or noise (non-private)", Certificate: CertSchedule, Settings: NoSettings,
		DefaultOracle: "clip-gaussian", Moments: MomentK, OnSchedule: true, Data: AsSchedule},
	{Solver: LipschitzDPSGD{}, Legend: "DP-SGD calibrated to L_f (prior practice)", Certificate: CertScheduleLipschitz, Settings: NoSettings,
		DefaultOracle: "clip-gaussian", Moments: MomentK, Data: AsSchedule},
	{Solver: KLZGD{}, Legend: "Kamath–Liu–Zhang noisy GD (prior)", Certificate: CertNone, Settings: klzSettings,
		DefaultOracle: "coordinate", Moments: MomentK, Data: Materializes},
	{Solver: DPSGD{}, Legend: "DP-SGD with Poisson subsampling", Certificate: CertNone, Settings: dpsgdSettings,
		DefaultOracle: "clip-gaussian", Moments: MomentK, Accounted: true, Estimator: oracle.NoisySumName, Data: Materializes, RandomRows: true},
}

// registry is every registered solver in display order: the builtins,
// then the tests' own.
var registry []Descriptor

func init() {
	for _, d := range builtins {
		Register(d)
	}
}

// registryMu guards registry against Register racing with lookups (tests
// register their own solvers from init functions and may run in parallel).
var registryMu sync.RWMutex

// Register adds a solver after those registered before it: the builtins
// (at initialization), then the tests' own. It panics on a descriptor
// that Check refuses, a duplicate name or a paper class that already has
// its solver: all are programming errors.
func Register(d Descriptor) {
	if err := d.Check(); err != nil {
		panic(err.Error())
	}
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

// SettingOwner is the name of the first registered solver (in display
// order) whose settings include the setting name, "" when none has it.
func SettingOwner(name string) string {
	registryMu.RLock()
	defer registryMu.RUnlock()
	for _, d := range registry {
		if d.Settings.Has(name) {
			return d.Name()
		}
	}
	return ""
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

// PaperSolver returns the paper's algorithm for class, the default solver
// of a run of that class.
func PaperSolver(class theory.Class) (Descriptor, bool) {
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
