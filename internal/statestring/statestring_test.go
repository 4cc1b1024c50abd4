package statestring

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"dpso/internal/spec"
)

// explorerScreens are the explorer's screens as its registry names them
// (tui.ScreenNames; the explorer's tests check that each round-trips).
var explorerScreens = []string{"chart", "sweep", "clip", "moments", "audit", "sweep-eps", "sweep-d", "sweep-k", "tune"}

// fullSpec sets every field of the Spec's table to a value that is not
// its zero (each kind through spec.Field.Set, as a flag would), with a λ
// of 0 (a set pointer: 0 is a meaningful weight) and a scenario
// parameter, so that a lost field shows up as a difference.
func fullSpec(t *testing.T) spec.Spec {
	t.Helper()
	var s spec.Spec
	for i, f := range spec.Fields() {
		var text string
		switch f.Kind {
		case spec.String:
			text = "value-" + f.Name
		case spec.Bool:
			text = "true"
		case spec.Uint:
			text = "18446744073709551615"
		case spec.Int:
			text = "3"
		case spec.Float:
			text = []string{"0.1", "inf", "1e-300", "12345.678901234567"}[i%4]
		case spec.OptFloat:
			text = "0"
		case spec.ParamMap:
			s.Params = map[string]float64{"sigma": 0.7, "cond": 1e3}
			continue
		}
		if err := f.Set(&s, text); err != nil {
			t.Fatalf("--%s %s: %v", f.Name, text, err)
		}
	}
	return s
}

func TestRoundTripKeepsEveryFieldAndScreen(t *testing.T) {
	full := fullSpec(t)
	cases := []struct {
		name string
		st   State
	}{
		{"empty spec", State{Screen: "chart"}},
		{"preset-like", State{Spec: spec.Spec{Scenario: "linreg-t", Class: "smooth-convex", Tail: 10, K: 2, Lf: 1e6, N: 200000, Trials: 8}, Screen: "chart"}},
		{"infinite k and eps", State{Spec: spec.Spec{Scenario: "affine-hard", K: math.Inf(1), Eps: math.Inf(1)}, Screen: "moments"}},
		{"a path with spaces and &=", State{Spec: spec.Spec{Data: "my data/a&b=c ü.csv"}, Screen: "audit"}},
		{"the tuning screen on private constants", State{Spec: spec.Spec{Scenario: "linreg-t", Class: "smooth-sc", N: 10000, Constants: "private:0.2"}, Screen: "tune"}},
		{"a preset with a field changed since", State{Spec: spec.Spec{Scenario: "linreg-t", Class: "smooth-convex", Tail: 20, K: 4, Lf: 1e4, N: 1000000, Trials: 8}, Screen: "clip", Preset: "Moment clipping beats Lipschitz DP-SGD"}},
		{"a preset's chart with c's comparison drawn", State{Spec: spec.Spec{Scenario: "linreg-t", Class: "smooth-convex", Tail: 10, K: 3, N: 200000, Trials: 8}, Screen: "chart", Preset: "Heavy tails: a larger k buys a lower C and less noise", Run: CompareKey}},
		{"the chart with r's run drawn", State{Spec: spec.Spec{Scenario: "linreg-t", N: 20000}, Screen: "chart", Run: RunKey}},
	}
	for _, sc := range explorerScreens {
		cases = append(cases, struct {
			name string
			st   State
		}{"every field on " + sc, State{Spec: full, Screen: sc}})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tok := c.st.String()
			if !strings.HasPrefix(tok, "dpso3.") {
				t.Fatalf("token %q does not start with dpso3.", tok)
			}
			got, err := Parse(tok, explorerScreens)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tok, err)
			}
			if !reflect.DeepEqual(got, c.st) {
				t.Fatalf("round trip changed the state:\n got %#v\nwant %#v", got, c.st)
			}
			if again := got.String(); again != tok {
				t.Fatalf("the token of the parsed state differs: %q, first %q", again, tok)
			}
		})
	}
}

// TestTokenIsShellAndURLSafe: the token is one shell word and one URL
// path segment, so that it is pasted into ssh arguments unquoted.
func TestTokenIsShellAndURLSafe(t *testing.T) {
	tok := State{Spec: fullSpec(t), Screen: "sweep"}.String()
	for _, r := range tok {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			t.Fatalf("token %q has %q", tok, r)
		}
	}
	if spec.ShellQuote(tok) != tok {
		t.Fatalf("the shell would need the token quoted: %q", tok)
	}
}

func TestParseRefusesWithASentence(t *testing.T) {
	good := State{Spec: spec.Spec{Scenario: "linreg-t", N: 20000}, Screen: "sweep"}.String()
	flip := []byte(good)
	i := len("dpso3.") + 3
	if flip[i] == 'A' {
		flip[i] = 'B'
	} else {
		flip[i] = 'A'
	}
	cases := []struct {
		name, token, want string
	}{
		{"empty", "", "is not a dpso state string"},
		{"a reproduce line", "dpso run --scenario linreg-t", "is not a dpso state string"},
		{"no version", "dpso.abc", "is not a dpso state string"},
		{"newer format", encode(4, "screen=chart"), "format 4, written by a newer dpso"},
		{"a preset in format 1", encode(1, "screen=chart&preset=x"), "no field of this dpso"},
		{"a run in format 2", encode(2, "screen=chart&run=c"), "no field of this dpso"},
		{"a run no dpso writes", encode(3, "screen=chart&run=x"), `run is "x"; a dpso writes r (the screen's run) or c (the comparison)`},
		{"older format", encode(0, "screen=chart"), "format 0, which this dpso no longer reads"},
		{"a character changed", string(flip), "damaged"},
		{"cut short", good[:len(good)-3], "damaged"},
		{"not base64", "dpso1.!!!!", "damaged"},
		{"checksum alone", "dpso1.AAAAAAA", "damaged"},
		{"unknown field", encode(1, "screen=chart&frobnicate=3"), `sets "frobnicate", which is no field`},
		{"bad value", encode(1, "screen=chart&n=many"), "--n:"},
		{"bad parameter value", encode(1, "screen=chart&sigma=wide"), "--sigma:"},
		{"a field twice", encode(1, "screen=chart&n=2&n=3"), "2 times"},
		{"unknown screen", encode(1, "screen=galaxy"), `screen "galaxy", which this dpso does not have (it has chart, sweep, clip, moments, audit, sweep-eps, sweep-d, sweep-k, tune)`},
		{"no screen", encode(1, "n=3"), "names no screen"},
		{"too long", "dpso1." + strings.Repeat("A", MaxLen), "at most"},
		{"an inflation bomb", encode(1, "screen=chart&data="+strings.Repeat("a", 5*MaxLen)), "not written by dpso"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st, err := Parse(c.token, explorerScreens)
			if err == nil {
				t.Fatalf("Parse accepted %q as %#v", c.token, st)
			}
			var se *Error
			if !errors.As(err, &se) {
				t.Fatalf("error %v is not a *statestring.Error", err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %q does not say %q", err, c.want)
			}
			if strings.ContainsAny(err.Error(), "\n\x1b") {
				t.Fatalf("error %q is not one clean line", err)
			}
		})
	}
}

// TestFormat2StillReads: a token of format 2 (before runs were carried)
// opens as it did, its preset with it and no run.
func TestFormat2StillReads(t *testing.T) {
	want := State{Spec: spec.Spec{Scenario: "linreg-t", N: 20000}, Screen: "clip", Preset: "Moment clipping beats Lipschitz DP-SGD"}
	got, err := Parse(encode(2, want.payload()), explorerScreens)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("format 2: %+v, %v", got, err)
	}
}

// TestFormat1StillReads: a token of format 1 (before presets were carried)
// opens as it did, with no preset.
func TestFormat1StillReads(t *testing.T) {
	want := State{Spec: spec.Spec{Scenario: "linreg-t", N: 20000}, Screen: "sweep"}
	got, err := Parse(encode(1, want.payload()), explorerScreens)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("format 1: %+v, %v", got, err)
	}
}

// TestParseReadsAWrappedCopy: a token copied from a terminal that wrapped
// it (the help shows it on lines of its own, 78 cells wide at 80
// columns) — line breaks, a line's indent or trailing spaces inside it —
// reads as the token itself.
func TestParseReadsAWrappedCopy(t *testing.T) {
	st := State{Spec: spec.Spec{Scenario: "linreg-t", Class: "smooth-convex", Tail: 20, K: 4, Lf: 1e4, N: 2000000, Trials: 8}, Screen: "clip", Preset: "Moment clipping beats Lipschitz DP-SGD"}
	tok := st.String()
	for name, copied := range map[string]string{
		"line breaks":           tok[:40] + "\n" + tok[40:70] + "\r\n" + tok[70:],
		"trailing spaces":       tok[:40] + "   \n" + tok[40:],
		"an indent and a tab":   "  " + tok[:30] + "\n  " + tok[30:60] + "\t" + tok[60:] + "\n",
		"the token as it stood": tok,
	} {
		t.Run(name, func(t *testing.T) {
			got, err := Parse(copied, explorerScreens)
			if err != nil {
				t.Fatalf("Parse(%q): %v", copied, err)
			}
			if !reflect.DeepEqual(got, st) {
				t.Fatalf("got %#v, want %#v", got, st)
			}
		})
	}
}
