package tui

import (
	"charm.land/bubbles/v2/key"

	"dpso/internal/spec"
)

// screenKind names a screen of the right-hand column: one value per
// screen of the registry, declared in the screen's own file. A run
// belongs to the kind of the screen that draws it (job.family).
type screenKind string

// screen is a view of the right-hand column (the chart, a sweep, the
// moment profile, the audit): a component with a companion panel (the
// theorem, the slope table) drawn under it, or in the side tabs on a
// small terminal, that knows what r runs on it and how to reproduce what
// it shows. A screen that can be exported implements exporter; one with
// something to do when shown implements activator.
type screen interface {
	component
	// Panel is the companion panel and its tab title.
	Panel() (title string, c component)
	// Job is the run r starts on the screen for the form's Spec res, or
	// why there is none (a jobMaker).
	Job(res spec.Resolved) (job, string)
	// Reproduce is the reproduce line's command while the screen is
	// shown: user is the form's Spec as set (defaults left zero), res the
	// same resolved, shown the run the screen draws (nil: none).
	Reproduce(user spec.Spec, res spec.Resolved, shown *run) string
}

// screenDef is a screen's entry in the registry: its kind, its keys, where
// the help lists them, and its constructor. What the screen draws, runs,
// reproduces and exports is the screen's own (its methods).
type screenDef struct {
	kind screenKind
	// draws is the kind whose runs the screen shows ("": its own): the
	// moment profile draws no run of its own, and its r runs the chart's.
	draws screenKind
	// key shows the screen and, pressed on it, the chart again; the
	// chart, the home screen, has none (esc returns to it).
	key key.Binding
	// keys are the screen's own keys, sent to it while it is shown (the
	// audit's negative control); the help lists them after key.
	keys []key.Binding
	// short is key's word on the one-line help, at place (helpNone: the
	// full help only).
	short string
	place helpPlace
	// help is the screen's paragraph in the help ("": none beyond the
	// key's line).
	help string
	// build makes the screen; formula is the theorem panel, which the
	// chart and the moment profile share as their companion.
	build func(c common, formula *formulaPanel) screen
}

// family is the kind of the runs the screen draws.
func (d screenDef) family() screenKind {
	if d.draws != "" {
		return d.draws
	}
	return d.kind
}

// helpPlace is where the one-line help lists a screen's key: beside run
// and compare (the screens whose r runs a job of their own kind), or after
// the form's keys (the views of the form's Spec).
type helpPlace int

const (
	helpNone helpPlace = iota
	helpBesideRun
	helpAfterForm
)

// screenRegistry lists the screens of the right-hand column, in the order
// the help lists their keys; the first, the chart, is the home screen.
// Adding a screen is its file (a screenDef, the screen and its panel) and
// one line here.
var screenRegistry = []screenDef{
	chartScreenDef,
	sweepNScreenDef,
	clipScreenDef,
	momentsScreenDef,
	auditScreenDef,
	sweepEpsScreenDef,
}

// screenKeys are the help's bindings of every screen: each one's key and
// its own keys, in the registry's order.
func screenKeys() []key.Binding {
	var out []key.Binding
	for _, d := range screenRegistry {
		if d.key.Enabled() {
			out = append(out, d.key)
		}
		out = append(out, d.keys...)
	}
	return out
}

// screenShorts are the one-line help's bindings of the screens listed at
// place, each with its short word.
func screenShorts(place helpPlace) []key.Binding {
	var out []key.Binding
	for _, d := range screenRegistry {
		if d.place == place && d.short != "" {
			out = append(out, key.NewBinding(key.WithKeys(d.key.Keys()...), key.WithHelp(d.key.Help().Key, d.short)))
		}
	}
	return out
}

// screenHelp are the screens' paragraphs of the help, in the registry's
// order.
func screenHelp() []string {
	var out []string
	for _, d := range screenRegistry {
		if d.help != "" {
			out = append(out, d.help)
		}
	}
	return out
}
