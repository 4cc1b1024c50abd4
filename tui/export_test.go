package tui

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"dpso/internal/engine"
	"dpso/internal/report"
	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/theory"
)

// TestExportIsTheCLIDocument: after a run on the real engine, e writes as
// JSON exactly the document `dpso run --json` prints for that run —
// report.Run's, which the CLI writes (dpso's TestRunJSONIsTheReport holds
// the CLI to it byte for byte) — not a dump of the engine's structs.
func TestExportIsTheCLIDocument(t *testing.T) {
	s := spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothConvex, D: 3, N: 2000, Trials: 2, Seed: 5}
	clock := &fixedClock{t: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), step: 100 * time.Millisecond}
	m := newTestModelOpts(t, Options{Runner: Engine{}, now: clock.Now, ExportDir: t.TempDir(), Manual: true}, &s, 132, 42)
	keyUntil(t, m, "r", func() bool { return settled(m) })
	if m.run().phase != phaseDone {
		t.Fatalf("run: phase %d, %v", m.run().phase, m.run().err)
	}
	exportAndWait(t, m)
	got := exportedJSON(t, m, "run-acsa")
	r, err := s.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	rep, err := engine.Run(context.Background(), r, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := report.MarshalJSON(report.Run(rep, report.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("the export is not the run's `dpso run --json` document:\n got %s\nwant %s", got, want)
	}
}

// TestExportDocuments: a comparison exports report.Comparison's document
// of the comparison on the chart, a sweep report.Sweep's (what `dpso sweep
// --json` prints) of the sweep on its screen.
func TestExportDocuments(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 4}, &example1, 132, 42)
	keyUntil(t, m, "c", func() bool { return settled(m) && m.run().phase == phaseDone })
	cmp := m.run().cmp
	exportAndWait(t, m)
	keyUntil(t, m, "s", func() bool { return sweepSettled(m) })
	sw := m.run().sw
	exportAndWait(t, m)
	for _, c := range []struct {
		base string
		doc  any
	}{
		{"compare", report.Comparison(cmp, report.Options{})},
		{"sweep", report.Sweep(sw)},
	} {
		t.Run(c.base, func(t *testing.T) {
			want, err := report.MarshalJSON(c.doc)
			if err != nil {
				t.Fatal(err)
			}
			if got := exportedJSON(t, m, c.base); got != string(want) {
				t.Errorf("%s export:\n got %s\nwant %s", c.base, got, want)
			}
		})
	}
}

// exportedJSON is the one exported JSON file of base (run-acsa, compare,
// sweep) in the export directory.
func exportedJSON(t *testing.T, m *Model, base string) string {
	t.Helper()
	matches, _ := filepath.Glob(filepath.Join(m.opts.ExportDir, "dpso-*-"+base+".json"))
	if len(matches) != 1 {
		t.Fatalf("exported %s JSON files %v (status %q)", base, matches, m.status.text)
	}
	b, err := os.ReadFile(matches[0])
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
