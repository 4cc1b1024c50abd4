package screens

import "testing"

// TestSweepTabName: the side tab of a sweep that fits a slope is
// "Slopes"; the k sweep's, which fits none (k trades the clipping bias
// against the noise), is named for its axis.
func TestSweepTabName(t *testing.T) {
	for _, c := range []struct {
		axis *sweepAxis
		want string
	}{{&sweepKAxis, "Over k"}, {&sweepNAxis, "Slopes"}} {
		t.Run(c.want, func(t *testing.T) {
			if got, _ := newRateSweepScreen(testCommon(), c.axis).Panel(); got != c.want {
				t.Errorf("the %s's tab is %q, want %q", c.axis.what, got, c.want)
			}
		})
	}
}
