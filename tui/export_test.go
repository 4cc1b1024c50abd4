package tui

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"dpso/internal/audit"
	"dpso/internal/engine"
	"dpso/internal/plot"
	"dpso/internal/report"
	"dpso/internal/spec"
	"dpso/internal/testutil/plotcheck"
	"dpso/scenarios"
	"dpso/theory"
	"dpso/tui/runs"
	"dpso/tui/screens"
)

// TestExportIsTheCLIDocument: after a run on the real engine, e writes as
// JSON exactly the document `dpso run --json` prints for that run —
// report.Run's, which the CLI writes (dpso's TestRunJSONIsTheReport holds
// the CLI to it byte for byte) — not a dump of the engine's structs.
func TestExportIsTheCLIDocument(t *testing.T) {
	s := spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothConvex, D: 3, N: 2000, Trials: 2, Seed: 5}
	m := newEngineModel(t, &s, 132, 42)
	keyUntil(t, m, "r", func() bool { return settled(m) })
	if m.run().Phase != runs.Done {
		t.Fatalf("run: phase %d, %v", m.run().Phase, m.run().Err)
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
// --json` prints) of the sweep on its screen, the moment profile
// report.Moments' (what `dpso moments --json` prints) of the form's
// problem; each with its figure as a 16:9 PNG of 1920×1080.
func TestExportDocuments(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 4}, &example1, 132, 42)
	keyUntil(t, m, "c", func() bool { return settled(m) && m.run().Phase == runs.Done })
	cmp := m.run().Comparison
	exportAndWait(t, m)
	keyUntil(t, m, "s", func() bool { return doneOf(m, screens.SweepNKind) })
	sw := m.run().Sweep
	exportAndWait(t, m)
	keyUntil(t, m, "m", func() bool { return m.shownKind() == screens.MomentsKind })
	exportAndWait(t, m)
	res, err := example1.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	in, err := scenarios.Build(context.Background(), res.Problem)
	if err != nil {
		t.Fatal(err)
	}
	mom, err := report.NewMoments(context.Background(), res.Spec, in)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		base string
		doc  any
	}{
		{"compare", report.Comparison(cmp, report.Options{})},
		{"sweep", report.Sweep(sw)},
		{"moments", mom.JSON()},
	} {
		t.Run(c.base, func(t *testing.T) {
			png, _ := filepath.Glob(filepath.Join(m.opts.ExportDir, "dpso-*-"+c.base+".png"))
			if len(png) != 1 {
				t.Fatalf("%s: exported PNGs %v", c.base, png)
			}
			w, h, err := plotcheck.PNGSize(png[0])
			if err != nil {
				t.Fatal(err)
			}
			if w != plot.DefaultWidth || h != plot.DefaultHeight {
				t.Errorf("%s: the exported figure is %d×%d, want %d×%d", c.base, w, h, plot.DefaultWidth, plot.DefaultHeight)
			}
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
		t.Fatalf("exported %s JSON files %v (status %q)", base, matches, m.status.Text)
	}
	b, err := os.ReadFile(matches[0])
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestExportFiguresAreSlides: every figure e writes — a run's (on the
// real engine), a comparison's, a sweep's over n, the clipping
// trade-off's (on the fake runner, whose numbers are any numbers) and the
// moment profile's (Example 1's, in closed form) — is 16:9 at 1920×1080 (the PNG's bounds, the SVG's
// size and viewBox) and, read from the PNG alone (plotcheck), its data
// fill at least half its height: the figures --plot writes, through the
// same plot functions.
func TestExportFiguresAreSlides(t *testing.T) {
	s := spec.Spec{Scenario: scenarios.LinRegT, Class: theory.SmoothConvex, D: 3, N: 2000, Trials: 2, Seed: 5}
	real := newEngineModel(t, &s, 132, 42)
	fake := newTestModel(t, &fakeRunner{points: 4}, &s, 132, 42)
	ex1 := newTestModel(t, &fakeRunner{points: 4}, &example1, 132, 42) // a closed-form moment profile
	done := func(m *Model, family runs.ScreenKind, compare bool) func() bool {
		return func() bool {
			r := m.run()
			return settled(m) && r.Family == family && r.Phase == runs.Done && r.Compare == compare
		}
	}
	for _, c := range []struct {
		m         *Model
		key, base string
		ready     func() bool
	}{
		{real, "r", "run-acsa", done(real, screens.ChartKind, false)},
		{fake, "c", "compare", done(fake, screens.ChartKind, true)},
		{fake, "s", "sweep", done(fake, screens.SweepNKind, false)},
		{fake, "x", "clip", done(fake, screens.ClipKind, false)},
		{ex1, "m", "moments", func() bool {
			v, ok := ex1.screens[ex1.screenIndex(screens.MomentsKind)].screen.(*screens.MomentsScreen)
			_, why := v.Export()
			return ex1.shownKind() == screens.MomentsKind && ok && why == ""
		}},
	} {
		t.Run(c.base, func(t *testing.T) {
			m := c.m
			keyUntil(t, m, c.key, c.ready)
			if r := m.run(); r != nil && r.Err != nil {
				t.Fatalf("%s: %v", c.key, r.Err)
			}
			exportAndWait(t, m)
			if !strings.HasPrefix(m.status.Text, "exported") {
				t.Fatalf("export: %q", m.status.Text)
			}
			for _, ext := range []string{".png", ".svg"} {
				files, _ := filepath.Glob(filepath.Join(m.opts.ExportDir, "dpso-*-"+c.base+ext))
				if len(files) != 1 {
					t.Fatalf("exported %s files %v", ext, files)
				}
				f, err := plotcheck.Read(files[0])
				if err != nil {
					t.Fatal(err)
				}
				if f.Width != plot.DefaultWidth || f.Height != plot.DefaultHeight || !f.Is16x9() {
					t.Errorf("%s: %d×%d, viewBox %v: want 16:9 at %d×%d", ext, f.Width, f.Height, f.ViewBox, plot.DefaultWidth, plot.DefaultHeight)
				}
				if ext == ".png" && f.DataFill() < 0.5 {
					t.Errorf("the data fill rows %d…%d, %.3f of the height (want ≥ 0.5); axes %v", f.DataTop, f.DataBottom, f.DataFill(), f.Axes)
				}
			}
		})
	}
}

// TestExportExportsWhatIsShown: after a comparison, a
// sweep, the moment profile and back (esc twice: the sweep, then the
// chart), the chart shows the comparison, and
// e exports it — not "nothing to export yet". On the sweep screen e
// exports the sweep, on the moment profile the profile.
func TestExportExportsWhatIsShown(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 5}, &example1, 132, 42)
	keyUntil(t, m, "c", func() bool { return settled(m) && m.run().Phase == runs.Done })
	keyUntil(t, m, "s", func() bool { return doneOf(m, screens.SweepNKind) })
	keyUntil(t, m, "m", func() bool { return true })
	keyUntil(t, m, "esc", func() bool { return m.shownKind() == screens.SweepNKind })
	keyUntil(t, m, "esc", func() bool { return m.shownKind() == screens.ChartKind })
	if v := stripANSI(m.chartScreen().View()); !strings.Contains(v, "comparison #1") {
		t.Fatalf("the chart does not show the comparison:\n%s", v)
	}
	exportAndWait(t, m)
	if !strings.HasPrefix(m.status.Text, "exported ") || !strings.Contains(m.status.Text, "-compare.{png,svg,json} in ") {
		t.Errorf("e on the chart after a comparison and a sweep: %q", m.status.Text)
	}
	keyUntil(t, m, "s", func() bool { return m.shownKind() == screens.SweepNKind })
	exportAndWait(t, m)
	if !strings.Contains(m.status.Text, "-sweep.{png,svg,json} in ") {
		t.Errorf("e on the sweep screen: %q", m.status.Text)
	}
	for _, base := range []string{"compare", "sweep"} {
		if got, _ := filepath.Glob(filepath.Join(m.opts.ExportDir, "dpso-*-"+base+".json")); len(got) != 1 {
			t.Errorf("%s exports: %v", base, got)
		}
	}
	keyUntil(t, m, "m", func() bool { return m.shownKind() == screens.MomentsKind })
	exportAndWait(t, m)
	if !strings.Contains(m.status.Text, "-moments.{png,svg,json} in ") {
		t.Errorf("e on the moment profile: %q", m.status.Text)
	}
}

// TestAuditExport: e on the
// audit screen writes the audit as the JSON document `dpso audit --json`
// prints for the same configuration (report.Audit of audit.Oracle, seeded:
// the same numbers when run again), and only that (the CLI draws no
// figure); a second export takes the next free name, never the first's.
func TestAuditExport(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 3}, &example1, 132, 42)
	keyUntil(t, m, "u", func() bool { return m.active == m.screenIndex(screens.AuditKind) })
	keyUntil(t, m, "e", func() bool { return m.status.Text != "" })
	if r := m.run(); r != nil && r.Phase == runs.Done {
		t.Fatal("the audit finished before e was pressed")
	}
	pump(t, m, nil, func() bool { return auditSettled(m) && m.run().Phase == runs.Done })
	exportAndWait(t, m)
	exportAndWait(t, m)
	cfg := m.run().AuditConfig
	cfg.Trials = fakeAuditTrials
	res, err := audit.Oracle(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	want, err := report.MarshalJSON(report.Audit(res))
	if err != nil {
		t.Fatal(err)
	}
	matches, _ := filepath.Glob(filepath.Join(m.opts.ExportDir, "dpso-*-audit-clip-gaussian*"))
	if len(matches) != 2 || !strings.HasSuffix(matches[1], "-audit-clip-gaussian.json") || !strings.HasSuffix(matches[0], "-audit-clip-gaussian-2.json") {
		t.Fatalf("exported %v, want one JSON file per export, the second under the next free name", matches)
	}
	for _, p := range matches {
		got, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s is not the `dpso audit --json` document:\n got %s\nwant %s", p, got, want)
		}
	}
	if !strings.Contains(m.status.Text, "exported dpso-") || !strings.Contains(m.status.Text, "-audit-clip-gaussian-2.json in ") {
		t.Errorf("status after the second export: %q", m.status.Text)
	}
	if math.IsNaN(res.MuHat) {
		t.Error("the audit has no μ̂ (the comparison above would be vacuous)")
	}
}

// TestExportStatusAtEightyColumns: at 80 columns the state line has no
// room beside a finished sweep's state for the exported files' names and
// folder; the message is whole on the rows under it (never "exported … in…
// (? full)"), and the help gives it whole too.
func TestExportStatusAtEightyColumns(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 5}, &example1, 80, 24)
	keyUntil(t, m, "x", func() bool { return doneOf(m, screens.ClipKind) })
	exportAndWait(t, m)
	st := statusLine(m)
	if msg := statusMessage(m); msg != strings.Join(strings.Fields(m.status.Text), " ") || !strings.HasPrefix(st, "✓ done clipping sweep") {
		t.Errorf("after e at 80 columns: state %q, message under it %q, want %q whole", st, msg, m.status.Text)
	}
	full := m.status.Text
	m.Update(press("?"))
	if help := strings.Join(strings.Fields(screenText(m)), " "); full == "" || !strings.Contains(help, strings.Join(strings.Fields(full), " ")) {
		t.Errorf("the help does not give the export's line whole: %q", full)
	}
}

// TestExportStatusBesideLiveManual: at 80 columns, with live mode waiting
// ("live: manual (run … ≥ …)" takes a third of the bar), the export's
// message is whole under the state line, never "exported… (? full)", and
// live mode's reason stays beside the state; at the next key the message
// goes.
func TestExportStatusBesideLiveManual(t *testing.T) {
	opts := testOpts(t, &fakeRunner{points: 5}, 100*time.Millisecond)
	opts.Manual, opts.LiveMax = false, time.Millisecond
	m := newTestModelOpts(t, opts, &example1, 80, 24)
	keyUntil(t, m, "r", func() bool { return settled(m) && m.run().Phase == runs.Done })
	if st := statusLine(m); !strings.Contains(st, "live: manual (run") {
		t.Fatalf("live mode does not wait: %q", st)
	}
	exportAndWait(t, m)
	st := statusLine(m)
	if msg := statusMessage(m); msg != strings.Join(strings.Fields(m.status.Text), " ") || !strings.Contains(st, "live: manual (run") {
		t.Errorf("after e at 80 columns beside live mode's reason: state %q, message %q, want %q whole", st, msg, m.status.Text)
	}
	keyUntil(t, m, "down", func() bool { return true })
	if st, msg := statusLine(m), statusMessage(m); !strings.Contains(st, "live: manual (run") || strings.Contains(msg, "exported") {
		t.Errorf("after a key: state %q, message %q", st, msg)
	}
}
