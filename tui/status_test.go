package tui

import (
	"dpso/tui/common"
	"dpso/tui/components/form"
	"dpso/tui/runs"
	"dpso/tui/screens"
	"fmt"
	"strings"
	"testing"
	"time"

	"charm.land/lipgloss/v2"
)

// statusLine is the status bar's first line as shown.
func statusLine(m *Model) string {
	return strings.Split(screenText(m), "\n")[m.stateRow()]
}

// statusMessage is the rows under the state line that hold a message
// too long to stand beside the state, joined with spaces ("" where the
// message is on the state line).
func statusMessage(m *Model) string {
	lines := strings.Split(screenText(m), "\n")
	var rows []string
	for _, l := range lines[m.stateRow()+1 : len(lines)-1] {
		if strings.HasPrefix(l, "reproduce: ") || strings.HasPrefix(l, "state: ") {
			break
		}
		rows = append(rows, strings.TrimSpace(l))
	}
	return strings.Join(rows, " ")
}

// TestStatusDescribesTheShownRun: after a run, a comparison and a sweep,
// going back to the chart (s again) shows the comparison, and the status
// bar, the help's outcome and the privacy panel describe it — not the
// sweep, the last job started; on the sweep screen they describe the
// sweep, on the clipping screen the clipping sweep, on the moment profile
// (whose r runs on the chart) the chart's run.
func TestStatusDescribesTheShownRun(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 5}, &example1, 132, 42)
	keyUntil(t, m, "r", func() bool { return settled(m) && m.run().Phase == runs.Done })
	keyUntil(t, m, "c", func() bool { return settled(m) && m.run().Compare && m.run().Phase == runs.Done })
	cmpID := m.run().ID
	keyUntil(t, m, "s", func() bool { return doneOf(m, screens.SweepNKind) })
	if got := statusLine(m); !strings.HasPrefix(got, "✓ done sweep") {
		t.Errorf("on the sweep screen after its sweep: %q", got)
	}
	for _, step := range []struct {
		key, want string
		id        int
	}{
		{"s", "✓ done comparison", cmpID}, // back to the chart
		{"m", "✓ done comparison", cmpID}, // the moment profile: r runs on the chart
		{"esc", "✓ done comparison", cmpID},
		{"s", "✓ done sweep", cmpID + 1},
	} {
		keyUntil(t, m, step.key, func() bool { return true })
		got := statusLine(m)
		if !strings.HasPrefix(got, step.want) || !strings.Contains(got, "run #"+itoa(step.id)) {
			t.Errorf("after %s (screen %d): status %q, want %q of run #%d", step.key, m.active, got, step.want, step.id)
		}
		if r := m.privacy.Runs.Shown(); r == nil || r.ID != step.id {
			t.Errorf("after %s: the privacy panel does not describe run #%d", step.key, step.id)
		}
	}
	// The help repeats the outcome of the run on screen: on the chart the
	// comparison's (solvers above w₀), not the sweep's (none).
	keyUntil(t, m, "s", func() bool { return m.active == 0 })
	msgs := m.help.Messages()
	if len(msgs) == 0 || !strings.HasPrefix(msgs[0].Text, "run #"+itoa(cmpID)+": ") {
		t.Errorf("the help's outcome on the chart: %+v", msgs)
	}
	// A clipping sweep, then the chart: the chart's comparison again.
	keyUntil(t, m, "x", func() bool { return doneOf(m, screens.ClipKind) })
	if got := statusLine(m); !strings.HasPrefix(got, "✓ done clipping sweep") {
		t.Errorf("on the clipping screen: %q", got)
	}
	keyUntil(t, m, "x", func() bool { return m.active == 0 })
	if got := statusLine(m); !strings.HasPrefix(got, "✓ done comparison") {
		t.Errorf("back on the chart after the clipping sweep: %q", got)
	}
}

// TestStatusCutsAtWords: at 80×24 a refusal longer than the room beside
// the state is shown whole on the rows under it, wrapped at words, never
// cut over its reason; the state stays whole, and the help (?) shows the
// sentence in full too; the form's remark after a value ("baseline") is
// not cut either.
func TestStatusCutsAtWords(t *testing.T) {
	s := example1
	s.Solver = "lipschitz-dpsgd"
	m := newTestModel(t, &fakeRunner{points: 3}, &s, 80, 24)
	m.form.SetFocus(form.Solver)
	keyUntil(t, m, "r", func() bool { return settled(m) && m.run().Phase == runs.Refused })
	full := m.run().Refusal
	line := strings.Split(screenText(m), "\n")[m.stateRow()]
	if lipgloss.Width(line) > 80 || !strings.HasPrefix(line, "✗ refused lipschitz-dpsgd") {
		t.Fatalf("state line %q", line)
	}
	// The state names the solver: the message is the reason alone, whole.
	reason := strings.TrimPrefix(full, "lipschitz-dpsgd refuses: ")
	if msg := statusMessage(m); msg != strings.Join(strings.Fields(reason), " ") || strings.Contains(line, "…") {
		t.Errorf("the status bar's refusal is not whole under the state %q: %q, want %q", line, msg, reason)
	}
	// The form's remark after a value goes whole or not at all.
	row := ""
	for _, l := range strings.Split(screenText(m), "\n") {
		if strings.Contains(l, "‹ lipschitz-dpsgd ›") {
			row = string([]rune(l)[:leftWidth(m.width)])
		}
	}
	if row == "" || strings.Contains(row, "…") {
		t.Errorf("the solver's row %q: its remark is cut mid-word, or the row is missing", row)
	}
	keyUntil(t, m, "?", func() bool { return m.overlay == m.help })
	if v := strings.Join(strings.Fields(screenText(m)), " "); !strings.Contains(v, strings.Join(strings.Fields(full), " ")) {
		t.Errorf("the help does not give the refusal in full (%q):\n%s", full, screenText(m))
	}
}

// TestAboveStartShortForm: at 80 columns, after a comparison that took
// over a second (live mode's "live: manual (run > 1 s)" takes the room),
// the outcome that solvers ended above the start line is whole on the
// rows under the state — the names, "above w₀ (the start line, …)" and
// "worse than doing nothing" — never a name cut before it says what it
// did ("lipschitz-dpsgd… (? full)").
func TestAboveStartShortForm(t *testing.T) {
	first := linregT
	for _, tc := range []struct {
		points, above int
	}{{8, 1}, {6, 2}} {
		t.Run(fmt.Sprintf("points=%d", tc.points), func(t *testing.T) {
			opts := testOpts(t, &fakeRunner{points: tc.points}, 2*time.Second) // every run takes over 1 s
			opts.Manual = false
			m := newTestModelOpts(t, opts, &first, 80, 24)
			keyUntil(t, m, "c", func() bool { return settled(m) && m.run().Phase == runs.Done && m.run().Compare })
			names, _, _ := strings.Cut(common.OutcomeOf(m.run()).Text, " above w₀")
			who := strings.Split(names, ", ")
			if len(who) != tc.above {
				t.Fatalf("points %d: %v above w₀, want %d solvers", tc.points, who, tc.above)
			}
			line := statusLine(m)
			if !strings.Contains(line, "live: manual (run 2.0 s ≥ 2.0 s)") {
				t.Fatalf("the status bar lacks the manual live label: %q", line)
			}
			want := strings.Join(strings.Fields(common.OutcomeOf(m.run()).Text), " ")
			if msg := statusMessage(m); msg != want || !strings.Contains(msg, "worse than doing nothing") {
				t.Errorf("%d above w₀: the status message %q (state %q), want %q whole", tc.above, msg, line, want)
			}
		})
	}
}

// TestTransientErrorWhole: at 80 and 132 columns, a transient error about
// the key just pressed that the line holds (e during a run: "the run is
// still going: export it when it is done") is shown whole, before the
// run's label where that fits too — not cut to leave the label room.
func TestTransientErrorWhole(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {132, 42}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			fr := &fakeRunner{points: 4, hold: make(chan struct{})}
			defer close(fr.hold)
			m := newTestModel(t, fr, &example1, sz[0], sz[1])
			keyUntil(t, m, "r", func() bool { r := m.run(); return r != nil && r.Active() })
			keyUntil(t, m, "e", func() bool { return m.status.Err })
			line := statusLine(m)
			if want := "✗ " + m.status.Text; !strings.HasPrefix(line, want) {
				t.Errorf("status %q, want the error whole first, %q", line, want)
			}
			if sz[0] > 80 && !strings.Contains(line, "● running") {
				t.Errorf("status %q: the run's label has room and is missing", line)
			}
		})
	}
}

// TestStateLineMarksDroppedFacts: the state line drops a run's facts
// whole, from the last, where they do not fit, and then ends in "· …"
// (with "(? full)" where it fits) while the help lists every fact
// ("run: …"); where they all fit there is no marker and nothing to list.
func TestStateLineMarksDroppedFacts(t *testing.T) {
	for _, tc := range []struct {
		w       int
		dropped bool
	}{{80, true}, {220, false}} {
		t.Run(fmt.Sprintf("%d columns", tc.w), func(t *testing.T) {
			m := newTestModel(t, &fakeRunner{points: 4}, &example1, tc.w, 30)
			keyUntil(t, m, "r", func() bool { return settled(m) && m.run().Phase == runs.Done })
			line := statusLine(m)
			facts := m.status.Facts()
			if marked := strings.Contains(line, " · …"); marked != tc.dropped || (facts != "") != tc.dropped {
				t.Fatalf("status %q, facts %q: want dropped facts %v", line, facts, tc.dropped)
			}
			if !tc.dropped {
				return
			}
			for _, fact := range []string{"run #1", "trials done", "evals/s"} {
				if !strings.Contains(facts, fact) {
					t.Errorf("the facts %q lack %q", facts, fact)
				}
			}
			m.Update(press("?"))
			help := strings.Join(strings.Fields(screenText(m)), " ")
			if !strings.Contains(help, strings.Join(strings.Fields("run: "+facts), " ")) {
				t.Errorf("the help does not list the facts %q:\n%s", facts, screenText(m))
			}
		})
	}
}
