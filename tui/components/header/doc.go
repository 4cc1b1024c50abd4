// Package header is the top of the explorer's screen: the title line (the
// problem, or the loaded preset with what the user changed since) and the
// loaded preset's caption under it.
package header
