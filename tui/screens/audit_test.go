package screens

import (
	"context"
	"dpso/internal/audit"
	"dpso/tui/backend"
	"dpso/tui/common"
	"dpso/tui/runs"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// TestAuditScreenMessages: the audit screen reports its outcomes as
// messages — shown without an audit of the form's oracle and ε it asks for
// one (common.RunRequestMsg), n asks for the negative control, then toggles
// between the two without running again; at ε = ∞ there is nothing to
// audit, and n says so on the status bar.
func TestAuditScreenMessages(t *testing.T) {
	res := mustResolve(t, example1)
	s := newAuditScreen(testCommon())
	s.SetSize(84, 23)
	s.Update(common.SpecMsg{Spec: res})
	// A run request is compared by the job it makes on the form's Spec.
	type request struct {
		what    string
		control bool
	}
	want := func(what string, cmd tea.Cmd, msg tea.Msg) {
		t.Helper()
		var got tea.Msg
		if cmd != nil {
			got = cmd()
		}
		if rq, ok := got.(common.RunRequestMsg); ok {
			j, why := rq.Make(res)
			got = request{what: j.What + why, control: j.Control}
		}
		if got != msg {
			t.Errorf("%s: message %#v, want %#v", what, got, msg)
		}
	}
	want("Activate without an audit", s.Activate(), request{what: "audit"})
	_, cmd := s.Update(press("n"))
	want("n without a control", cmd, request{what: "audit (negative control)", control: true})

	// A finished audit and control of the form's oracle and ε.
	result := func(f float64) *audit.Result {
		r, err := audit.Oracle(context.Background(), auditConfigTrials(AuditConfig(res, f > 1), 2000))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	plain := &runs.Run{ID: 1, Job: runs.Job{Call: backend.Call{Kind: backend.Audit, AuditConfig: AuditConfig(res, false), Spec: res}, Family: AuditKind}, Phase: runs.Done, Result: backend.Result{Audit: result(1)}}
	ctl := &runs.Run{ID: 2, Job: runs.Job{Call: backend.Call{Kind: backend.Audit, AuditConfig: AuditConfig(res, true), Spec: res}, Family: AuditKind, Control: true}, Phase: runs.Done, Result: backend.Result{Audit: result(AuditControl)}}
	s.Update(runs.Event{Run: plain})
	want("Activate with a fresh audit", s.Activate(), nil)
	s.Update(runs.Event{Run: ctl})
	if !s.showCtl || s.current() != ctl || !strings.Contains(stripANSI(s.View()), "negative control: budget ×1.5") {
		t.Errorf("a finished control is not shown:\n%s", stripANSI(s.View()))
	}
	_, cmd = s.Update(press("n"))
	want("n with a control", cmd, nil)
	if s.showCtl || s.current() != plain || !strings.Contains(stripANSI(s.View()), "negative control (noise ÷ 1.5): caught") {
		t.Errorf("n did not go back to the audit, or it does not report the control:\n%s", stripANSI(s.View()))
	}
	_, cmd = s.Update(press("n"))
	want("n again", cmd, nil)
	if !s.showCtl {
		t.Error("n did not toggle back to the control")
	}
	// Another key is not the screen's.
	_, cmd = s.Update(press("x"))
	want("another key", cmd, nil)

	// ε = ∞: nothing to audit.
	inf := example1
	inf.Eps = math.Inf(1)
	ri, err := backend.Resolve(inf)
	if err != nil {
		t.Fatal(err)
	}
	s.Update(common.SpecMsg{Spec: ri})
	want("Activate at ε = ∞", s.Activate(), nil)
	_, cmd = s.Update(press("n"))
	want("n at ε = ∞", cmd, common.StatusMsg{Text: "ε = ∞: there is no privacy claim to audit", Err: true})
	if v := stripANSI(s.View()); !strings.Contains(v, "no privacy claim to audit") {
		t.Errorf("the screen at ε = ∞:\n%s", v)
	}
}

// auditConfigTrials is c with n runs per input.
func auditConfigTrials(c audit.Config, n int) audit.Config {
	c.Trials = n
	return c
}

// TestAuditPanelNumbersWhole: the thresholds table in a panel too narrow
// for its columns wraps by columns (the threshold repeated), every FPR,
// FNR and μ bound whole: a number cut with "…" would be a wrong number.
func TestAuditPanelNumbersWhole(t *testing.T) {
	res := mustResolve(t, example1)
	r, err := audit.Oracle(context.Background(), auditConfigTrials(AuditConfig(res, false), 2000))
	if err != nil {
		t.Fatal(err)
	}
	run := &runs.Run{ID: 1, Job: runs.Job{Call: backend.Call{Kind: backend.Audit, AuditConfig: AuditConfig(res, false), Spec: res}, Family: AuditKind}, Phase: runs.Done, Result: backend.Result{Audit: r}}
	for _, w := range []int{30, 34, 40, 46} {
		s := newAuditScreen(testCommon())
		s.panel.SetSize(w, 200)
		s.panel.set(run)
		view := stripANSI(s.panel.View())
		for _, l := range strings.Split(view, "\n") {
			if regexp.MustCompile(`[0-9⁰-⁹]…`).MatchString(l) {
				t.Errorf("at %d cells a number is cut: %q", w, l)
			}
		}
		for _, th := range r.Thresholds {
			for _, v := range []float64{th.FPR, th.FNR, math.Max(th.MuLower, 0)} {
				if !strings.Contains(view, " "+common.FmtNum(v)) {
					t.Errorf("at %d cells the table does not show %s whole:\n%s", w, common.FmtNum(v), view)
				}
			}
		}
	}
}

// TestAuditLegendsWhole: the two plots' legends say what their heights
// are (the outputs' share of runs per bin; the claim's trade-off curve
// and the tests' axes), so at any width they wrap, never end in "…", and
// the plot below gives up the rows they take.
func TestAuditLegendsWhole(t *testing.T) {
	res := mustResolve(t, example1)
	r, err := audit.Oracle(context.Background(), auditConfigTrials(AuditConfig(res, false), 2000))
	if err != nil {
		t.Fatal(err)
	}
	st := testCommon().Styles
	for _, w := range []int{30, 44, 80} {
		for name, block := range map[string]string{
			"histogram": histBlock(st, r, w, 10),
			"trade-off": tradeBlock(st, r, w, 10),
		} {
			t.Run(fmt.Sprintf("%s at %d cells", name, w), func(t *testing.T) {
				text := stripANSI(block)
				lines := strings.Split(text, "\n")
				if len(lines) != 10 {
					t.Errorf("%d lines, want the block's 10", len(lines))
				}
				if strings.Contains(text, "…") {
					t.Errorf("cut:\n%s", text)
				}
				joined := strings.Join(strings.Fields(text), " ")
				for _, want := range []string{"D1 (canary +): outputs, % of runs per bin", "tests (FPR →, FNR ↑)"} {
					if strings.Contains(want, "canary") == (name == "histogram") && !strings.Contains(joined, want) {
						t.Errorf("legend %q not whole:\n%s", want, text)
					}
				}
			})
		}
	}
}

// TestAuditExplanationReflows: the audit panel's text on what an audit
// proves is wrapped by its paragraphs and list items at the panel's
// width — every word kept, in order, and no line ending where the next
// line's first word of the same paragraph would still fit — where the
// text's own line breaks left lines of one word ("row", "From the") at 80
// columns' 34-cell panel.
func TestAuditExplanationReflows(t *testing.T) {
	for _, w := range []int{30, 34, 46, 60, 90} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			lines := reflow(audit.Explanation, w)
			if got, want := strings.Fields(strings.ReplaceAll(strings.Join(lines, " "), " - ", " ")), strings.Fields(strings.ReplaceAll(audit.Explanation, "- ", "")); !slices.Equal(got, want) {
				t.Fatalf("the words changed:\n%q\n%q", got, want)
			}
			for i := 0; i+1 < len(lines); i++ {
				cur, next := lines[i], lines[i+1]
				if lipgloss.Width(cur) > w {
					t.Errorf("line %q is wider than %d", cur, w)
				}
				if strings.TrimSpace(cur) == "" || strings.TrimSpace(next) == "" || strings.HasPrefix(next, "  - ") || strings.HasSuffix(cur, ":") {
					continue // the next line starts a paragraph or an item
				}
				if first := strings.Fields(next)[0]; lipgloss.Width(cur)+1+lipgloss.Width(first) <= w {
					t.Errorf("line %q ends where %q would still fit (width %d)", cur, first, w)
				}
			}
		})
	}
}
