package tui

import (
	"context"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"dpso/internal/spec"
	"dpso/internal/statestring"
	"dpso/tui/components/form"
	"dpso/tui/presets"
	"dpso/tui/runs"
	"dpso/tui/screens"
)

// TestStateStringRoundTripsEveryPresetAndScreen: on every preset and
// every screen, the state string the explorer gives opens an explorer
// (Options.OpenState, what `dpso explore --state` does) with the same
// form, the same screen, the same preset and the same reproduce line.
func TestStateStringRoundTripsEveryPresetAndScreen(t *testing.T) {
	for i, p := range presets.All {
		for _, sc := range ScreenNames() {
			t.Run(p.Title+"/"+sc, func(t *testing.T) {
				a, err := New(context.Background(), Options{Runner: &fakeRunner{points: 3}, Preset: i})
				if err != nil {
					t.Fatal(err)
				}
				a.show(a.screenIndex(runs.ScreenKind(sc)))
				if got := a.State().Screen; got != sc {
					t.Fatalf("showing %s shows %s", sc, got)
				}
				tok := a.State().String()
				st, err := statestring.Parse(tok, ScreenNames())
				if err != nil {
					t.Fatalf("Parse(%s): %v", tok, err)
				}
				opts := Options{Runner: &fakeRunner{points: 3}}
				if err := opts.OpenState(st); err != nil {
					t.Fatal(err)
				}
				b, err := New(context.Background(), opts)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(b.State(), a.State()) {
					t.Fatalf("opened state %#v, copied from %#v", b.State(), a.State())
				}
				if ra, rb := a.status.Reproduce(), b.status.Reproduce(); ra != rb {
					t.Fatalf("reproduce line %q, copied from a screen whose line is %q", rb, ra)
				}
			})
		}
	}
}

// TestOpenStateShowsItsScreen: the OpenState message (an instructor's
// offer accepted) puts the Spec in the form and shows the screen.
func TestOpenStateShowsItsScreen(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 3}, &example1, 100, 30)
	st := statestring.State{Spec: example1, Screen: string(screens.ClipKind)}
	st.Spec.N = 4000
	_, cmd := m.Update(OpenState(st))
	pump(t, m, cmd, func() bool { return prescReady(m) })
	if !reflect.DeepEqual(m.State(), st) {
		t.Fatalf("state %#v after opening %#v", m.State(), st)
	}
	if !strings.Contains(screenText(m), "dpso sweep") {
		t.Fatalf("the clipping screen's reproduce line is not shown:\n%s", screenText(m))
	}
}

// TestYShowsTheStateString: y puts the state string in place of the
// reproduce line (and in the status, which the help repeats in full) and
// asks the terminal to copy it (OSC 52).
func TestYShowsTheStateString(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 3}, &example1, 132, 42)
	_, cmd := m.Update(press("y"))
	want := m.State().String()
	if !strings.Contains(screenText(m), "state: "+want) {
		t.Fatalf("the screen does not show the state string %s:\n%s", want, screenText(m))
	}
	if !strings.Contains(m.status.Text, want) {
		t.Fatalf("the status %q does not hold the state string", m.status.Text)
	}
	var clip bool
	var walk func(tea.Cmd)
	walk = func(c tea.Cmd) {
		if c == nil {
			return
		}
		switch msg := c().(type) {
		case tea.BatchMsg:
			for _, c := range msg {
				walk(c)
			}
		default:
			if strings.Contains(strings.ToLower(reflect.TypeOf(msg).Name()), "clipboard") && strings.Contains(reflectString(msg), want) {
				clip = true
			}
		}
	}
	walk(cmd)
	if !clip {
		t.Fatal("y did not ask the terminal to copy the state string")
	}
	m.Update(press("right"))
	if strings.Contains(screenText(m), "state: ") {
		t.Fatal("the state string stays after the next key")
	}
}

// reflectString is a message's string field, whatever its name.
func reflectString(msg tea.Msg) string {
	v := reflect.ValueOf(msg)
	if v.Kind() == reflect.String {
		return v.String()
	}
	if v.Kind() == reflect.Struct {
		for i := range v.NumField() {
			if f := v.Field(i); f.Kind() == reflect.String {
				return f.String()
			}
		}
	}
	return ""
}

// TestLimitRefusesInTheForm: a Spec Options.Limit refuses is refused as
// an invalid value is, its message on the status bar; a preset it refuses
// is not loaded; what it returns is what the form holds.
func TestLimitRefusesInTheForm(t *testing.T) {
	opts := testOpts(t, &fakeRunner{points: 3}, 0)
	opts.Limit = func(s spec.Spec) (spec.Spec, error) {
		if s.Trials > 8 {
			return s, &spec.SpecError{Field: "trials", Msg: "this server caps trials at 8"}
		}
		s.Rand = "secure"
		return s, nil
	}
	m := newTestModelOpts(t, opts, nil, 132, 42)
	if m.form.Spec().Rand != "secure" {
		t.Fatalf("the form holds rand %q, not what Limit returned", m.form.Spec().Rand)
	}
	m.form.SetFocus(form.Trials) // the first preset's trials are 8
	m.Update(press("right"))
	if at, msg := m.form.Refusal(); at != form.Trials || !strings.Contains(msg, "this server caps trials at 8") {
		t.Fatalf("the cap is not stated on the trials field: %q", msg)
	}
	if m.form.Spec().Trials > 8 {
		t.Fatalf("the form took trials = %d", m.form.Spec().Trials)
	}
}

// TestNoExportSaysWhy: with Options.NoExport, e writes nothing and says
// why.
func TestNoExportSaysWhy(t *testing.T) {
	opts := testOpts(t, &fakeRunner{points: 3}, 0)
	opts.NoExport = "e exports nothing in an SSH session"
	m := newTestModelOpts(t, opts, &example1, 132, 42)
	m.Update(press("e"))
	if m.status.Text != opts.NoExport || !m.status.Err {
		t.Fatalf("status %q (error %v)", m.status.Text, m.status.Err)
	}
}

// TestScreenNamesAreTheRegistry: the names a state string may give are
// the registry's kinds, in its order, each once; the first is the home
// screen, the one a state without a screen shows.
func TestScreenNamesAreTheRegistry(t *testing.T) {
	names := ScreenNames()
	if len(names) != len(screens.Registry) {
		t.Fatalf("%d names for %d screens", len(names), len(screens.Registry))
	}
	for i, d := range screens.Registry {
		if names[i] != string(d.Kind) || slices.Index(names, names[i]) != i {
			t.Errorf("name %d is %q, the screen's kind %q (or a name given twice)", i, names[i], d.Kind)
		}
	}
	if tok := (statestring.State{}).String(); mustParse(t, tok).Screen != names[0] {
		t.Errorf("a state without a screen opens %q, not the home screen %q", mustParse(t, tok).Screen, names[0])
	}
}

func mustParse(t *testing.T, tok string) statestring.State {
	t.Helper()
	st, err := statestring.Parse(tok, ScreenNames())
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestYShowsTheLinkWhenServedToBrowsers: with Options.Link (dpso serve
// --web, a browser tab or an SSH session beside it), y shows and copies
// the page's address with the state string in its query, which opens the
// same state.
func TestYShowsTheLinkWhenServedToBrowsers(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 3}, &example1, 132, 42)
	m.opts.Link = "http://127.0.0.1:8080/?token=class-101"
	m.Update(press("y"))
	tok := m.State().String()
	want := "http://127.0.0.1:8080/?state=" + url.QueryEscape(tok) + "&token=class-101"
	if !strings.Contains(m.status.Text, want) {
		t.Fatalf("the status %q does not hold the link %s", m.status.Text, want)
	}
	// An SSH session of dpso serve --web gets the link too: the copy is
	// its terminal's or the page's to allow.
	if !strings.Contains(m.status.Text, "copied where your terminal or browser allows") {
		t.Fatalf("the status %q names only one of the two clients that show it", m.status.Text)
	}
	if !strings.Contains(screenText(m), "link: http://127.0.0.1:8080/?state=") {
		t.Fatalf("the screen does not show the link:\n%s", screenText(m))
	}
	u, err := url.Parse(want)
	if err != nil {
		t.Fatal(err)
	}
	st, err := statestring.Parse(u.Query().Get("state"), ScreenNames())
	if err != nil || !reflect.DeepEqual(st, m.State()) {
		t.Fatalf("the link's state %#v (%v), want %#v", st, err, m.State())
	}
}

// TestHelpStateStringCopies: at 80×24, where the state string is wider
// than the screen, the help (after y) shows it once, on lines of its
// own that hold nothing else, and those lines copied as a terminal copies
// them — line breaks, the padding to the screen's width — open the state
// shown (dpso explore --state reads them).
func TestHelpStateStringCopies(t *testing.T) {
	m := loadedPreset(t, 0, 80, 24)
	m.Update(press("y"))
	want := m.State()
	tok := want.String()
	m.Update(press("?"))
	lines := strings.Split(screenText(m), "\n")
	start := -1
	for i, l := range lines {
		if strings.TrimSpace(l) == "state:" {
			start = i + 1
		}
	}
	if start < 0 {
		t.Fatalf("the help has no line \"state:\":\n%s", screenText(m))
	}
	var copied []string
	for _, l := range lines[start:] {
		if !strings.HasPrefix(strings.TrimSpace(l), "dpso3.") && len(copied) == 0 || strings.ContainsAny(strings.TrimSpace(l), " (") {
			break
		}
		copied = append(copied, l)
	}
	if strings.Join(strings.Fields(strings.Join(copied, "")), "") != tok {
		t.Fatalf("the state string's lines %q are not the token %s", copied, tok)
	}
	if n := strings.Count(strings.Join(strings.Fields(screenText(m)), ""), tok[:40]); n != 1 {
		t.Errorf("the help shows the state string %d times", n)
	}
	got, err := statestring.Parse(strings.Join(copied, "\n"), ScreenNames())
	if err != nil {
		t.Fatalf("the lines copied do not open: %v", err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the lines copied open %#v, not %#v", got, want)
	}
}
