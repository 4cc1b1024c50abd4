package tui

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"dpso/tui/components/form"
)

// formMessage is the text under the form's fields on screen (the left
// column's rows from the message's first line to the panels under it),
// its words joined by single spaces.
func formMessage(m *Model, first string) string {
	lines := strings.Split(screenText(m), "\n")
	var out []string
	for _, l := range lines[1+m.head.Rows(m.width, m.height):] {
		l = strings.TrimRight(ansi.Truncate(l, leftWidth(m.width), ""), " ")
		switch {
		case len(out) == 0 && strings.HasPrefix(l, first):
			out = append(out, l)
		case len(out) > 0 && (l == "" || strings.HasPrefix(l, "──") || strings.HasPrefix(l, " Theorem")):
			return strings.Join(strings.Fields(strings.Join(out, " ")), " ")
		case len(out) > 0:
			out = append(out, l)
		}
	}
	return strings.Join(strings.Fields(strings.Join(out, " ")), " ")
}

// TestFormMessageWhole: at 80×24 (with a preset's caption and without),
// 120×32 and 132×42, the line under the form while it is about the key
// just pressed is shown whole, taking rows from the panels under the
// form: the typing hint (? types there: "(? full)" would not work) for
// every field that takes a typed value, and a refusal (an oracle's, and
// on preset 1 a k beyond its tails, nine lines at 80 columns), shown a
// page at a time with f only where those panels are down to their
// least, every line reached. A key that clears it gives the panels their
// rows back.
func TestFormMessageWhole(t *testing.T) {
	inf := example1
	inf.Eps = math.Inf(1)
	for _, sz := range wordSizes {
		for _, preset := range []bool{false, true} {
			w, h := sz[0], sz[1]
			t.Run(fmt.Sprintf("%dx%d preset=%v", w, h, preset), func(t *testing.T) {
				m := newTestModel(t, &fakeRunner{points: 3}, &inf, w, h)
				if preset {
					pump(t, m, m.loadPreset(0, false), func() bool { return prescReady(m) })
				}
				base := screenText(m)
				for id := form.Field(0); id < form.NumFields; id++ {
					m.form.SetFocus(id)
					if m.form.Focus() != id {
						continue
					}
					m.Update(press("0"))
					if !m.form.Editing() {
						continue
					}
					hint := m.form.Message()
					if got := formMessage(m, "type a value"); got != strings.Join(strings.Fields(hint), " ") {
						t.Errorf("%s: the typing hint %q shows as %q", id.Label(), hint, got)
					}
					formKeys(t, m, "enter")
					if _, msg := m.form.Refusal(); msg != "" {
						checkRefusalShown(t, m, id.Label())
					}
					formKeys(t, m, "esc")
				}
				// A long refusal: an oracle refused for ε = ∞ (its ✗ on ε).
				m.form.SetFocus(form.Eps)
				formKeys(t, m, "i", "n", "f", "enter")
				m.form.SetFocus(form.Oracle)
				for range 10 {
					formKeys(t, m, "right")
					if _, msg := m.form.Refusal(); strings.Contains(msg, "eps:") {
						break
					}
				}
				if _, msg := m.form.Refusal(); msg == "" {
					t.Fatal("no oracle refused for ε = ∞")
				}
				checkRefusalShown(t, m, "oracle")
				if preset {
					// A longer one: a k beyond preset 1's tails (ν = 20).
					m.form.SetFocus(form.K)
					for range 10 {
						formKeys(t, m, "right")
						if _, msg := m.form.Refusal(); msg != "" {
							break
						}
					}
					if _, msg := m.form.Refusal(); !strings.Contains(msg, "infinite") {
						t.Fatalf("no k beyond the tails refused: %q", msg)
					}
					checkRefusalShown(t, m, "k")
				}
				m.form.SetFocus(form.Seed)
				m.Update(press("tab"))
				if _, msg := m.form.Refusal(); msg != "" {
					t.Fatalf("tab kept the refusal %q", msg)
				}
				if v := screenText(m); strings.Count(v, "\n") != strings.Count(base, "\n") || formMessage(m, "✗ refused") != "" {
					t.Errorf("after tab the refusal is still shown:\n%s", v)
				}
			})
		}
	}
}

// checkRefusalShown: the form's refusal is on screen whole, or a page at
// a time where the panels under the form are down to their least —
// each page's last row saying how many lines are below and that f shows
// them, every line of it shown on some page, and f going back to its
// start after its last page. field is the refusal's field, for the
// messages.
func checkRefusalShown(t *testing.T, m *Model, field string) {
	t.Helper()
	_, msg := m.form.Refusal()
	whole := strings.Join(strings.Fields("✗ refused — "+msg), " ")
	got := formMessage(m, "✗ refused")
	if got == whole {
		return
	}
	rows := func(c interface{ View() string }) int { return strings.Count(c.View(), "\n") + 1 }
	if m.compact && rows(m.side) > minSide || !m.compact && (rows(m.clip) > minClip || rows(m.privacy) > minPriv) {
		t.Errorf("%s: the refusal is cut (%q) while the panels under the form keep rows (side %d, clipping %d, privacy %d)", field, got, rows(m.side), rows(m.clip), rows(m.privacy))
	}
	more := regexp.MustCompile(`▾ f: (\d+) more lines?$`)
	var seen []string
	first := got
	for page := 0; ; page++ {
		if page > 20 {
			t.Fatalf("%s: f never reaches the refusal's end: %q", field, got)
		}
		text := strings.TrimSpace(more.ReplaceAllString(got, ""))
		text = strings.TrimSpace(strings.TrimSuffix(text, "▴ f: from its start"))
		seen = append(seen, text)
		if strings.HasSuffix(got, "▴ f: from its start") {
			break
		}
		if !more.MatchString(got) {
			t.Fatalf("%s: the refusal %q shows as %q, with no f to its rest", field, whole, got)
		}
		m.Update(press("f"))
		got = strings.Join(strings.Fields(strings.Join(strings.Split(formMessageRows(m), "\n"), " ")), " ")
	}
	if read := strings.Join(strings.Fields(strings.Join(seen, " ")), " "); read != whole {
		t.Errorf("%s: read page by page with f, the refusal reads\n%q\nnot\n%q", field, read, whole)
	}
	m.Update(press("f"))
	if again := formMessage(m, "✗ refused"); again != first {
		t.Errorf("%s: after its last page f shows %q, not its start %q", field, again, first)
	}
}

// formMessageRows is the message under the form on screen from its first
// row shown, whatever it starts with (a page of a refusal after f).
func formMessageRows(m *Model) string {
	lines := strings.Split(screenText(m), "\n")
	start := 1 + m.head.Rows(m.width, m.height) + 1 + m.form.FieldRows()
	var out []string
	for _, l := range lines[start:] {
		l = strings.TrimRight(ansi.Truncate(l, leftWidth(m.width), ""), " ")
		if l == "" || strings.HasPrefix(l, "──") || strings.HasPrefix(l, " Theorem") {
			break
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// TestRefusalFoldsTheCaption: at 80×24, with preset 6's caption unfolded
// (w), a refusal under the form folds it and takes the rows it gave: the
// refusal is shown on as many rows as the side tabs leave, not on one.
func TestRefusalFoldsTheCaption(t *testing.T) {
	m := loadedPreset(t, 5, 80, 24)
	folded := m.head.Rows(m.width, m.height)
	m.Update(press("w"))
	if m.head.Rows(m.width, m.height) <= folded {
		t.Fatalf("w does not unfold preset 6's caption at 80×24")
	}
	m.form.SetFocus(form.Assumption)
	formKeys(t, m, "right")
	if _, msg := m.form.Refusal(); msg == "" {
		t.Fatal("noncentral is not refused on preset 6")
	}
	if m.head.Unfolded() {
		t.Error("the caption stays unfolded over a refusal that needs its rows")
	}
	if got, want := m.form.MessageRoom(), min(m.form.MessageRows(leftWidth(m.width)), 3); got < want {
		t.Errorf("the refusal has %d rows, want %d", got, want)
	}
	checkRefusalShown(t, m, "assumption")
}
