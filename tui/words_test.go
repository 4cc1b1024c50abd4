package tui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"dpso/tui/components/form"
	"dpso/tui/presets"
	"dpso/tui/style"
)

// wordSizes are the terminals every preset is read at: the common
// terminal, a projector's, and a wide one.
var wordSizes = [][2]int{{80, 24}, {120, 32}, {132, 42}}

// loadedPreset is the explorer (fake runner) at w×h with preset i loaded,
// its action run to its end and nothing left computing (loadedPresetOn).
func loadedPreset(t *testing.T, i, w, h int) *Model {
	t.Helper()
	return loadedPresetOn(t, &fakeRunner{points: 3, tuneWorkers: 1}, i, w, h)
}

// TestPresetWordsAtThreeSizes: every preset, loaded and run, at 80×24,
// 120×32 and 132×42 (its screen kept as a golden file of that size):
// nothing it says is cut without a visible way to the rest — its title
// whole on the title line; its caption shown whole or ending in the w
// marker where its folded line says something, every line of it shown
// whole on some page of w, in one page where they fit; its story in the
// presets list whole or under a scroll marker, every line reached by
// pgdn; the status and reproduce lines never cut but with "(? full)" (the
// state line's run facts dropped under "· …", the help listing them),
// the reproduce line after a flag's value —; the numbers of its caption
// are all facts (no number typed in its template); and where a text
// says something is on the chart or in the legend, the screen shows it;
// and after two fields change, the title line keeps the title whole
// (checkChangedTitle). (The form's refusals and typing hint: TestFormMessageWhole.)
func TestPresetWordsAtThreeSizes(t *testing.T) {
	for i, p := range presets.All {
		for _, sz := range wordSizes {
			w, h := sz[0], sz[1]
			t.Run(fmt.Sprintf("preset %d at %dx%d", i+1, w, h), func(t *testing.T) {
				m := loadedPreset(t, i, w, h)
				golden(t, fmt.Sprintf("preset-%d-%dx%d", i+1, w, h), m.render())
				if head := strings.Split(screenText(m), "\n")[0]; !strings.Contains(head, fmt.Sprintf("preset %d: %s  ·  p presets", i+1, p.Title)) {
					t.Errorf("the title line does not show the preset's title whole: %q", head)
				}
				checkFoldedCaption(t, m, p, w)
				checkCaptionWhole(t, m, p, w)
				checkStoryWhole(t, m, i, p)
				checkBarLines(t, m)
				checkNamedElements(t, m, p)
				checkChangedTitle(t, m, i, p)
			})
		}
	}
}

// TestCaptionNumbersAreFacts: a caption's template types no number: every
// number it shows is a placeholder's fact (a formula's digits, as in
// "1/√n", are not numbers of a run).
func TestCaptionNumbersAreFacts(t *testing.T) {
	placeholder := regexp.MustCompile(`\{[a-z][a-z0-9_]*[±%#×]?\}`)
	for _, p := range presets.All {
		for _, tt := range p.AllTemplates() {
			if !tt.Caption {
				continue
			}
			what, rest := tt.What, placeholder.ReplaceAllString(tt.Text, "")
			for _, tok := range strings.Fields(rest) {
				if strings.ContainsAny(tok, "0123456789") && !strings.ContainsAny(tok, "/^√") {
					t.Errorf("%s: its %s types %q, not a fact of its run", p.Title, what, tok)
				}
			}
		}
	}
}

// captionMarkers end a caption's last row: more to read, or the end of an
// unfolded caption.
var captionMarkers = []string{"▾ w: more", "▴ w: fold"}

// checkCaptionWhole pages through the caption with w and checks that
// every line of it is shown whole on some page, that a page that leaves
// some out says so, and that w folds it again at the end.
func checkCaptionWhole(t *testing.T, m *Model, p presets.Preset, w int) {
	t.Helper()
	want := style.Wrap(m.head.CaptionText(), w)
	seen := map[string]bool{}
	for page := 0; page < 40; page++ {
		rows := m.head.Rows(m.width, m.height)
		lines := strings.Split(screenText(m), "\n")[1 : 1+rows]
		last := strings.TrimRight(lines[len(lines)-1], " ")
		marked := false
		for _, mk := range captionMarkers {
			marked = marked || strings.HasSuffix(last, mk)
		}
		for _, l := range lines {
			l = strings.TrimRight(l, " ")
			for _, mk := range captionMarkers {
				l = strings.TrimRight(strings.TrimSuffix(l, mk), " ")
			}
			seen[l] = true
		}
		missing := 0
		for _, l := range want {
			if !seen[strings.TrimRight(l, " ")] {
				missing++
			}
		}
		if missing > 0 && !marked {
			t.Fatalf("page %d leaves %d of the caption's %d lines unseen without a marker:\n%s", page, missing, len(want), strings.Join(lines, "\n"))
		}
		if missing == 0 {
			if fits := len(want)+1 <= m.height/3; fits && page > 1 {
				t.Errorf("the caption's %d lines and its marker fit the %d rows w gives, yet take %d pages", len(want), m.height/3, page)
			}
			// Every line read: w folds it again (a page at a time).
			folded := m.head.Rows(1<<20, m.height) // one line's worth: the folded rows
			for range 40 {
				if m.head.Rows(m.width, m.height) == folded && !strings.Contains(strings.Join(strings.Split(screenText(m), "\n")[1:1+folded], "\n"), "▴ w: fold") {
					return
				}
				m.Update(press("w"))
			}
			break
		}
		m.Update(press("w"))
	}
	t.Fatal("w never folds the caption")
}

// checkFoldedCaption: the folded caption shows the caption's words in
// order from its start, and where it gives way to the more marker its
// last line says something: it fills at least half its room, and ends
// with the next step whole (no "…") or at a word with "…" — never in the
// seed label or a word or two after it ("· at…", "· at seed 0: A…").
func checkFoldedCaption(t *testing.T, m *Model, p presets.Preset, w int) {
	t.Helper()
	full := strings.Fields(m.head.CaptionText())
	lead, _, _ := strings.Cut(m.head.CaptionText(), " · at ")
	lead += " · "
	rows := m.head.Rows(m.width, m.height)
	lines := strings.Split(screenText(m), "\n")[1 : 1+rows]
	last := strings.TrimRight(lines[len(lines)-1], " ")
	body, marked := strings.CutSuffix(last, "▾ w: more")
	if !marked {
		if got := strings.Fields(strings.Join(lines, " ")); strings.Join(got, " ") != strings.Join(full, " ") {
			t.Errorf("the folded caption has no marker and is not the whole caption:\n%s", strings.Join(lines, "\n"))
		}
		return
	}
	body = strings.TrimRight(body, " ")
	if room := w - len([]rune("  ▾ w: more")); len([]rune(body)) < room/2 {
		t.Errorf("the folded caption's last line fills %d of its %d cells: %q", len([]rune(body)), room, body)
	}
	shown := strings.Fields(strings.Join(append(lines[:len(lines)-1:len(lines)-1], strings.TrimSuffix(body, "…")), " "))
	for i, word := range shown {
		if i == len(shown)-1 && strings.HasSuffix(body, "…") && strings.HasPrefix(full[i], word) {
			break // the last word shown may be one the "…" ends
		}
		if i >= len(full) || word != full[i] {
			t.Fatalf("the folded caption's word %d is %q, not the caption's %q:\n%s", i, word, full[min(i, len(full)-1)], strings.Join(lines, "\n"))
		}
	}
	if !strings.HasSuffix(body, "…") && len(shown) < len(strings.Fields(lead))-1 {
		t.Errorf("the folded caption ends inside the next step with no \"…\": %q", body)
	}
	if i := strings.Index(body, " · at"); i >= 0 && len(strings.Fields(body[i:])) <= 5 {
		t.Errorf("the folded caption ends in the seed label or a word or two after it: %q", body)
	}
}

// checkStoryWhole opens the presets list on preset i and pages its text
// with pgdn: every line of the story is shown whole, a page that leaves
// some out says how many, and the list closes again.
func checkStoryWhole(t *testing.T, m *Model, i int, p presets.Preset) {
	t.Helper()
	m.Update(press("p"))
	defer m.Update(press("esc"))
	for range 20 {
		if at, _ := m.presets.Selected(); at == i {
			break
		}
		m.Update(tea.KeyPressMsg{Code: tea.KeyDown})
	}
	text := screenText(m)
	seen := text
	for range 40 {
		if !strings.Contains(text, "more lines: pgdn") {
			break
		}
		m.Update(tea.KeyPressMsg{Code: tea.KeyPgDown})
		text = screenText(m)
		seen += "\n" + text
	}
	flat := strings.Join(strings.Fields(seen), " ")
	for _, word := range strings.Fields(p.Text()) {
		if !strings.Contains(flat, word) {
			t.Fatalf("the presets list never shows %q of the story:\n%s", word, text)
		}
	}
}

// checkBarLines: the status and reproduce lines are cut only with the
// "(? full)" marker, and the help then gives them whole; a message that
// does not fit beside the state is whole on the rows under it; the state line
// drops run facts only under its marker "· …", and the help then lists
// them all ("run: …"); a cut reproduce line ends after a flag's value
// ("--tail 20 … (? full)"), never inside a flag or between a flag and its
// value. Where the terminal has compactH rows or more, a reproduce line
// that does not fit one row wraps to a second after a flag's value, the
// first ending in " \" (the two copied are one shell command).
func checkBarLines(t *testing.T, m *Model) {
	t.Helper()
	lines := strings.Split(screenText(m), "\n")
	stateAt := m.stateRow()
	// The message's rows (where it does not fit beside the state) come
	// between the state line and the reproduce line: whole, never cut.
	reproAt := stateAt + 1
	for reproAt < len(lines)-2 && !strings.HasPrefix(lines[reproAt], "reproduce: ") && !strings.HasPrefix(lines[reproAt], "state: ") {
		reproAt++
	}
	if msg := strings.Join(lines[stateAt+1:reproAt], " "); strings.Contains(msg, "…") || strings.Contains(msg, "(? full)") {
		t.Errorf("the status message under the state line is cut: %q", msg)
	}
	reproRows := lines[reproAt : len(lines)-1]
	for _, l := range lines[stateAt : len(lines)-1] {
		// The state line's facts marker ("· …", with "(? full)" where it
		// fits) drops facts whole: the help gives them (below).
		if l := strings.Replace(l, " · …", "", 1); strings.Contains(l, "…") && !strings.Contains(l, "(? full)") {
			t.Errorf("a status line is cut without (? full): %q", l)
		}
	}
	if state := lines[stateAt]; strings.Contains(state, " · …") {
		facts := m.status.Facts()
		m.Update(press("?"))
		help := strings.Join(strings.Fields(screenText(m)), " ")
		m.Update(press("?"))
		if facts == "" || !strings.Contains(help, strings.Join(strings.Fields("run: "+facts), " ")) {
			t.Errorf("the state line %q drops facts, and the help does not give them whole (%q)", state, facts)
		}
	}
	whole := "reproduce: " + m.status.Reproduce()
	repro := strings.TrimRight(reproRows[0], " ")
	if len(reproRows) == 2 {
		if m.height < compactH {
			t.Errorf("the reproduce line takes two rows of a terminal %d high", m.height)
		}
		first, ok := strings.CutSuffix(repro, " \\")
		if !ok {
			t.Errorf("the reproduce line's first row %q does not end in a line continuation", repro)
		}
		repro = first + " " + strings.TrimSpace(reproRows[1])
	} else if m.height >= compactH && lipgloss.Width(whole) > m.width && strings.Contains(repro, "(? full)") {
		t.Errorf("the reproduce line %q is cut where the terminal has rows for a second", repro)
	}
	if shown, cut := strings.CutSuffix(repro, " … (? full)"); cut {
		if rest, ok := strings.CutPrefix(whole, shown+" "); !ok || !strings.HasPrefix(rest, "--") {
			t.Errorf("the reproduce line %q is not cut before a flag of %q", repro, whole)
		}
	} else if strings.Contains(repro, "(? full)") {
		t.Errorf("the reproduce line %q is cut elsewhere than before a flag", repro)
	} else if repro != whole {
		t.Errorf("the reproduce line reads %q, not %q", repro, whole)
	}
	if strings.Contains(repro, "(? full)") {
		m.Update(press("?"))
		help := strings.Join(strings.Fields(screenText(m)), " ")
		m.Update(press("?"))
		if !strings.Contains(help, strings.Join(strings.Fields("reproduce: "+m.status.Reproduce()), " ")) {
			t.Errorf("the help does not give the reproduce line whole: %q", m.status.Reproduce())
		}
	}
}

// checkNamedElements: a sentence of a preset's texts that says something
// is on the chart or in its legend names something the screen shows.
func checkNamedElements(t *testing.T, m *Model, p presets.Preset) {
	t.Helper()
	screen := screenText(m)
	for _, s := range strings.Split(p.Text()+" "+p.Caption(), ". ") {
		if !strings.Contains(s, "on the chart") && !strings.Contains(s, "in the legend") {
			continue
		}
		named := false
		for _, name := range []string{"w₀", "certified", "noise off", "fitted line", "shape"} {
			named = named || strings.Contains(s, name) && strings.Contains(screen, name)
		}
		if r := m.run(); r != nil {
			for _, n := range r.Names {
				named = named || strings.Contains(s, n) && strings.Contains(screen, n)
			}
		}
		if !named {
			t.Errorf("%s says %q, naming nothing the screen shows", p.Title, s)
		}
	}
}

// checkChangedTitle changes two fields of the loaded preset i (trials,
// seed) and reads the title line: it shows the preset's title whole and
// says it changed, naming the fields or, where only "changed" fits, the
// help naming them.
func checkChangedTitle(t *testing.T, m *Model, i int, p presets.Preset) {
	t.Helper()
	for _, id := range []form.Field{form.Trials, form.Seed} {
		m.form.SetFocus(id)
		formKeys(t, m, "right")
	}
	label := fmt.Sprintf("preset %d · seed, trials changed", i+1)
	if m.head.Label() != label {
		t.Fatalf("after trials and seed changed the label is %q, not %q", m.head.Label(), label)
	}
	head := strings.Split(screenText(m), "\n")[0]
	switch {
	case strings.Contains(head, label+": "+p.Title):
	case strings.Contains(head, fmt.Sprintf("preset %d · changed: %s", i+1, p.Title)):
		m.Update(press("?"))
		help := strings.Join(strings.Fields(screenText(m)), " ")
		m.Update(press("?"))
		if !strings.Contains(help, "title: "+label) {
			t.Errorf("the title line %q says only \"changed\", and the help does not name the fields", head)
		}
	default:
		t.Errorf("after a change the title line does not show the title whole: %q", head)
	}
}
