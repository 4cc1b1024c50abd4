package screens

import (
	tea "charm.land/bubbletea/v2"

	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/theory"
	"dpso/tui/common"
	"dpso/tui/runs"
	"dpso/tui/style"
)

// example1 is the paper's Example 1 at a size the tests run in seconds.
var example1 = spec.Spec{Scenario: scenarios.Example1, Class: theory.SmoothConvex, N: 10000, Trials: 3}

// testCommon is what the screens share, as the root builds it: the plain
// dark styles and the keys of the registry.
func testCommon() common.Common {
	st := style.NewTheme(style.Dark, true, true)
	km := common.DefaultKeyMap(Registry)
	return common.Common{Styles: &st, KeyMap: &km}
}

func stripANSI(s string) string { return style.StripANSI(s) }

// press is a key press as Bubble Tea v2 delivers it (a letter).
func press(s string) tea.KeyPressMsg {
	r := []rune(s)[0]
	return tea.KeyPressMsg{Code: r, Text: s}
}

// primeReachK computes the k sweep's reach on res and keeps it, as the
// screen does when the answer of reachKCmd comes.
func primeReachK(res spec.Resolved) { storeReachK(runs.RunKey(res), computeReachK(res)) }
