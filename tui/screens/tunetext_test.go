package screens

import (
	"context"
	"strings"
	"testing"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/tui/style"
)

// tuneReport is the search the tuning screen runs on s (tuneJob's), as
// engine.Tune reports it.
func tuneReport(t *testing.T, s spec.Spec) *engine.TuneReport {
	t.Helper()
	res := mustResolve(t, s)
	tj, why := tuneJob(res)
	if why != "" {
		t.Fatal(why)
	}
	rep, err := engine.Tune(context.Background(), res, tj.TuneSpec, nil)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// tuneWords is the tuning screen's text of rep at w cells (compact below
// 100), its words one space apart, as a person reads it.
func tuneWords(rep *engine.TuneReport, w int) string {
	st := style.NewTheme(style.Dark, true, true)
	var lines []string
	for _, sec := range tuneSections(&st, rep, nil, w, w < 100) {
		lines = append(lines, sec.Lines...)
	}
	return strings.Join(strings.Fields(stripANSI(strings.Join(lines, " "))), " ")
}
