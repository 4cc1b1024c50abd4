package screens

import (
	"fmt"
	"strings"
	"testing"

	"dpso/internal/engine"
	"dpso/tui/style"
)

// TestTuneBarsSideOfStart: on the tuning screen's bars a mean above w₀
// ends past the start line's ┊ and a mean below it ends before, at every
// width — preset 9's prescribed 0.313 beside w₀ 0.187 ended at the ┊ at
// 80 columns, reading as no worse than doing nothing.
func TestTuneBarsSideOfStart(t *testing.T) {
	st := style.NewTheme(style.Dark, true, true)
	rows := []tuneRow{
		{name: "prescribed", est: engine.Estimate{Mean: 0.313, SE: 0.0818}},
		{name: "tuned", est: engine.Estimate{Mean: 0.0056, SE: 7.83e-4}},
		{name: "oracle-tuned", est: engine.Estimate{Mean: 0.00179, SE: 5.52e-4}},
		{name: "near", est: engine.Estimate{Mean: 0.17, SE: 0.01}},
	}
	const w0 = 0.187
	for w := 40; w <= 90; w++ {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			lines := tuneBars(&st, rows, w0, w, w < 60)
			for i, r := range rows {
				l := []rune(style.StripANSI(lines[i]))
				mark := -1
				for c, ch := range l {
					if ch == '┊' {
						mark = c
					}
				}
				if mark < 0 {
					t.Fatalf("no start line in %q", string(l))
				}
				after := mark+1 < len(l) && l[mark+1] == '#'
				before := l[mark-1] == '#'
				switch {
				case r.est.Mean > w0 && !after:
					t.Errorf("%s (%g, above w₀ %g) does not end past the ┊: %q", r.name, r.est.Mean, w0, strings.TrimRight(string(l), " "))
				case r.est.Mean < w0 && after:
					t.Errorf("%s (%g, below w₀ %g) ends past the ┊: %q", r.name, r.est.Mean, w0, strings.TrimRight(string(l), " "))
				case r.name == "near" && !before:
					t.Errorf("%s (%g, just below w₀) does not reach the ┊: %q", r.name, r.est.Mean, strings.TrimRight(string(l), " "))
				}
			}
		})
	}
}
