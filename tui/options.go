package tui

import (
	"dpso/internal/spec"
	"dpso/internal/statestring"
	"dpso/theory"
	"dpso/tui/backend"
	"dpso/tui/presets"
	"fmt"
	"net/url"
	"time"
)

// Options configure the explorer (Run, New).
type Options struct {
	// Runner is the engine; nil means backend.Local (package
	// internal/engine in this process). An embedding may wrap it (to
	// share one CPU budget between sessions, say); tests inject a fake.
	Runner backend.Runner
	// Preset is the index in presets.All of the preset opened first.
	Preset int
	// PresetRun loads Preset and starts its action at once, as choosing
	// it in the presets list does (`dpso explore --preset`); with Start
	// set, on Start (the preset's Spec with flags over it), the caption
	// saying what was changed.
	PresetRun bool
	// Start, if set, is the Spec the explorer opens on instead of the
	// preset's (`dpso explore` with run flags); it must resolve.
	Start *spec.Spec
	// Plain drops every colour (NO_COLOR).
	Plain bool
	// Light starts with the light-background styles (before the terminal
	// answers the background query; e.g. from COLORFGBG).
	Light bool
	// Theme forces the colours: "dark", "light" or "high-contrast" (the
	// strongest colours for the terminal's background); "" follows the
	// background (`--theme`; T cycles them).
	Theme string
	// Manual starts with live mode off (a toggles it).
	Manual bool
	// LiveMax is the longest run live mode repeats by itself after a
	// change (0: 2 s); a longer run stays manual, and the status bar says
	// why (`--live-max`).
	LiveMax time.Duration
	// ExportDir is where e writes its files ("" = the current directory).
	ExportDir string
	// Screen is the screen shown first (a state string's, or dpso explore
	// --screen's); "" the chart. A preset opened with it (PresetRun) is
	// loaded on that screen, its run not started: r starts the screen's.
	Screen string
	// ShownRun is the run a state string names (statestring.State.Run:
	// r's or c's), started on Start as the explorer opens on Screen; ""
	// none.
	ShownRun string
	// Limit, if set, is applied to every Spec the form takes (the first,
	// a preset, an edit, a state string): it returns the Spec to use or
	// an error the form shows as a refusal (a *spec.SpecError names the
	// field). dpso serve sets it: secure randomness and the session caps.
	Limit func(spec.Spec) (spec.Spec, error)
	// NoExport, if set, is the sentence e answers instead of exporting
	// (an SSH session must not write the server's disk).
	NoExport string
	// Link, if set, is the address of a page that serves the explorer in a
	// browser (dpso serve --web: "http://host:port/?token=T"); y then
	// shows the link that opens what is shown, its state string in it.
	Link string

	// now is the clock (tests); nil means time.Now.
	now func() time.Time
}

// Minimum terminal size of the layout: 34 columns of parameters beside a
// 45-column chart, and 24 lines. Below it a notice replaces the layout and
// every key but q is inert.
const (
	minWidth  = 80
	minHeight = 24
)

// OpenState sets o to open st as it was copied: its Spec in the form, its
// screen shown (the chart when it names none but a preset), and its
// preset, if it names one, loaded over that Spec — caption, comparison
// and the changes since — its run waiting for r. It fails when st names
// a preset this dpso does not have.
func (o *Options) OpenState(st statestring.State) error {
	s := st.Spec.Clone()
	o.Start, o.Screen, o.ShownRun = &s, st.Screen, st.Run
	if st.Preset == "" {
		return nil
	}
	i := presets.IndexOfTitle(st.Preset)
	if i < 0 {
		return fmt.Errorf("its preset %s is not one of this dpso's presets", theory.Quote(st.Preset))
	}
	o.Preset, o.PresetRun = i, true
	if o.Screen == "" {
		o.Screen = "chart"
	}
	return nil
}

// openStateMsg is what OpenState sends: open st in the form and show its
// screen.
type openStateMsg struct{ st statestring.State }

// startPreset is what New opens and the index of its preset in presets.All
// (−1: none): presets.All[opts.Preset]; with opts.Start set, that Spec — under
// the preset's caption with opts.PresetRun (the preset with flags over
// it), else under no preset (the focus on the scenario).
func startPreset(opts Options) (presets.Preset, int) {
	switch {
	case opts.Start == nil:
		return presets.All[opts.Preset], opts.Preset
	case opts.PresetRun:
		p := presets.All[opts.Preset]
		p.Spec = opts.Start.Clone()
		return p, opts.Preset
	}
	return presets.Preset{Spec: opts.Start.Clone(), Focus: "scenario"}, -1
}

// stateLink is the page address base with state=tok added to its query.
func stateLink(base, tok string) string {
	u, err := url.Parse(base)
	if err != nil {
		return base
	}
	q := u.Query()
	q.Set("state", tok)
	u.RawQuery = q.Encode()
	return u.String()
}
