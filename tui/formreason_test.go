package tui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"dpso/tui/components/form"
)

// TestFieldExplanationWhole: at 80×24, 120×32 and 132×42, without a
// preset and on presets 1 and 3, every field's explanation under the form
// (reached with ↓, as a student moves through the fields) is readable
// whole on screen: shown whole in the rows the form has, or folded with
// its last row naming the key that opens it ("▾ f: whole"), f then showing
// it whole or a page at a time ("▾ f: 2 more lines"), every word of it
// read, and f folding it again at its end ("▴ f: fold it"), which gives
// the panels under the form their rows back.
func TestFieldExplanationWhole(t *testing.T) {
	more := regexp.MustCompile(`▾ f: \d+ more lines?$`)
	for _, sz := range wordSizes {
		for _, preset := range []int{-1, 0, 2} {
			w, h := sz[0], sz[1]
			t.Run(fmt.Sprintf("%dx%d preset %d", w, h, preset+1), func(t *testing.T) {
				var m *Model
				if preset < 0 {
					m = newTestModel(t, &fakeRunner{points: 3}, nil, w, h)
				} else {
					m = loadedPreset(t, preset, w, h)
				}
				m.form.SetFocus(form.Class)
				base := strings.Count(screenText(m), "\n")
				folded := 0
				for step := 0; step < int(form.NumFields); step++ {
					why := m.form.Message()
					whole := strings.Join(strings.Fields(why), " ")
					label := m.form.Focus().Label()
					got := strings.Join(strings.Fields(formMessageRows(m)), " ")
					if strings.HasSuffix(got, "▾ f: whole") {
						folded++
						m.Update(press("f"))
						got = strings.Join(strings.Fields(formMessageRows(m)), " ")
					}
					var seen []string
					for page := 0; ; page++ {
						if page > 20 {
							t.Fatalf("%s: f never reaches the explanation's end: %q", label, got)
						}
						text := strings.TrimSpace(more.ReplaceAllString(got, ""))
						text = strings.TrimSpace(strings.TrimSuffix(text, "▴ f: fold it"))
						seen = append(seen, text)
						if !more.MatchString(got) {
							break
						}
						m.Update(press("f"))
						got = strings.Join(strings.Fields(formMessageRows(m)), " ")
					}
					if read := strings.Join(strings.Fields(strings.Join(seen, " ")), " "); read != whole {
						t.Errorf("%s: the explanation on screen reads\n%q\nnot\n%q\n%s", label, read, whole, screenText(m))
					}
					if v := screenText(m); strings.Count(v, "\n") != base {
						t.Fatalf("%s: the screen has %d rows, not %d", label, strings.Count(v, "\n")+1, base+1)
					}
					m.Update(press("down"))
				}
				if folded == 0 && w == 80 {
					t.Errorf("no explanation is folded at %d×%d: the test reads nothing f opens", w, h)
				}
				// f folds an open explanation: the form's message rows go
				// back to the layout's own.
				for range 20 {
					if m.form.MessageRows(leftWidth(m.width)) == 0 {
						break
					}
					m.Update(press("f"))
				}
				if n := m.form.MessageRows(leftWidth(m.width)); n != 0 {
					t.Errorf("f does not fold the explanation: it still asks for %d rows", n)
				}
			})
		}
	}
}
