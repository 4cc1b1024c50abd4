package screens

import (
	"strings"

	"charm.land/bubbles/v2/viewport"
	"charm.land/lipgloss/v2"

	"dpso/tui/common"
	"dpso/tui/style"
)

// wholeFirst are a scrolling block's lines, h rows high with its title:
// all of secs where they fit under the title; else those kept first
// (common.KeptSections) in the rows the viewport shows above the line
// that says how to scroll (h-2), whole, the rows under them blank, and
// the others after them — so that the first screen cuts no section
// mid-sentence ("… ε' = 4.38 at δ =") and scrolling shows the rest.
//
// tight reports a block whose kept sections fill every row under the
// title, none left for that line (their sections of priority 0 alone
// take them): it then says how many lines are below in the title's rule
// (tightTitle), where the last of them would have been hidden.
func wholeFirst(secs []common.Section, h int) (lines []string, tight bool) {
	all, hidden := common.KeptSections(secs, h-1)
	if hidden == 0 {
		return all, false
	}
	rows := h - 2
	if kept, _ := common.KeptSections(secs, rows); len(kept) > rows {
		rows, tight = h-1, true
	}
	ordered := common.OrderSections(secs, rows)
	kept, _ := common.KeptSections(secs, rows)
	out := append([]string(nil), kept...)
	for len(out) < rows {
		out = append(out, "")
	}
	return append(out, ordered[len(kept):]...), tight
}

// tightView renders a tight block (wholeFirst): the title's rule with
// the line that says how many lines are below and the keys that scroll
// them as its right side, and the viewport's lines in every row under
// it; ok false where that line does not fit the rule.
//
// The viewport is given every row under the title only where the line
// fits, so that the scroll keys move it by the rows it shows.
func tightView(st *style.Styles, keys *common.KeyMap, vp *viewport.Model, title string, w, h, presses int) (string, bool) {
	full := *vp
	full.SetHeight(h - 1)
	hint := strings.TrimSpace(style.StripANSI(common.ScrollHint(st, full, keys, w, presses)))
	if strings.Contains(hint, "…") || lipgloss.Width(title)+lipgloss.Width(hint)+8 > w {
		return "", false
	}
	vp.SetHeight(h - 1)
	return style.Block(style.Rule(*st, title, hint, w, false)+"\n"+vp.View(), w, h), true
}
