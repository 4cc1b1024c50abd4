package tui

import (
	"fmt"
	"strings"
	"testing"

	"dpso/internal/engine"
	"dpso/internal/report"
	"dpso/tui/common"
	"dpso/tui/screens"
)

// TestPrivacyPanelStatesTheWholeSweep: a sweep's privacy panel first says
// what all its releases of one draw spent together, then the point
// shown. On linreg-t the ε sweep's five points 0.1 … 10 (one solver)
// spend ρ = Σ ε²/2 = 55.555 on a draw, ε' = 99.67 at δ = 10⁻⁵: the exact
// (ε', δ) of the Gaussian mechanism with μ = √(2ρ) (Balle & Wang 2018,
// Theorem 8), computed independently by
//
//	/usr/bin/python3 -c "from scipy.stats import norm; from scipy.optimize import brentq; import numpy as np
//	g=np.logspace(-1,1,5); rho=(g**2/2).sum(); mu=np.sqrt(2*rho)
//	print(rho, brentq(lambda e: norm.cdf(-e/mu+mu/2)-np.exp(e)*norm.cdf(-e/mu-mu/2)-1e-5, 0, 1000))"
//
// (55.555 99.67213893681847, the CLI's `ε' = 99.6721`); the panel showed
// only the point ε = 10's ε' = 91.8.
func TestPrivacyPanelStatesTheWholeSweep(t *testing.T) {
	s := epsSweepSpec
	s.N, s.Trials, s.Workers = 2000, 1, 1
	m := newEngineModel(t, &s, 132, 42)
	keyUntil(t, m, "v", func() bool { return doneOf(m, screens.SweepEpsKind) })
	grid := m.run().SweepSpec.Grid()
	rho := 0.0
	for _, e := range grid {
		rho += e * e / 2
	}
	if got := m.run().Sweep.Total.Spent.Rho; fmt.Sprintf("%.6g", got) != "55.555" || fmt.Sprintf("%.6g", rho) != "55.555" {
		t.Fatalf("the engine's total ρ %g, Σ ε²/2 over the grid %v = %g, want 55.555", got, grid, rho)
	}
	lines := strings.Split(stripANSI(m.privacy.View()), "\n")
	v := strings.Join(strings.Fields(strings.Join(lines, " ")), " ")
	want := "all 5 releases of one draw (the sweep's solvers and points): ρ = " + common.FmtNum(55.555) + ", ε' = " + common.FmtNum(99.67213893681847)
	if len(lines) < 2 || !strings.Contains(v, want) || !strings.HasPrefix(strings.TrimSpace(lines[1]), "all 5 releases") {
		t.Errorf("the privacy panel's first line is not %q:\n%s", want, strings.Join(lines, "\n"))
	}
	if i, j := strings.Index(v, want), strings.Index(v, "at ε = 10 (the sweep point shown):"); j < i {
		t.Errorf("the point shown is not stated after the whole sweep:\n%s", v)
	}
}

// TestPrivacyPanelCountsTheNoiseOffRuns: a clip sweep runs each trial a
// second time with the noise off on the same draw and draws the result;
// its privacy panel counts those runs among the draw's releases and says
// first — on the panel's first line at 120×32, the projector size, where
// the verdict stood below the fold behind the noisy releases' ε' — that
// what it shows is not private, as the comparison says of its noise-free
// baseline, with the number of noise-off runs the engine made (one per
// solver and point), then what the noisy ones alone spent; the engine's
// total — the CLI's and the JSON's — is no guarantee: its reason is the
// same sentence.
func TestPrivacyPanelCountsTheNoiseOffRuns(t *testing.T) {
	s := example1
	s.N, s.Trials, s.Workers = 2000, 1, 1
	for _, size := range [][2]int{{120, 32}, {132, 42}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			m := newEngineModel(t, &s, size[0], size[1])
			keyUntil(t, m, "x", func() bool { return doneOf(m, screens.ClipKind) })
			rep := m.run().Sweep
			n := len(rep.Points) * len(rep.Solvers)
			if !rep.NoiseOff || n < 2 || rep.Total.NoiseOff != n {
				t.Fatalf("clip sweep: noise off %v, %d points × %d solvers, total's noise-off runs %d", rep.NoiseOff, len(rep.Points), len(rep.Solvers), rep.Total.NoiseOff)
			}
			lines := strings.Split(stripANSI(m.privacy.View()), "\n")
			if first := fmt.Sprintf("all %d releases of one draw: not private", 2*n); len(lines) < 2 || !strings.Contains(lines[1], first) {
				t.Errorf("the panel's first line does not say %q:\n%s", first, strings.Join(lines, "\n"))
			}
			if size[0] < 132 {
				return
			}
			v := strings.Join(strings.Fields(strings.Join(lines, " ")), " ")
			want := fmt.Sprintf("all %d releases of one draw: not private — %d are the noise-off runs (their column: no noise); the %d noisy ones (the sweep's solvers and points) alone: ρ = ", 2*n, n, n)
			if !strings.Contains(v, want) {
				t.Errorf("the privacy panel does not say %q:\n%s", want, v)
			}
			if rep.Total.Covered() || !strings.Contains(report.Sweep(rep).Total.Note, "NOT PRIVATE: "+engine.NoiseOffNotPrivate(n)) {
				t.Errorf("the sweep's total is a guarantee despite its noise-off runs: %+v", rep.Total)
			}
		})
	}
}
