package plot

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
)

// inside reports whether p lies strictly inside r.
func inside(p vg.Point, r vg.Rectangle) bool {
	return p.X > r.Min.X && p.X < r.Max.X && p.Y > r.Min.Y && p.Y < r.Max.Y
}

// crosses reports whether the segment ab passes through r, by sampling it
// every quarter point (independent of the placer's clipping test).
func crosses(a, b vg.Point, r vg.Rectangle) bool {
	dx, dy := float64(b.X-a.X), float64(b.Y-a.Y)
	n := int(max(abs(dx), abs(dy))*4) + 1
	for i := 0; i <= n; i++ {
		t := float64(i) / float64(n)
		if inside(vg.Point{X: a.X + vg.Length(t*dx), Y: a.Y + vg.Length(t*dy)}, r) {
			return true
		}
	}
	return false
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestClipLabelsClear: the clipped fractions beside a clip sweep's points
// are placed, when drawn, so that no label overlaps another label, a line
// of the figure (the curves, the w₀ line through the first points, the
// certificate, the prescribed-C and best-C markers) or a point marker
// (the reported defect: a fixed offset overprinted the w₀ line), and
// every label found a place.
func TestClipLabelsClear(t *testing.T) {
	rep := clipSweepReport(t)
	f, err := Sweep(rep, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range []Format{PNG, SVG} {
		t.Run(string(format), func(t *testing.T) {
			if err := f.Write(io.Discard, format); err != nil {
				t.Fatal(err)
			}
			labels, segs, marks := f.Labels()
			clip := 0
			for _, l := range labels {
				if strings.HasSuffix(l.Text, "%") {
					clip++
				}
			}
			if clip != len(rep.Points) {
				t.Fatalf("%s: %d clipped fractions for %d points", format, clip, len(rep.Points))
			}
			roles := map[Role]bool{}
			for _, s := range f.Series() {
				roles[s.Role] = true
			}
			if !roles[RoleStart] || !roles[RoleMarker] || len(segs) == 0 {
				t.Fatalf("%s: the figure lacks the lines the labels must clear (roles %v, %d segments)", format, roles, len(segs))
			}
			for i, a := range labels {
				if !a.Drawn {
					t.Errorf("%s: label %q found no free place", format, a.Text)
					continue
				}
				for _, b := range labels[i+1:] {
					if b.Drawn && rectsOverlap(a.Box, b.Box) {
						t.Errorf("%s: labels %q %v and %q %v overlap", format, a.Text, a.Box, b.Text, b.Box)
					}
				}
				for _, s := range segs {
					if crosses(s[0], s[1], a.Box) {
						t.Errorf("%s: label %q %v is crossed by a line %v–%v", format, a.Text, a.Box, s[0], s[1])
					}
				}
				for _, m := range marks {
					if rectsOverlap(a.Box, m) {
						t.Errorf("%s: label %q %v covers a point marker %v", format, a.Text, a.Box, m)
					}
				}
			}
		})
	}
}

// TestSegmentHitsRect pins the placer's clipping test on the cases it
// meets: a horizontal line through a box (the w₀ line), a vertical one
// beside it (a marker), a diagonal passing a corner, a segment ending short.
func TestSegmentHitsRect(t *testing.T) {
	r := vg.Rectangle{Min: vg.Point{X: 10, Y: 10}, Max: vg.Point{X: 20, Y: 15}}
	for _, c := range []struct {
		a, b vg.Point
		want bool
	}{
		{vg.Point{X: 0, Y: 12}, vg.Point{X: 100, Y: 12}, true},
		{vg.Point{X: 25, Y: 0}, vg.Point{X: 25, Y: 100}, false},
		{vg.Point{X: 15, Y: 0}, vg.Point{X: 15, Y: 100}, true},
		{vg.Point{X: 0, Y: 0}, vg.Point{X: 30, Y: 5}, false},
		{vg.Point{X: 0, Y: 0}, vg.Point{X: 30, Y: 30}, true},
		{vg.Point{X: 0, Y: 12}, vg.Point{X: 9, Y: 12}, false},
	} {
		t.Run(fmt.Sprintf("%v %v", c.a, c.b), func(t *testing.T) {
			if got := segmentHitsRect(c.a, c.b, r); got != c.want || crosses(c.a, c.b, r) != c.want {
				t.Errorf("segment %v–%v and %v: %v (sampled %v), want %v", c.a, c.b, r, got, crosses(c.a, c.b, r), c.want)
			}
		})
	}
}
