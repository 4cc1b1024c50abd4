package plot

import (
	"io"
	"slices"
	"strings"
	"testing"

	"dpso/internal/report"
)

// TestClipFigurePercentsAreTheScreens: the clip sweep's figure writes
// beside each point the fraction clipped as the clip screen's table and
// dpso sweep write it (report.Percent: 3 significant digits), so that a
// slide reads "45.7%" where the screen does, not "46%".
func TestClipFigurePercentsAreTheScreens(t *testing.T) {
	rep := clipSweepReport(t)
	f, err := Sweep(rep, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Write(io.Discard, SVG); err != nil {
		t.Fatal(err)
	}
	var want, got []string
	three := false
	for _, p := range rep.Points {
		c := report.Percent(p.Reports[0].Clipped)
		want = append(want, c)
		three = three || len(strings.Trim(strings.TrimSuffix(c, "%"), "0.")) >= 3
	}
	if !three {
		t.Fatalf("no fraction clipped has 3 significant digits (%q): the case cannot tell the formats apart", want)
	}
	labels, _, _ := f.Labels()
	for _, l := range labels {
		if strings.HasSuffix(l.Text, "%") {
			got = append(got, l.Text)
		}
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("the figure's fractions clipped %q, the screen's %q", got, want)
	}
}
