package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"dpso/internal/report"
	"dpso/internal/spec"
)

// Flag annotations read by the usage text (usage): the heading a flag is
// listed under, and the flags listed together on one line.
const (
	groupAnnotation    = "dpso_group"
	collapseAnnotation = "dpso_collapse"
)

// The headings of the field table's groups (spec.Group), in --help.
const (
	headingProblem   = "Problem"
	headingData      = "Your data"
	headingSolver    = "Solver"
	headingOneSolver = "One solver's settings (refused unless that solver runs)"
	headingConstant  = "Declared constants (overrides; 0: the declared value)"
	headingRunner    = "Trials, randomness and work"
	headingOutput    = "Output"
)

// fieldHeadings are the headings of the field table's groups and Output,
// in the order --help lists them (after a command's own).
var fieldHeadings = []string{headingProblem, headingData, headingSolver, headingOneSolver, headingConstant, headingRunner, headingOutput}

// scenarioParamsLine is what the scenario parameters' one line says in
// --help (each flag's own text is in the reference: docs/cli).
const scenarioParamsLine = "the scenarios' own parameters (meaning, default and range per scenario: dpso list)"

// fieldHeading is the heading a field's flag is listed under.
func fieldHeading(f spec.Field) string {
	switch {
	case f.Solver() != "":
		return headingOneSolver
	case f.Group&spec.Problem != 0:
		return headingProblem
	case f.Group&spec.Data != 0:
		return headingData
	case f.Group&spec.Solver != 0:
		return headingSolver
	case f.Group&spec.Constant != 0:
		return headingConstant
	}
	return headingRunner
}

// setFlagGroup files the named flags of fs under heading in --help.
func setFlagGroup(fs *pflag.FlagSet, heading string, names ...string) {
	for _, n := range names {
		if err := fs.SetAnnotation(n, groupAnnotation, []string{heading}); err != nil {
			panic("cli: " + err.Error()) // a flag name mistyped here: caught by every test
		}
	}
}

// usage writes a command's usage: cobra's, with the flags under the
// headings of their groups and, for a command that prints JSON, its JSON
// fields, generated from the report types (jsonFieldsText).
func usage(c *cobra.Command) error {
	w := c.OutOrStderr()
	var b strings.Builder
	b.WriteString("Usage:")
	if c.Runnable() {
		b.WriteString("\n  " + c.UseLine())
	}
	if c.HasAvailableSubCommands() {
		b.WriteString("\n  " + c.CommandPath() + " [command]")
	}
	if c.HasExample() {
		b.WriteString("\n\nExamples:\n" + c.Example)
	}
	if c.HasAvailableSubCommands() {
		b.WriteString("\n\nAvailable Commands:")
		for _, s := range c.Commands() {
			if s.IsAvailableCommand() || s.Name() == "help" {
				fmt.Fprintf(&b, "\n  %-*s %s", s.NamePadding(), s.Name(), s.Short)
			}
		}
	}
	if c.HasAvailableLocalFlags() {
		b.WriteString("\n\n" + strings.TrimRight(groupedFlagUsages(c.LocalFlags()), " \n"))
	}
	if c.HasAvailableInheritedFlags() {
		b.WriteString("\n\nGlobal Flags:\n" + strings.TrimRight(c.InheritedFlags().FlagUsages(), " \n"))
	}
	if t := jsonFieldsText(c, 1); t != "" {
		b.WriteString("\n\n" + t)
	}
	if c.HasAvailableSubCommands() {
		fmt.Fprintf(&b, "\n\nUse \"%s [command] --help\" for more information about a command.", c.CommandPath())
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// groupedFlagUsages lists fs's flags as pflag does ("Flags:" and one
// aligned line per flag) when none has a group; otherwise under their
// groups' headings — the command's own groups first, then the field
// table's (fieldHeadings) —, each group's collapsed flags on one line
// (the scenario parameters), cobra's --help last.
func groupedFlagUsages(fs *pflag.FlagSet) string {
	var flags []*pflag.Flag
	grouped := false
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden || f.Deprecated != "" {
			return
		}
		flags = append(flags, f)
		grouped = grouped || len(f.Annotations[groupAnnotation]) > 0
	})
	if !grouped {
		return "Flags:\n" + fs.FlagUsages()
	}
	// One alignment for every line that is not collapsed.
	var plain []*pflag.Flag
	for _, f := range flags {
		if len(f.Annotations[collapseAnnotation]) == 0 {
			plain = append(plain, f)
		}
	}
	lines := flagEntries(plain)
	heading := func(f *pflag.Flag) string {
		if g := f.Annotations[groupAnnotation]; len(g) > 0 {
			return g[0]
		}
		return ""
	}
	var order []string
	byGroup := map[string][]string{}
	collapsed := map[string]bool{}
	var help *pflag.Flag
	for _, f := range flags {
		h := heading(f)
		if f.Name == "help" && h == "" {
			help = f // cobra's --help joins the last group
			continue
		}
		if _, ok := byGroup[h]; !ok {
			order = append(order, h)
			byGroup[h] = nil
		}
		if c := f.Annotations[collapseAnnotation]; len(c) > 0 {
			if !collapsed[c[0]] {
				collapsed[c[0]] = true
				byGroup[h] = append(byGroup[h], collapsedLine(flags, c[0]))
			}
			continue
		}
		byGroup[h] = append(byGroup[h], lines[f.Name])
	}
	if help != nil && len(order) == 0 {
		order = append(order, "")
	}
	// A command's own headings first, in the order they appear, then the
	// field table's in a fixed order, Output last.
	rank := func(h string) int { return slices.Index(fieldHeadings, h) }
	slices.SortStableFunc(order, func(a, b string) int { return rank(a) - rank(b) })
	if help != nil {
		h := order[len(order)-1]
		byGroup[h] = append(byGroup[h], lines[help.Name])
	}
	// The headings, flush left, set the groups apart: no blank line
	// between them keeps a long command's help on one screen.
	var b strings.Builder
	for _, h := range order {
		name := h
		if name == "" {
			name = "Flags" // the flags of no group
		}
		b.WriteString(name + ":\n")
		for _, l := range byGroup[h] {
			b.WriteString(l)
		}
	}
	return b.String()
}

// flagEntries renders flags as pflag does, aligned together, and returns
// each flag's entry (its line, and the continuation lines of a usage
// that has several) by name.
func flagEntries(flags []*pflag.Flag) map[string]string {
	fs := pflag.NewFlagSet("", pflag.ContinueOnError)
	fs.SortFlags = false
	for _, f := range flags {
		fs.AddFlag(f)
	}
	out := map[string]string{}
	lines := strings.SplitAfter(fs.FlagUsages(), "\n")
	i := 0
	for _, f := range flags {
		start := "      --" + f.Name
		if f.Shorthand != "" && f.ShorthandDeprecated == "" {
			start = "  -" + f.Shorthand + ", --" + f.Name
		}
		for i < len(lines) && !entryStarts(lines[i], start) {
			i++
		}
		if i == len(lines) {
			break
		}
		entry := lines[i]
		for i++; i < len(lines) && lines[i] != "" && !strings.HasPrefix(strings.TrimLeft(lines[i], " "), "-"); i++ {
			entry += lines[i]
		}
		out[f.Name] = entry
	}
	return out
}

// entryStarts reports whether line is the first line of the flag entry
// that begins with start ("      --name" or "  -x, --name").
func entryStarts(line, start string) bool {
	rest, ok := strings.CutPrefix(line, start)
	return ok && (rest == "" || rest[0] == ' ' || rest[0] == '[' || rest[0] == '\n')
}

// collapsedLine is one line for the flags annotated with key: their names
// and type (when they share one), and what they are.
func collapsedLine(flags []*pflag.Flag, key string) string {
	var names []string
	typ := ""
	for _, f := range flags {
		if c := f.Annotations[collapseAnnotation]; len(c) > 0 && c[0] == key {
			names = append(names, "--"+f.Name)
			switch {
			case len(names) == 1:
				typ = f.Value.Type()
			case typ != f.Value.Type():
				typ = ""
			}
		}
	}
	if typ != "" {
		typ = " " + typ
	}
	return "      " + strings.Join(names, ", ") + typ + "   " + key + "\n"
}

// jsonDoc is one JSON document a command prints: when (a flag that
// selects it; "" for the command's main document), its report type, the
// keys that hold another listed document (shown by that document's name
// instead of its keys), and the keys of the type that this command never
// writes, each with the reason (paths as report.FieldPaths writes them).
type jsonDoc struct {
	when  string
	value any
	refs  map[string]jsonRef
	never map[string]string
}

// jsonRef is a key that holds another document: its name in the help, and
// its report type.
type jsonRef struct {
	name  string
	value any
}

// jsonDocs are the JSON documents of each command (by command path), the
// report types their --json prints.
var jsonDocs = map[string][]jsonDoc{
	"dpso run": {
		{value: report.RunJSON{}, never: map[string]string{
			"refused": "a comparison's run documents only: dpso run reports a refusal as an error"}},
		{when: "--solvers", value: report.ComparisonJSON{},
			refs:  map[string]jsonRef{"runs": {"each solver's run document, refused where it cannot run", report.RunJSON{}}},
			never: map[string]string{"total.planned": "a prescription's total: --dry-run, which --solvers excludes"}},
	},
	"dpso sweep": {sweepDoc, {when: "--vary a,b", value: report.GridJSON{},
		refs:  map[string]jsonRef{"sweeps": {"at each value of a, the sweep document of b", report.SweepJSON{}}},
		never: map[string]string{"total.planned": "a prescription's total: a sweep runs"}}},
	"dpso sweep merge": {sweepDoc},
	"dpso bounds": {
		{value: report.BoundsJSON{}, never: noDraws},
		{when: "--map", value: report.RateMapJSON{}, never: noDraws},
	},
	"dpso privacy": {
		{value: report.PrivacyJSON{}, never: noDraws},
		{when: "--target-eps", value: report.PrivacyTargetJSON{}, never: noDraws},
		{when: "--accountant", value: report.AccountedJSON{}, never: noDraws},
	},
	"dpso moments": {{value: report.MomentsJSON{}, never: map[string]string{"citation.rand": "the moments draw from fixed streams, not the run's randomness"}}},
	"dpso tune": {
		{value: report.TuneJSON{}, refs: map[string]jsonRef{"prescribed": {"each solver's prescribed run, dpso run's document", report.RunJSON{}}}},
		{when: "--vary", value: report.TuneSweepJSON{}, refs: map[string]jsonRef{"points": {"each n's search, dpso tune's document", report.TuneJSON{}}}},
	},
	"dpso audit": {{value: report.AuditJSON{}, never: map[string]string{"citation.data_sha256": "an audit reads no data file"}}},
	"dpso list": {{value: report.ListJSON{}, never: map[string]string{
		"citation.rand":                "the command draws nothing at random",
		"citation.data_sha256":         "the command reads no data file",
		"scenarios[].defaults[].error": "a class whose defaults need a flag: none in today's catalogue",
		"scenarios[].defaults[].flag":  "a class whose defaults need a flag: none in today's catalogue"}}},
}

// noDraws are the citation keys of a command that draws nothing at random
// and reads no data file.
var noDraws = map[string]string{"citation.rand": "the command draws nothing at random", "citation.data_sha256": "the command reads no data file"}

// sweepDoc is the document of dpso sweep --json and of its merge.
var sweepDoc = jsonDoc{value: report.SweepJSON{}, never: map[string]string{
	"total.planned": "a prescription's total: a sweep runs"}}

// jsonFieldWidth is the width the JSON fields are wrapped to.
const jsonFieldWidth = 100

// jsonFieldsText is the "JSON FIELDS" section of c's help: each document's
// keys to the given depth (0: every key; deeper keys are written {…}),
// wrapped; "" for a command that prints no JSON.
func jsonFieldsText(c *cobra.Command, depth int) string {
	docs := jsonDocs[c.CommandPath()]
	if len(docs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("JSON FIELDS (--json; null where a value is infinite or does not exist")
	if depth > 0 {
		b.WriteString("; {…}: see " + referencePage(c))
	}
	b.WriteString(")\n")
	for _, d := range docs {
		fs, err := jsonDocFields(d)
		if err != nil {
			panic("cli: " + err.Error()) // a report type that cannot be listed: caught by every test
		}
		text := report.FormatFields(fs, depth)
		if d.when != "" {
			text = "with " + d.when + ": " + text
		}
		b.WriteString(wrapList(text, "  ", jsonFieldWidth))
	}
	return strings.TrimRight(b.String(), "\n")
}

// jsonDocFields is d's key tree as help shows it: without the keys the
// command never writes, the keys of refs holding their document's name
// instead of its keys.
func jsonDocFields(d jsonDoc) ([]report.Field, error) {
	fs, err := report.FieldsOf(d.value)
	if err != nil {
		return nil, err
	}
	paths := report.FieldPaths(fs)
	for p := range d.never {
		if !slices.Contains(paths, p) {
			return nil, fmt.Errorf("%T has no JSON key %s", d.value, p)
		}
		fs = withoutField(fs, "", p)
	}
	for i, f := range fs {
		if r, ok := d.refs[f.Name]; ok {
			fs[i].Fields = []report.Field{{Name: r.name}}
		}
	}
	return fs, nil
}

// withoutField is fs without the key at path (one of
// report.FieldPaths(fs); prefix is fs's own path).
func withoutField(fs []report.Field, prefix, path string) []report.Field {
	out := slices.Clone(fs)
	for i, f := range out {
		p := prefix + f.Name
		if f.Array {
			p += "[]"
		}
		if p == path {
			return slices.Delete(out, i, i+1)
		}
		if strings.HasPrefix(path, p+".") {
			out[i].Fields = withoutField(f.Fields, p+".", path)
			return out
		}
	}
	return out
}

// wrapList wraps a comma-separated list at its ", " to width columns,
// every line indented.
func wrapList(text, indent string, width int) string {
	var b strings.Builder
	line := indent
	for _, item := range strings.SplitAfter(text, ", ") {
		if utf8.RuneCountInString(line)+utf8.RuneCountInString(strings.TrimRight(item, " ")) > width && line != indent {
			b.WriteString(strings.TrimRight(line, " ") + "\n")
			line = indent
		}
		line += item
	}
	b.WriteString(strings.TrimRight(line, " ") + "\n")
	return b.String()
}

// referencePage is the reference page of c in the repository (generated by
// GenDocs).
func referencePage(c *cobra.Command) string {
	return "docs/cli/" + strings.ReplaceAll(c.CommandPath(), " ", "_") + ".md"
}
