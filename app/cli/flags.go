package cli

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/solvers/oracle"
	"dpso/theory"
)

// specFlags binds a command's flags to a spec.Spec: one flag per field of
// spec.Fields in the command's groups, with the field's help text and its
// parsing (spec.Field.Set), plus one flag per scenario parameter of the
// catalogue. The ranges are checked once, by spec.Spec.Resolve; only an
// explicit 0 that a Spec would read as "the default" is refused where it
// is typed.
type specFlags struct {
	fs    *pflag.FlagSet
	group spec.Group
	spec  spec.Spec
}

// fieldValue is a pflag.Value for one Spec field.
type fieldValue struct {
	f spec.Field
	s *spec.Spec
}

func (v *fieldValue) String() string {
	if v.s == nil {
		return ""
	}
	return v.f.Text(v.s)
}

func (v *fieldValue) Set(text string) error { return v.f.Set(v.s, text) }

func (v *fieldValue) Type() string {
	switch v.f.Kind {
	case spec.Float, spec.OptFloat:
		return "float"
	case spec.Int:
		return "int"
	case spec.Uint:
		return "uint"
	case spec.Bool:
		return "bool"
	}
	return "string"
}

// IsBoolFlag lets a bool field be given without a value.
func (v *fieldValue) IsBoolFlag() bool { return v.f.Kind == spec.Bool }

// paramNames are the scenario parameters of the catalogue (each a flag),
// sorted, with the scenarios that have each.
func paramNames() ([]string, map[string][]string) {
	where := map[string][]string{}
	for _, in := range scenarios.List() {
		for _, p := range in.Params {
			where[p.Name] = append(where[p.Name], in.Name)
		}
	}
	names := make([]string, 0, len(where))
	for n := range where {
		names = append(names, n)
	}
	slices.Sort(names)
	return names, where
}

func addSpecFlags(fs *pflag.FlagSet, group spec.Group) *specFlags {
	sf := &specFlags{fs: fs, group: group}
	fs.SortFlags = false
	for _, f := range spec.Fields() {
		if f.Group&group == 0 {
			continue
		}
		addFieldFlag(fs, f, &sf.spec)
	}
	return sf
}

// addFieldFlag binds the flag (or, for the scenario parameters, the
// flags) of field f to s: its parsing, help text and range are the field
// table's, and --help lists it under its group's heading.
func addFieldFlag(fs *pflag.FlagSet, f spec.Field, s *spec.Spec) {
	if f.Kind == spec.ParamMap {
		names, where := paramNames()
		for _, n := range names {
			fs.Var(&paramValue{name: n, s: s}, n, paramUsage(n, where[n]))
			fs.Lookup(n).DefValue = ""
			setFlagGroup(fs, fieldHeading(f), n)
			fs.SetAnnotation(n, collapseAnnotation, []string{scenarioParamsLine})
		}
		return
	}
	fs.Var(&fieldValue{f: f, s: s}, f.Name, f.Usage())
	fl := fs.Lookup(f.Name)
	fl.DefValue = ""
	if f.Kind == spec.Bool {
		fl.NoOptDefVal = "true"
	}
	setFlagGroup(fs, fieldHeading(f), f.Name)
}

func paramUsage(name string, where []string) string {
	var meaning string
	for _, in := range scenarios.List() {
		if p, ok := in.Param(name); ok {
			meaning = p.Meaning
			break
		}
	}
	return fmt.Sprintf("scenario parameter %s: %s (%s; default and range: dpso list)", name, meaning, strings.Join(where, ", "))
}

// paramValue is the flag of one scenario parameter: any number (inf
// allowed, NaN refused); its range depends on the scenario, so Resolve
// checks it.
type paramValue struct {
	name string
	s    *spec.Spec
}

func (v *paramValue) String() string {
	if v.s == nil {
		return ""
	}
	if x, ok := v.s.Params[v.name]; ok {
		return spec.FormatArg(x)
	}
	return ""
}

func (v *paramValue) Type() string { return "float" }

func (v *paramValue) Set(s string) error {
	x, err := theory.ParseNumber(s)
	if err != nil {
		return fmt.Errorf("%s is not a number (write e.g. 0.5, 1e-3 or inf)", theory.Quote(s))
	}
	if v.s.Params == nil {
		v.s.Params = map[string]float64{}
	}
	v.s.Params[v.name] = x
	return nil
}

// Spec returns the Spec the flags describe, unresolved, and the δ of the
// (ε', δ) conversion for zCDP oracles (--delta, which the Spec carries
// too: it reaches dp-sgd's accountant through the resolved run). An
// explicit --tail 0, which a Spec would read as "the default", is refused
// here with the scenario's range.
func (sf *specFlags) Spec() (spec.Spec, float64, error) {
	s := sf.spec.Clone()
	ch := sf.fs.Changed
	if sf.group&spec.Problem != 0 && ch("tail") && s.Tail == 0 {
		return s, 0, explicitZeroTail(s)
	}
	conv := spec.DefaultConversionDelta
	if k, ok := oracle.KindOf(s.Oracle); s.Delta != 0 && !(ok && k == oracle.Shuffle) {
		conv = s.Delta
	}
	return s, conv, nil
}

// explicitZeroTail is the error for --tail 0: a Spec reads 0 as the
// scenario's default.
func explicitZeroTail(s spec.Spec) error {
	name := s.Scenario
	if s.Data != "" {
		return usageErrorf("--tail: user data has no tail parameter")
	}
	if name == "" {
		name = scenarios.DefaultScenario
	}
	in, ok := scenarios.Lookup(name)
	switch {
	case !ok:
		return usageErrorf("--scenario: unknown scenario %s (want one of %s)", theory.Quote(name), strings.Join(scenarios.ScenarioNames(), ", "))
	case in.Tail == nil:
		return usageErrorf("--tail: %s has no tail parameter", name)
	case in.Tail.Allows(0):
		return usageErrorf("--tail: %s = 0 cannot be given (a run reads 0 as the default, %s = %s); use a small positive value, e.g. 1e-9, within %s",
			in.Tail.Symbol, in.Tail.Symbol, theory.Sig6.Format(in.Tail.Default), in.Tail.Range())
	}
	return usageErrorf("--tail: %s = 0 is outside %s for %s (%s)", in.Tail.Symbol, in.Tail.Range(), name, in.Tail.Meaning)
}

// floatFlag is a float64 flag of a command outside the Spec (bounds,
// privacy) that validates its value on Set against an interval, so that a
// bad value is rejected with the allowed range in the message. "inf" (or
// "+inf", "∞") is accepted only when the interval allows +Inf.
type floatFlag struct {
	v   *float64
	iv  theory.Interval
	set bool
}

// newFloatFlag registers a validated float64 flag on fs.
func newFloatFlag(fs *pflag.FlagSet, p *float64, name string, def float64, iv theory.Interval, usage string) *floatFlag {
	*p = def
	f := &floatFlag{v: p, iv: iv}
	fs.Var(f, name, usage+" in "+iv.String())
	return f
}

func (f *floatFlag) String() string {
	if f.v == nil {
		return ""
	}
	return theory.FormatNumber(*f.v)
}

func (f *floatFlag) Type() string { return "float" }

func (f *floatFlag) Set(s string) error {
	x, err := theory.ParseNumber(s)
	if err != nil {
		return fmt.Errorf("%s is not a number in %s", theory.Quote(s), f.iv)
	}
	if !f.iv.Contains(x) {
		return fmt.Errorf("%s is outside %s", theory.Quote(s), f.iv)
	}
	*f.v, f.set = x, true
	return nil
}

// intFlag is an int flag validated against [lo, hi] on Set.
type intFlag struct {
	v      *int
	name   string
	lo, hi int
	set    bool
}

// newIntFlag registers a validated int flag on fs.
func newIntFlag(fs *pflag.FlagSet, p *int, name string, def, lo, hi int, usage string) *intFlag {
	*p = def
	f := &intFlag{v: p, name: name, lo: lo, hi: hi}
	fs.Var(f, name, usage+" in "+f.rangeText())
	return f
}

// rangeText is [lo, hi] with the bounds as counts (theory.FormatCount),
// as the field table writes its ranges.
func (f *intFlag) rangeText() string {
	return "[" + theory.FormatCount(f.lo) + ", " + theory.FormatCount(f.hi) + "]"
}

func (f *intFlag) String() string {
	if f.v == nil {
		return ""
	}
	return strconv.Itoa(*f.v)
}

func (f *intFlag) Type() string { return "int" }

func (f *intFlag) Set(s string) error {
	x, err := spec.ParseInt(s)
	if err != nil {
		return fmt.Errorf("%s is not an integer in %s", theory.Quote(s), f.rangeText())
	}
	if x < int64(f.lo) || x > int64(f.hi) {
		return fmt.Errorf("%s = %s is outside %s", f.name, theory.FormatCount(x), f.rangeText())
	}
	*f.v, f.set = int(x), true
	return nil
}

// numFlag is a float flag that only parses (any number, inf allowed, NaN
// refused): sweep's --from and --to, which the sweep checks.
type numFlag struct{ v *float64 }

func newNumFlag(fs *pflag.FlagSet, p *float64, name, usage string) {
	fs.Var(&numFlag{v: p}, name, usage)
	fs.Lookup(name).DefValue = ""
}

func (f *numFlag) String() string {
	if f.v == nil {
		return ""
	}
	return theory.FormatNumber(*f.v)
}

func (f *numFlag) Type() string { return "float" }

func (f *numFlag) Set(s string) error {
	x, err := theory.ParseNumber(s)
	if err != nil {
		return fmt.Errorf("%s is not a number (write e.g. 0.5, 1e-3 or inf)", theory.Quote(s))
	}
	*f.v = x
	return nil
}
