package help

import (
	"fmt"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"dpso/tui/common"
	"dpso/tui/style"
)

// TestKeyColumnsNeverCutADescription: the help is where every "(? full)"
// leads, so a key's description wider than the screen wraps under itself
// instead of being cut — at 80 columns the digits' line ("type a value
// into the focused field (never loads a preset)") is wider than the
// screen. Every line of the keys fits the screen with no "…", and a
// long description alone in its column reads whole, in order, past its
// key.
func TestKeyColumnsNeverCutADescription(t *testing.T) {
	st := style.NewTheme(style.Dark, true, true)
	keys := common.DefaultKeyMap(nil)
	for _, w := range []int{40, 80, 120} {
		t.Run(fmt.Sprintf("%d columns", w), func(t *testing.T) {
			for _, l := range keyColumns(&st, keys.FullHelp(), w) {
				plain := ansi.Strip(l)
				if lipgloss.Width(plain) > w {
					t.Errorf("line wider than %d: %q", w, plain)
				}
				if strings.Contains(plain, "…") {
					t.Errorf("line cut: %q", plain)
				}
			}
			b := keys.Type
			var got []string
			for i, l := range keyColumns(&st, [][]key.Binding{{b}}, w) {
				plain := ansi.Strip(l)
				k := strings.Repeat(" ", len(b.Help().Key))
				if i == 0 {
					k = b.Help().Key
				}
				rest, ok := strings.CutPrefix(plain, k+"  ")
				if !ok {
					t.Fatalf("line %d %q does not start past the key column %q", i, plain, k)
				}
				got = append(got, strings.TrimSpace(rest))
			}
			if g := strings.Join(got, " "); g != b.Help().Desc {
				t.Errorf("description read %q, want %q", g, b.Help().Desc)
			}
		})
	}
}

// TestLoadDropsTheStatusShown: a status line is about the configuration
// it was said of; once a preset (or state) is loaded, the help drawn
// next no longer lists it — also when the help was drawn in between, so
// that nothing else marks its layout stale.
func TestLoadDropsTheStatusShown(t *testing.T) {
	st := style.NewTheme(style.Dark, true, true)
	km := common.DefaultKeyMap(nil)
	v := New(common.Common{Styles: &st, KeyMap: &km})
	v.SetSize(80, 40)
	v.Update(common.StatusMsg{Text: "refused k: an earlier preset's refusal", Err: true})
	if !strings.Contains(ansi.Strip(v.View()), "an earlier preset's refusal") {
		t.Fatal("the status line is not in the help")
	}
	v.Update(common.SpecMsg{Load: true})
	if got := ansi.Strip(v.View()); strings.Contains(got, "an earlier preset's refusal") {
		t.Errorf("the help still lists the replaced configuration's status:\n%s", got)
	}
}
