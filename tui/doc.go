// Package tui is dpso's interactive explorer, a Bubble Tea (Charm v2)
// program: a parameter form over a spec.Spec, the live convergence chart
// with the levels that hold at the run's parameters (the start line, the
// certificate), the theorem, privacy and clipping panels, a comparison
// with the baselines, sweeps of n, ε, d and k with the fitted log-log
// slope beside the bounds' shapes, the clipping trade-off (a sweep of the
// clip threshold C with the noise-off curve and each C's clipped
// fraction), the moment profile, a black-box audit of the oracle's
// privacy claim (package internal/audit), what the constants cost (a
// private search beside the prescribed and the oracle-tuned runs),
// presets for teaching and demos, live mode, and export of what is shown
// (its figures, and as JSON the document `dpso run --json`, `dpso sweep
// --json`, `dpso tune --json` or `dpso audit --json` prints for it:
// package internal/report).
//
// # Entry points
//
// The package exports its entry points only. [Run] opens the explorer on
// the terminal (the dpso command without arguments, or `dpso explore`):
// it reads NO_COLOR and COLORFGBG and runs a tea.Program on the
// terminal, its input through the guard of package tui/input (no control
// sequence or unterminated paste can crash or deafen it), and closes with
// the terminal restored on SIGINT, SIGTERM, SIGHUP and SIGQUIT, returning
// a [SignalError] (its ExitCode is the shell's 128 + the signal). [New]
// builds the same root [Model] from [Options] alone, for a tea.Program
// that the caller runs on its own input and output (an SSH session's): it
// reads no environment and no terminal, and every run it starts is
// cancelled when its context is. [Options] choose the first preset
// (presets.All; presets.Index finds one by number or title) or a Spec to
// start on (Options.Start), colours, live mode and the export folder, and
// the backend.Runner (backend.Local in the program; an embedding may wrap
// it, tests inject a fake). An embedding (dpso serve) also sets the
// screen to open (Options.Screen, a state string's), a Limit applied to
// every Spec the form takes (secure noise, a session's caps: a refusal
// names the field and the cap) and NoExport; it sends [OpenPreset] and
// [OpenState], and reads [Model.State] (what a state string holds: the
// form's Spec and the screen's name; y shows its token, package
// internal/statestring, and copies it with OSC 52; [ScreenNames] are the
// names a token may give) and [Model.Typing].
//
// # Structure (soft-serve's pattern)
//
// The explorer is packages in layers; each imports only those under it
// (arch_test.go's importRules holds the rules):
//
//	tui                 the root: Model (routing, the shared state, navigation) in model.go,
//	                    a long run held behind its note (holding, showLong, onLongChoice) in longplan.go,
//	                    a preset's run held until its constants have come (presetWait) in afterconstants.go,
//	                    its state string (State, openState, showState) in state.go,
//	                    its layout in frame.go, the ring t moves the scroll keys along (ring,
//	                    nextFocus) in focus.go, Options, the entry points (program.go, embed.go)
//	tui/screens         the right-hand column's screens and their registry (screens.go)
//	tui/components/...  form, statusbar, help, presetlist, privacy, clip, theorem, tabs, header, longrun:
//	                    one component a package; none imports another, a screen or the root
//	tui/presets         the presets (data: a Spec and what to look at)
//	tui/common          the contract (Component, Screen, ScreenDef), Common (the one Styles
//	                    and KeyMap), the messages components exchange, shared helpers
//	tui/runs            the run lifecycle, the prescriber and live mode: the services
//	tui/backend         the one way into the engine: Runner (Prescribe; Run of a Call), Resolve
//	tui/chart, tui/style, tui/input   the terminal chart, the styles, the input guard
//
// Every call into the engine (and into internal/audit), and every
// spec.Spec.Resolve, is in package tui/backend; the rest of the explorer
// holds the engine's reports, never calls it. A new kind of engine call
// is a backend.Kind with its arguments and result (tui/backend) and the
// screen whose job makes it.
//
// # The component contract
//
// One root model, Model, is the only one that returns a tea.View. Every
// part of the screen is a common.Component: Update(tea.Msg) returning
// itself and a tea.Cmd, View() string (a block of exactly its size, see
// tui/style), SetSize(w, h) and its key bindings (help.KeyMap: ShortHelp,
// FullHelp); each embeds common.Common, the one style.Styles and the one
// common.KeyMap. A component reports what happened as a message returned
// by its command — common.SpecMsg (the form's Spec changed), StatusMsg,
// PresetMsg and CloseMsg (the presets list and help overlays),
// RunRequestMsg (a screen asks for its run: a sweep screen shown without
// a sweep, the audit's negative control) — never as state for the root to
// poll. The overlays' outcome is the one exception to the command:
// decided by a key alone, it is returned by the overlay's Key method and
// applied within that key's Update, so that keys sent in a burst (p, 5,
// r) act on the loaded preset, not on a list still open until a message
// came back.
//
// The root routes: a key goes to exactly one place (q quits anywhere;
// under the size notice nothing else acts; an open overlay or a value
// being typed takes every key; then the root's own keys — run, compare,
// pause, export, live —, the shown screen's own keys, the screens' keys;
// the rest is the form's). The shared state — the form's Spec (SpecMsg,
// dropped when older than one already seen), the prescription
// (runs.PrescriptionMsg), the runs (runs.Event), the screen shown
// (common.ScreenMsg), live mode (common.LiveStateMsg) — is forwarded to
// every component, in order, within the root's Update; what the
// lifecycle says about the key just pressed (runs.Notice) goes out as a
// StatusMsg. The style.Styles is built for the terminal's background
// (asked with tea.RequestBackgroundColor; COLORFGBG is the first guess)
// or the theme forced (Options.Theme, T: dark, light, high contrast;
// every text style at 4.5:1 or more against its background,
// TestContrast) and is plain, without any colour, under NO_COLOR.
//
// # Screens
//
// The right-hand column shows one screen at a time (package tui/screens):
// a common.Screen with a companion panel (the theorem, the slope table,
// the clipped fractions, the audit's tests, the search), what r runs on
// it (Job, a runs.JobMaker) and the command that reproduces what it shows
// (Reproduce, the status bar's reproduce line). Each screen has a kind
// (runs.ScreenKind: chart, sweep, clip, moments, audit, sweep-eps,
// sweep-d, sweep-k, tune; the state string's name for it) and an entry in
// the registry, screens.Registry: its common.ScreenDef (the kind of the
// runs it draws — the moment profile draws the chart's —, its key and its
// own keys, listed by the help and placed on the one-line help, a help
// paragraph, its constructor). A screen that can be exported implements
// common.Exporter; one with something to do when shown implements
// common.Activator. A job that only its screen draws (Job.LeaveCancels:
// the search) is cancelled when the screen is left. esc returns to the
// screen shown before (Model.back, a path: going to a screen on it cuts
// it back); loading a preset forgets the runs of the configuration
// before.
//
// Adding a screen is its file in tui/screens and one line in
// screens.Registry. Nothing else changes: the root shows it on its key, r
// starts its Job, live mode re-runs its runs, the status bar, the help and
// the privacy panel follow its runs (by Job.Family), the reproduce line is
// its Reproduce, e exports its Export, the help lists its keys, the state
// string names it by its kind (ScreenNames), and TestScreenRegistry
// checks it with the others.
//
// # A long run
//
// r and c start a comparison at once; the engine plans its work before
// its first trial (engine.Settings.Plan), and a plan long even at this
// build's faster measured pace (runs.Long: past runs.LongRun at
// runs.PaceLow) holds the run there (runs.HeldMsg) and opens the note
// (package tui/components/longrun): the work, its estimated duration
// between the two measured paces, labelled as an estimate with its
// source, and the keys — s runs at the largest n, two significant digits,
// whose plan fits LongRun at the slower pace (engine.FitN through a
// backend.Fitter runner, computed off the UI loop; the form takes it),
// enter runs the held run anyway, esc cancels it. dpso serve's runs are
// not held: its pool refuses a plan past its own run-time bound, naming
// the largest n whose plan fits it.
//
// Every plan reaches the run (runs.Run.Plan). While a comparison runs,
// its chart shows each solver whose trials have all finished, and says of
// the others that they run, with their trials done; where the plan reads
// 10⁸ rows or more, the chart's note names the solvers
// that read their rows two times or more a trial, with their row reads
// (a measure no machine changes), and that a smaller n reads fewer.
//
// # Layout
//
// At 100×30 and above: the form, privacy and clipping panels on the left,
// the screen and its panel on the right. Below (80×24, the common
// terminal): the screen takes the right-hand column's full height and the
// theorem, privacy and clipping panels are side tabs under the form (t).
// The theorem, the privacy panel and the help scroll (bubbles viewport,
// pgup/pgdn, j/k, the mouse wheel; a last line says how much is below
// and which keys scroll it) with their most important lines first; so
// do the sweeps', tuning and audit panels: every side panel embeds one
// common.ScrollPanel (the scroll keys as its key map, the viewport, its
// size, the cached block, and whether the keys reach it), and the theorem
// and tuning panels a common.LaidOutPanel, whose lines are laid out once
// for what it shows, not at every scroll key. Their lines wrap, never cut. The scroll keys go to the side tab shown on a small
// terminal; on a wide one to the screen's panel, or after t to the
// privacy panel (the root's focus, Model.panel); a screen whose own
// lines scroll (common.ScrollScreen: the tuning screen) is one more stop
// of t's ring (focus.go), and a panel without the keys names t on its
// last line, as many times as it takes. A loaded preset's caption takes one
// line under the header (two from 30 rows). A refusal or the typing hint
// under the form takes the rows it needs from the panels under the form
// while it is shown, down to their title rows; a refusal longer still is
// shown a page at a time, its last row naming f, which shows the next
// (form.messageArea). The one-line help keeps, in order, the keys
// that fit, then "? all keys" and "q quit". Below 80×24 a notice replaces
// the layout.
//
// A loaded preset stays the story on screen: its caption under the
// header, and the header's "preset 4 · k changed" naming what the user
// changed since; another preset replaces it. A preset's versus solvers
// make r on the chart a comparison (the first preset: the paper's solver
// beside Lipschitz DP-SGD); Options.PresetRun starts its action, as the
// list does. On user data (explore --data) the file is named with its n
// and d where a scenario would be (the form, the header, the chart's
// title, the ready status), and the privacy panel states what dpso run
// --data does: secure noise, every release on the rows composes,
// non-private diagnostics.
//
// The status bar gives the state of the run whose result the shown screen
// draws (the latest of that screen's family; the help and the privacy
// panel follow the same run, and a run going on under another screen is
// named) and its outcome in words — a refusal, a failure, solvers that
// ended above the start line (worse than doing nothing) — beside the
// state where it fits, else whole on up to four rows under the state line
// (wrapped at words: the bar takes the rows, the panels give them, and
// keeps them while a transient message stands in for the outcome); only
// a longer one is cut at a word with "(? full)" (style.Shorten), an
// outcome above w₀ in a short form that keeps its point; the help (?)
// repeats the latest outcome and status line in full. A transient error (a typed value refused, nothing to export) is
// about the key just pressed: it comes first, marked ✗, and the run after
// it as "last run: ✓ done …". The theorem panel ends with the notes `dpso
// run` prints (report.Notes: the finished run's, or before a run the
// prescription's), reached by scrolling. A comparison shows each solver's
// (ε', δ) beside its result (report.EpsDelta: the legend's tags on a wide
// chart, the privacy panel's list, which the small terminal's chart has
// no room for); the clipping panel draws dp-sgd's adaptive C over the
// steps beside the C the paper's solver is prescribed (the prescriber
// computes that prescription too, for dp-sgd with adaptive clipping).
//
// A line drawn at a height is a claim about that height. The run chart
// draws, beside the measured curves, the start line F(w₀) − F* (═, doing
// nothing) and the certificate of the form's solver at its parameters (╍,
// the paper's explicit constants: the curve must stay under it), both the
// shown run's own (never another configuration's), and a faint trace of
// the run before a change of parameters (common.Previous); no bound with
// its constants set to 1. Those are rates: the theorem panel lists their
// values labelled as rates, and the sweeps draw the paper's upper and
// lower bounds as slope guides (screens/sweepguide.go: each bound's curve
// shifted to pass through the measured points), with the fitted line and
// each point's marker and error bar (a scatter chart), the theory's slope
// beside the measured one, and a verdict on the points where the theory
// is not yet in force. The theorem panel gives the certificate's value
// and whether it is vacuous (above w₀), and explains every failed
// condition.
//
// The chart is package tui/chart (asciigraph with explicit sizes, finite
// values only, legend marks that are the plot's glyphs, so NO_COLOR keeps
// series apart; a log y axis labelled with values at decades or 1-2-5
// steps, LogTicks, written in one format per axis, common.TickLabels; on
// a scatter chart, markers, error bars and straight segments drawn on
// asciigraph's frame, canvas.go); package tui/style is the one Styles and
// the text-block helpers (Fit, Pad, Block, Wrap, Rule, Rows, Cols).
// Numbers are written by theory.Human (common.FmtNum), the one number
// formatter's preset for people.
//
// # Tests
//
// The root's tests drive the explorer with key messages and wait for the
// messages the commands deliver (pump with a condition; no clock in any
// assertion), on a deterministic fake Runner; golden screens at 80×24 and
// 132×42 are in testdata (DPSO_UPDATE_GOLDEN=1 rewrites them). A package
// below tests what it holds alone (the screens' helpers and goldens, the
// lifecycle's and the prescriber's bookkeeping, the session's ledger).
package tui
