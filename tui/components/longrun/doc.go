// Package longrun is the explorer's note before a long run: shown over
// the body when r or c starts a comparison whose planned work
// (engine.Plan) is long even at this build's faster measured pace
// (runs.Long), it says the work and its estimated duration, labelled as
// an estimate with the pace it assumes, and offers three keys: s runs at
// the smaller n that fits (computed by engine.FitN, never typed; the
// form takes it), enter runs the held run anyway, esc cancels it.
// Nothing of the run has started while the note is shown: the engine
// waits before its first trial (runs.HeldMsg).
package longrun
