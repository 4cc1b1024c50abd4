package screens

import "dpso/tui/common"

// Registry lists the screens of the right-hand column, in the order the
// help lists their keys; the first, the chart, is the home screen.
// Adding a screen is its file (its kind, its common.ScreenDef, the screen
// and its panel) and one line here; the screens' contract (common.Screen,
// common.ScreenDef) is in package tui/common. The explorer's state string
// names a screen by its kind (tui.ScreenNames).
var Registry = common.ScreenDefs{
	chartScreenDef,
	sweepNScreenDef,
	clipScreenDef,
	momentsScreenDef,
	auditScreenDef,
	sweepEpsScreenDef,
	sweepDScreenDef,
	sweepKScreenDef,
	tuneScreenDef,
}
