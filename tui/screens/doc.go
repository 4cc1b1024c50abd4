// Package screens is the right-hand column's screens and their registry
// (Registry, in screens.go): the convergence chart (chart.go, the home
// screen), the sweeps of n, ε, d and k (one screen type over a sweepAxis:
// sweep.go, with the shared run, activation and export of
// sweepbase.go and the slope guides of sweepguide.go; sweepn.go,
// sweepeps.go, sweepd.go and sweepk.go are the axes), the clipping sweep
// (clip.go), the moment profile (moments.go), the oracle audit
// (audit.go) and what the constants cost (tune.go, tunepanel.go).
//
// Each screen is a common.Screen: a component with a companion panel,
// the Job r runs on it (its engine call, through the run lifecycle:
// never the engine itself) and the command that reproduces what it
// shows; its file declares its kind and its common.ScreenDef. Adding a
// screen is its file and one line in Registry: the root shows it on its
// key, the status bar, help, privacy panel and state string follow it
// (TestScreenRegistry checks every entry).
package screens
