package statusbar

import (
	"testing"
	"time"

	"charm.land/bubbles/v2/key"

	"dpso/tui/common"
	"dpso/tui/style"
)

// TestKeyLineIsFittedOncePerChange: the key line a render draws is the
// one fitted afresh to the width, the keys and the theme as they are
// now, after each of them changes (the theme in place, as the root
// changes it for a new background), and a render with none of them
// changed does not fit it again (fitting renders the help once per key
// dropped: it allocates several times what reading the kept line does).
func TestKeyLineIsFittedOncePerChange(t *testing.T) {
	st := style.NewTheme(style.Dark, true, true)
	screens := common.ScreenDefs{{Key: key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "moments")), Short: "moments", Place: common.HelpBesideRun}}
	keys := common.DefaultKeyMap(screens)
	b := New(common.Common{Styles: &st, KeyMap: &keys}, time.Now, false, time.Second)
	fresh := func() string {
		c := *b
		c.keysOf = ""
		return c.keyLine()
	}
	for _, step := range []struct {
		name   string
		change func()
	}{
		{"at 80 cells", func() { b.SetSize(80, 3) }},
		{"at 132 cells", func() { b.SetSize(132, 3) }},
		{"at 40 cells", func() { b.SetSize(40, 3) }},
		{"a screen's short word changed", func() { b.SetSize(132, 3); keys.Screens[0].Short = "a longer word for the moments" }},
		{"a screen added", func() {
			keys.Screens = append(keys.Screens, common.ScreenDef{Key: key.NewBinding(key.WithKeys("g"), key.WithHelp("g", "tune")), Short: "tune", Place: common.HelpAfterForm})
		}},
		{"in colour, in place", func() { st = style.NewTheme(style.Dark, true, false) }},
		{"the light theme, in place", func() { st = style.NewTheme(style.Light, false, false) }},
	} {
		t.Run(step.name, func(t *testing.T) {
			before := b.keyLine()
			step.change()
			got, want := b.keyLine(), fresh()
			if got != want {
				t.Fatalf("key line\n%q\nwant the one fitted afresh\n%q", got, want)
			}
			if got == before {
				t.Fatalf("the key line %q did not change with %s", got, step.name)
			}
			kept := testing.AllocsPerRun(20, func() { b.keyLine() })
			fitted := testing.AllocsPerRun(20, func() { fresh() })
			if kept > fitted/2 {
				t.Errorf("an unchanged key line takes %.0f allocations, fitting it %.0f: want it kept, not fitted again", kept, fitted)
			}
		})
	}
}
