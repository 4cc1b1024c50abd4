// Package statusbar is the lines under the explorer's panels: the state
// of the run the shown screen draws (its outcome in words: a refusal, a
// failure, solvers above the start line, cut at a word with "…" where the
// line is short, the help giving it in full) and live mode, with a message
// that does not fit beside them on up to four rows under them; the
// reproduce line (the dpso command of what is shown, the shown screen's
// Reproduce) or the state string; and the one-line key help.
package statusbar
