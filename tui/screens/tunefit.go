package screens

import (
	"fmt"

	"dpso/tui/common"
	"dpso/tui/style"
)

// fitTuneSections are the tuning screen's sections in h rows: all of
// them where they fit; else those kept first (common.KeptSections),
// whole, and a last row that says how many lines a taller terminal
// shows — at 120×32 the prescribed run's privacy line was cut at its
// bottom ("… ε' = 4.38 at δ =") and the oracle-tuned reference's "NOT
// private" was not shown, with no word. Where the kept sections leave no
// row for that line, unshown is the count, for the title's rule to say.
func fitTuneSections(st *style.Styles, secs []common.Section, w, h int) (lines []string, unshown int) {
	kept, hidden := common.KeptSections(secs, h)
	if hidden == 0 {
		return kept, 0
	}
	if kept, hidden := common.KeptSections(secs, h-1); len(kept) <= h-1 {
		return append(kept, st.Muted.Render(style.Fit(unshownText(hidden), w))), 0
	}
	return kept, hidden
}

// unshownText says how many of the screen's lines are not shown.
func unshownText(n int) string {
	return fmt.Sprintf("↓ %d more line%s: a taller terminal shows them", n, common.Plural(n))
}

// tuneBody is fitTuneSections' lines and the title rule's words: title
// and right, or, where no row is left to say how many lines are not
// shown, the short title and that count.
func tuneBody(st *style.Styles, secs []common.Section, w, h int, title, right string) ([]string, string, string) {
	lines, unshown := fitTuneSections(st, secs, w, h)
	if unshown > 0 {
		title, right = "What the constants cost", fmt.Sprintf("↓ %d more line%s: a taller terminal", unshown, common.Plural(unshown))
	}
	return lines, title, right
}
