// Package runs holds the explorer's two services, which draw nothing: the
// run lifecycle (Lifecycle) and the prescriber (Prescriber), with live
// mode (Live). The root calls them and forwards the messages they return
// to every component.
//
// The lifecycle starts a Job — one backend.Call on the form's resolved
// Spec, built by the screen that asks for it (a JobMaker): what r runs on
// a screen, c's comparison, the audit's negative control — in a command;
// its progress goes to an engine.Mailbox (engine.Settings.Progress) that
// never blocks the solvers, and a command that waits on Ready, Takes and
// returns one ProgressMsg tagged with the run id re-arms itself until the
// run ends. A restart cancels the old run's context and bumps the run id,
// so its messages are dropped. Space pauses the run itself: an
// engine.Gate (engine.Settings.Gate) stops the solvers at their next
// checkpoint, the display freezes (messages are held and applied on
// resume), and a cancellation (restart, quit: the context's) still wins
// at once. A run ends Done, Refused (the solver's sentence is the
// outcome, never "done"), Failed or Cancelled. The Run record is what
// every component reads; the lifecycle alone writes it, on the UI loop,
// and says so with an Event. A run belongs to the family of the screens
// that draw it (Job.Family, a ScreenKind): Last is each family's latest.
// A search (backend.Tune) also hands its reports before its end —
// the private searches, the prescribed runs, the coarse oracle
// (engine.Settings.Searched and Coarse) — through a channel that keeps
// the latest, read by a command that re-arms itself (a SearchedMsg;
// searched.go).
//
// The prescriber evaluates the prescription (engine.Prescribe: bounds,
// parameters, moments) of every new Spec off the UI loop, tagged with an
// id so that stale answers are dropped, and cached (an LRU) by the Spec
// fields that define it (PrescKey); its outcome is a PrescriptionMsg.
//
// Live mode re-runs the last run of the shown screen's family after an
// edit of the form, once no other edit came for a debounce delay, when
// that run took under its longest run (DefaultLiveMax unless the
// explorer's options say otherwise).
//
// Every engine call goes through a backend.Runner (package tui/backend);
// the package imports no component.
package runs
