// Package tui is dpso's interactive explorer, a Bubble Tea (Charm v2)
// program: a parameter form over a spec.Spec, the live convergence chart
// with the levels that hold at the run's parameters (the start line, the
// certificate), the theorem, privacy and clipping panels, a comparison
// with the baselines, sweeps of n, ε, d and k with the fitted log-log
// slope beside the bounds' shapes, the clipping trade-off (a sweep of the clip threshold C
// with the noise-off curve and each C's clipped fraction), the moment
// profile, a black-box audit of the oracle's privacy claim (package
// internal/audit), presets for teaching and demos, live
// mode, and export of what is shown (its figures, and as JSON the document
// `dpso run --json`, `dpso sweep --json` or `dpso audit --json` prints for
// it: package internal/report).
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
// builds the same root [Model] from [Options] alone, for
// a tea.Program that the caller runs on its own input and output (an SSH
// session's): it reads no environment and no terminal, and every run it
// starts is cancelled when its context is. [Options] choose the first
// [Presets] entry or a Spec to start on (Options.Start; [PresetIndex]
// finds a preset by number or title), colours, live mode and the export
// folder, and the backend.Runner (backend.Local in the program; an
// embedding may wrap it, tests inject a fake). An embedding (dpso serve) also sets the
// screen to open (Options.Screen, a state string's), a Limit applied to
// every Spec the form takes (secure noise, a session's caps: a refusal
// names the field and the cap) and NoExport; it sends [OpenPreset] and
// [OpenState], and reads [Model.State] (what a state string holds: the
// form's Spec and the screen's kind; y shows its token, package
// internal/state, and copies it with OSC 52) and [Model.Typing].
//
// # The component contract (soft-serve's pattern)
//
// One root model, Model, is the only one that returns a tea.View. Every part of
// the screen is a component: Update(tea.Msg) returning itself and a
// tea.Cmd, View() string (a block of exactly its size, see tui/style),
// SetSize(w, h) and its key bindings (help.KeyMap: ShortHelp, FullHelp).
// A component reports what happened as a message returned by its command
// — specMsg (the form's Spec changed), statusMsg, presetMsg and closeMsg
// (the presets list and help overlays), runRequestMsg (a screen asks for
// its run: a sweep screen shown without a sweep, the audit's negative
// control) — never as state for the root to poll. The overlays' outcome
// is the one exception to the command: decided by a key alone, it is
// returned by the overlay's key method and applied within that key's
// Update, so that keys sent in a burst (p, 5, r) act on the loaded
// preset, not on a list still open until a message came back.
//
// The root routes: a key goes to exactly one place (q quits anywhere;
// under the size notice nothing else acts; an open overlay or a value
// being typed takes every key; then the root's own keys — run, compare,
// pause, export, live —, the shown screen's own keys, the screens' keys;
// the rest is the form's). The shared state — the form's Spec (specMsg,
// dropped when older than one already seen), the prescription
// (prescriptionMsg), the runs (runEvent), the screen shown (screenMsg),
// live mode (liveStateMsg) — is forwarded to every component, in order,
// within the root's Update. One keyMap holds the root's and the form's
// keys; one style.Styles (tui/style) is built for the terminal's
// background (asked with tea.RequestBackgroundColor; COLORFGBG is the
// first guess) or the theme forced (Options.Theme, T: dark, light, high
// contrast; every text style at 4.5:1 or more against its background,
// TestContrast) and is plain, without any colour, under NO_COLOR.
//
// # Screens
//
// The right-hand column shows one screen at a time: a component with a
// companion panel (the theorem, the slope table, the clipped fractions,
// the audit's tests) that knows what r runs on it (Job, a jobMaker) and
// the command that reproduces what it shows (Reproduce, the status bar's
// reproduce line). Each screen has a kind (screenKind: chart, sweep,
// clip, moments, audit, sweep-eps, sweep-d, sweep-k, tune) and an entry in the registry,
// screenRegistry in screens.go (the contract, screen and screenDef, is in
// component.go): its kind, the kind of the runs it draws (the moment
// profile draws the chart's), its key and its own keys (listed by the
// help from the registry, and where the one-line help puts them), a help
// paragraph, and its constructor. A screen that can be
// exported implements Export (exporter); one with something to do when
// shown implements Activate (activator). The sweeps over a parameter's
// rate (n, ε, d; k, a trade-off with no power law to fit, marks its axis
// tradeOff) are one screen type over a sweepAxis (the grid, the words,
// the command); every sweep screen shares its run, activation and export
// (sweepBase) and its panel's frame (sweepPanel). The tuning screen
// (tune.go, g) runs what `dpso tune` runs for the form (engine.Tune: the
// prescribed run, a private search whose whole cost is inside ε, and the
// non-private oracle-tuned reference) and draws the three as bars on one
// log axis beside w₀, with what each is; its panel lists the search's
// candidates and scores as the non-private diagnostics they are. A job
// that only its screen draws (job.leaveCancels: the search) is cancelled
// when the screen is left. esc returns to the
// screen shown before (Model.back, a path: going to a screen on it cuts
// it back); loading a preset forgets the runs of the configuration before.
//
// Adding a screen is one file and one line: the file declares its kind,
// its screenDef and the screen (its Job, Reproduce, View, panel, and
// Export if e exports it); the line adds the screenDef to screenRegistry.
// Nothing else changes: the root shows it on its key, r starts its Job,
// live mode re-runs its runs, the status bar, the help and the privacy
// panel follow its runs (by job.family), the reproduce line is its
// Reproduce, e exports its Export, the help lists its keys, and
// TestScreenRegistry checks it with the others. A sweep of the rate in
// another parameter is a sweepAxis and a screenDef (sweepeps.go, the
// sweep over ε that `dpso sweep --vary eps` runs, is the model); a sweep
// of the privacy budget itself marks its axis budget, so that the privacy
// panel holds each point's ledger to that point's budget.
//
// # Two services: runs and prescriptions
//
// The run lifecycle (runs.go) is apart from the root and draws nothing:
// it starts a job — engine.Compare on the form's spec.Resolved (one
// solver, or the paper's solver and every baseline of the solvers'
// registry on the same draws), engine.Sweep, engine.Tune or an oracle audit — in a
// command; progress goes to an engine.Mailbox (engine.Settings.Progress)
// that never blocks the solvers, and a command that waits on Ready, Takes
// and returns one message tagged with the run id re-arms itself until the
// run ends. A restart cancels the old run's context and bumps the run id,
// so its messages are dropped. Space pauses the run itself: an
// engine.Gate (engine.Settings.Gate) stops the solvers at their next
// checkpoint, the display freezes (messages are held and applied on
// resume), and a cancellation (restart, quit: the context's) still wins at
// once. A run ends done, refused (the solver's sentence is the outcome,
// never "done"), failed or cancelled. The prescriber evaluates the
// prescription (engine.Prescribe: bounds, parameters, moments) of every
// new Spec off the UI loop, tagged with an id so that stale answers are
// dropped, and cached (an LRU) by the Spec fields that define it. The
// root calls both and forwards the message they return. Every call into
// the engine (Prescribe, Compare, Sweep, Tune), every audit (audit.Oracle) and
// every spec.Spec.Resolve is in package tui/backend; the audit screen's
// configuration (auditConfig: the form's oracle at its ε, the form's seed
// — what `dpso audit` prints for the same flags) is in audit.go. An audit
// is a run like the others, its own family beside the chart's and the
// sweeps', without progress or pause; the audit screen's n asks for its
// negative control (runRequestMsg).
//
// # The form
//
// The form edits a Spec; a field may be shown only where it means
// something (dp-sgd's adaptive clipping, --adaptive-clip, set through the
// spec's field table as the flag is, only while the solver is dp-sgd;
// leaving dp-sgd turns it off). Every change goes through Spec.Resolve, the CLI's
// own check (once: the spec.Resolved is what the engine is given), and a
// value that does not resolve is refused with the *spec.SpecError's
// message, the ✗ on the field the message names (by spec.FlagName; the
// message is repeated on the status bar), so the form's Spec is always
// valid. The assumption row (--assumption: tilde, noncentral,
// coordinatewise, remarked r̃_k, r_k or γ_k with its label) is checked by
// the same Resolve: a class whose precise theorem does not grant it is
// refused there, naming the theorem. ← → step through lists (class,
// scenario, solver, oracle, assumption) and grids
// (k ∈ {2, 2.5, 3, 4, 6, 8, 16, ∞}; ε and n on log grids; d and the tail
// parameter on grids inside the scenario's ranges); a refused candidate is
// skipped by the next step. On a numeric field a digit starts typing a value in place
// (a bubbles textinput): 300000, 3e5 or 3·10⁵, enter sets it, esc cancels;
// its type and fixed range are the CLI flag's (spec.FieldByName).
//
// # Live mode
//
// When the last run of the screen's family took under Options.LiveMax (2 s
// unless `--live-max` says otherwise), a change of the form re-runs it
// (its jobMaker, on the new Spec) by itself once no other change came for
// liveDelay (tea.Tick with a generation counter: a later change supersedes
// the timer); longer runs stay manual, and the status bar says why (the
// run's time against the limit); a toggles live mode.
//
// # Presets
//
// A loaded preset stays the story on screen: its caption (Preset.caption,
// its next step first) under the header, and the header's "preset 4 · k
// changed" naming what the user changed since (changes, against the
// preset's resolved Spec); another preset replaces it. A preset's versus
// solvers make r on the chart a comparison (the first preset: the paper's
// solver beside Lipschitz DP-SGD); Options.PresetRun starts its action,
// as the list does.
//
// On user data (explore --data) the file is named with its n and d where
// a scenario would be (the form, the header, the chart's title, the ready
// status), and the privacy panel states what dpso run --data does: secure
// noise, every release on the rows composes, non-private diagnostics.
//
// # Layout
//
// At 100×30 and above: the form, privacy and clipping panels on the left,
// the screen and its panel on the right. Below (80×24, the common
// terminal): the screen takes the right-hand column's full height and the
// theorem, privacy and clipping panels are side tabs under the form (t).
// The theorem, the privacy panel and the help scroll (bubbles viewport,
// pgup/pgdn, j/k, the mouse wheel; a last line says how much is below) with their
// most important lines first; so do the tuning and audit panels (the
// side panels embed one scrollBody: viewport, size, cached block). A loaded preset's caption takes one line
// under the header (two from 30 rows). The one-line help keeps, in order,
// the keys that fit, then "? all keys" and "q quit". Below 80×24 a notice
// replaces the layout.
//
// The status bar gives the state of the run whose result the shown screen
// draws (the latest of that screen's family; the help and the privacy
// panel follow the same run, and a run going on under another screen is
// named) and its outcome in words — a
// refusal, a failure, solvers that ended above the start line (worse than
// doing nothing) — cut at a word boundary with "…" (style.Shorten) when
// the line is short, an outcome above w₀ in a short form that keeps its
// point (the names, or how many solvers); the help (?) repeats the latest
// outcome and status line in full. A transient error (a typed value
// refused, nothing to export) is about the key just pressed: it comes
// first, marked ✗, and the run after it as "last run: ✓ done …". The theorem panel ends with the notes `dpso run` prints
// (report.Notes: the finished run's, or before a run the prescription's),
// reached by scrolling. A comparison shows each solver's (ε', δ) beside
// its result (report.EpsDelta: the legend's tags on a wide chart, the
// privacy panel's list, which the small terminal's chart has no room for);
// the clipping panel draws dp-sgd's adaptive C over the steps beside the C
// the paper's solver is prescribed (the prescriber computes that
// prescription too, for dp-sgd with adaptive clipping).
//
// A line drawn at a height is a claim about that height. The run chart
// draws, beside the measured curves, the start line F(w₀) − F* (═, doing
// nothing) and the certificate of the form's solver at its parameters (╍,
// the paper's explicit constants: the curve must stay under it), both the
// shown run's own (never another configuration's), and a faint trace of
// the run before a change of parameters (previous); no bound with its
// constants set to 1. Those are rates: the theorem panel lists their
// values labelled as rates, and the sweeps draw the paper's upper and
// lower bounds as slope guides (sweepguide.go: each bound's curve shifted
// to pass through the measured points, anchor), with the fitted line and
// each point's marker and error bar (a scatter chart), the theory's slope
// beside the measured one, and a verdict on the points where the theory
// is not yet in force (pointVerdict). The theorem panel gives the
// certificate's value and whether it is vacuous (above w₀), and explains
// every failed condition.
//
// The chart is package tui/chart (asciigraph with explicit sizes, finite
// values only, legend marks that are the plot's glyphs, so NO_COLOR keeps
// series apart; a log y axis labelled with values at decades or 1-2-5
// steps, LogTicks, written in one format per axis, tickLabels; on a
// scatter chart, markers, error bars and straight segments drawn on
// asciigraph's frame, canvas.go); package tui/style is the one Styles and the text-block
// helpers (Fit, Pad, Block, Wrap, Rule). Numbers are written by
// theory.Human (fmtNum), the one number formatter's preset for people.
//
// # Tests
//
// Tests drive the root with key messages and wait for the messages the
// commands deliver (pump with a condition; no clock in any assertion), on a
// deterministic fake Runner; golden screens at 80×24 and 132×42 are in
// testdata (DPSO_UPDATE_GOLDEN=1 rewrites them).
package tui
