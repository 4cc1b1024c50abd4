package tui

// screenRegistry lists the screens of the right-hand column, in the order
// the help lists their keys; the first, the chart, is the home screen.
// Adding a screen is its file (a screenDef, the screen and its panel) and
// one line here; the screens' contract (screen, screenDef) is in
// component.go.
var screenRegistry = screenDefs{
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
