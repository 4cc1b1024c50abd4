package report

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"dpso/internal/engine"
	"dpso/internal/testutil/sweepfix"
	"dpso/theory"
)

// TestBudgetCappedPointNotInForce: a budget-capped point's certificate,
// however far below w₀, does not cover its run: the point is not in
// force (CappedNotCovered), the sweep's verdict says so, and the
// certificate's entry (CertFrom) names the capped points — never "below
// w₀" for them.
func TestBudgetCappedPointNotInForce(t *testing.T) {
	tick := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	t.Run("point", func(t *testing.T) {
		rep := sweepfix.Capped(true)
		if got := PointVerdict(rep.Points[0]); got != CappedNotCovered {
			t.Errorf("PointVerdict %q, want %q", got, CappedNotCovered)
		}
		if CertCovers(rep.Points[0].Reports[0]) {
			t.Error("CertCovers: a budget-capped run's certificate covers it")
		}
	})
	for _, c := range []struct {
		name         string
		capped       []bool
		verdict      string
		from         string
		inForceCount int
	}{
		{"none capped", []bool{false, false, false}, "✓ in force at every point", "below w₀ from n = 1000", 3},
		{"last two capped", []bool{false, true, true}, "⚠ not yet in force at n = 10000, 100000 (" + CappedNotCovered + ")",
			"below w₀ from n = 1000; " + CappedNotCovered + " at n = 10000, 100000", 1},
		{"all capped", []bool{true, true, true}, "⚠ not yet in force at any point (" + CappedNotCovered + ")", CappedNotCovered + " at every n", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := sweepfix.Capped(c.capped...)
			in, _ := InForce(rep)
			if len(in) != c.inForceCount {
				t.Errorf("in force at %v, want %d points", in, c.inForceCount)
			}
			if got, _ := SweepVerdict(rep, "n", tick, tick, false); !strings.HasPrefix(got, c.verdict) {
				t.Errorf("verdict %q, want it to begin %q", got, c.verdict)
			}
			if got := CertFrom(rep, 0, "n", tick); got != c.from {
				t.Errorf("CertFrom %q, want %q", got, c.from)
			}
		})
	}
	t.Run("vacuous elsewhere", func(t *testing.T) {
		rep := sweepfix.Capped(false, true)
		rep.Points[0].Reports[0].Certified.Cert.Value = 0.2
		want := "vacuous (above w₀) at every other n; " + CappedNotCovered + " at n = 10000"
		if got := CertFrom(rep, 0, "n", tick); got != want {
			t.Errorf("CertFrom %q, want %q", got, want)
		}
	})
}

// TestBudgetCappedSweepTableAndJSON: `dpso sweep`'s table marks a
// budget-capped point's certificate and says what the mark means, its
// summary does not count the capped points as promising something, and
// the JSON row carries certificate_not_covered.
func TestBudgetCappedSweepTableAndJSON(t *testing.T) {
	rep := sweepfix.Capped(false, true, true)
	var b bytes.Buffer
	if err := WriteSweepTable(&b, rep); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"0.05" + cappedMark,
		cappedMark + " = " + CappedNotCovered + ":",
		"localized: " + CappedNotCovered + " at n = 10000, 10⁵",
		"the certificate promises something (falls below F(w₀) − F*) from n = 1000 on (the budget-capped points aside)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the table lacks %q:\n%s", want, out)
		}
	}
	if strings.Count(out, "0.05"+cappedMark) != 2 {
		t.Errorf("the table marks %d certificates capped, want 2:\n%s", strings.Count(out, "0.05"+cappedMark), out)
	}
	j := Sweep(rep)
	for i, row := range j.Rows {
		want := ""
		if i > 0 {
			want = CappedNotCovered
		}
		if row.CertificateNotCovered != want {
			t.Errorf("row %d: certificate_not_covered %q, want %q", i, row.CertificateNotCovered, want)
		}
	}
}

// TestSweepSummarySkipsFlaggedPoints: `dpso sweep`'s summary names the
// points whose private estimates are flagged (FlaggedNoCert) and never
// counts them as promising something — on 430 user rows with --constants
// private its n sweep said "promises something … from n = 27 on" on a
// certificate of 4.5·10⁻¹² computed from flagged estimates, under a run
// at 0.74, where the explorer said "not yet in force at any point".
func TestSweepSummarySkipsFlaggedPoints(t *testing.T) {
	for _, c := range []struct {
		name    string
		flagged []int
		want    []string
		not     string
	}{
		{"first flagged", []int{0}, []string{
			"localized: " + FlaggedNoCert + " at n = 1000",
			"the certificate promises something (falls below F(w₀) − F*) from n = 10000 on (the flagged points aside)",
		}, "from n = 1000 on"},
		{"all flagged", []int{0, 1, 2}, []string{"localized: " + FlaggedNoCert + " at n = 1000, 10000, 10⁵"}, "promises something"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := sweepfix.Capped(false, false, false)
			for _, i := range c.flagged {
				p := flaggedPoint(rep.Points[i])
				p.Value = rep.Points[i].Value
				rep.Points[i] = p
			}
			var b bytes.Buffer
			if err := WriteSweepTable(&b, rep); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("the table lacks %q:\n%s", w, out)
				}
			}
			if strings.Contains(out, c.not) {
				t.Errorf("the table says %q on flagged estimates:\n%s", c.not, out)
			}
		})
	}
}

// TestAboveCertNote: a mean above its certificate is said with both
// numbers at as many digits as they need to differ (beside "certified ≤
// 0.129", "ABOVE it (0.129)" reads as no gap), by MeanAboveCert's rule:
// the mean itself against the value.
func TestAboveCertNote(t *testing.T) {
	c := engine.Certified{Cert: &theory.Certificate{ID: "c", Value: 0.12897}}
	for _, tc := range []struct {
		name     string
		mean, se float64
		want     string
	}{
		{"close", 0.12904, 0.0012, AboveCertText + " (mean 0.12904 ± 0.0012 > 0.12897)"},
		{"far", 0.5, 0.01, AboveCertText + " (mean 0.5 ± 0.01 > 0.129)"},
		{"below", 0.12, 0.01, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := AboveCertNote(c, tc.mean, tc.se); got != tc.want {
				t.Errorf("%q, want %q", got, tc.want)
			}
		})
	}
}
