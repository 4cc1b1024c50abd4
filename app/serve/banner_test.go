package serve

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"dpso/internal/statestring"
	"dpso/tui/presets"
)

// TestBannerKeepsTheScreen: at 80 columns the broadcast banner of a
// preset's state names the screen b opens whole (the preset's title is
// shortened to make room), and a preset alone keeps its number; the
// banner is never wider than the terminal, and whole where it fits.
func TestBannerKeepsTheScreen(t *testing.T) {
	st := statestring.State{Spec: presets.All[3].Spec, Preset: presets.All[3].Title, Screen: "clip", Run: statestring.RunKey}
	what, keep := stateWhat(st)
	state := offer{what: what, title: st.Preset, keep: keep}
	pre := offer{what: `preset 4 "` + presets.All[3].Title + `"`, title: presets.All[3].Title, keep: len(`preset 4 "` + presets.All[3].Title + `"`)}
	for _, w := range []int{80, 100, 132, 400} {
		t.Run(fmt.Sprintf("%d columns", w), func(t *testing.T) {
			b := bannerText(state, w)
			if ansi.StringWidth(b) > w {
				t.Errorf("the banner is %d cells wide: %q", ansi.StringWidth(b), b)
			}
			if !strings.Contains(b, "preset 4") || !strings.Contains(b, "the clip screen with r's run") {
				t.Errorf("the banner does not name the preset and the screen b opens whole: %q", b)
			}
			if cut, ok := strings.CutSuffix(b, " …"); ok {
				// The fields are cut at a word: the last one kept is
				// whole, one of the state's own.
				f := strings.Fields(cut)
				if last := f[len(f)-1]; !slices.Contains(strings.Fields(what), last) {
					t.Errorf("the banner cuts the word %q: %q", last, b)
				}
			} else if b != bannerLead+what && !strings.HasSuffix(b, "r's run") {
				t.Errorf("the banner neither is whole nor ends in a word and \" …\": %q", b)
			}
			if w == 400 && b != bannerLead+what {
				t.Errorf("the banner is not whole where it fits: %q", b)
			}
			if b := bannerText(pre, w); !strings.Contains(b, "preset 4 \"") || ansi.StringWidth(b) > w {
				t.Errorf("a preset's banner: %q", b)
			}
		})
	}
}
