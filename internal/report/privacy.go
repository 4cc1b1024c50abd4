package report

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"dpso/solvers/accountant"
	"dpso/theory"
)

// PrivacyJSON is the document of `dpso privacy --eps E --json`: its
// inputs (the zCDP ε and δ) first, then what they convert to; a value
// beyond the float64 range is null.
type PrivacyJSON struct {
	// Citation is what reproduces the document (WriteCitedJSON sets it).
	Citation      *CitationJSON `json:"citation,omitempty"`
	Eps           *float64      `json:"eps"` // the zCDP ε given (ρ = ε²/2)
	Delta         *float64      `json:"delta"`
	Rho           *float64      `json:"rho"`
	GDPMu         *float64      `json:"gdp_mu"`
	EpsBunSteinke *float64      `json:"eps_bun_steinke"`
	// EpsCKS is Canonne–Kamath–Steinke 2020's conversion (the table's row).
	EpsCKS   *float64 `json:"eps_canonne_kamath_steinke"`
	EpsExact *float64 `json:"eps_exact"`
}

// Privacy is the document of `dpso privacy --json` for pr.
func Privacy(pr theory.Privacy) PrivacyJSON {
	return PrivacyJSON{Eps: theory.JSONNum(pr.Eps), Rho: theory.JSONNum(pr.Rho), GDPMu: theory.JSONNum(pr.GDPMu), Delta: theory.JSONNum(pr.Delta),
		EpsBunSteinke: theory.JSONNum(pr.EpsBunSteinke), EpsCKS: theory.JSONNum(pr.EpsCKS), EpsExact: theory.JSONNum(pr.EpsExact)}
}

// WritePrivacyTable writes the table of `dpso privacy --eps E`.
func WritePrivacyTable(w io.Writer, pr theory.Privacy) (err error) {
	cw := citing(w)
	defer func() { err = cw.close(err) }()
	w = cw
	return writeRows(w, [][2]string{
		{"zCDP ε", n6(pr.Eps)},
		{"ρ = ε²/2", n6(pr.Rho)},
		{"Gaussian DP μ = ε", n6(pr.GDPMu)},
		{"δ", n6(pr.Delta)},
		{"ε' Bun–Steinke", n6(pr.EpsBunSteinke)},
		{"ε' Canonne–Kamath–Steinke", n6(pr.EpsCKS)},
		{"ε' exact (Gaussian mechanism)", n6(pr.EpsExact)},
	})
}

// PrivacyTarget is the answer to `dpso privacy --target-eps E'`: the zCDP
// ε (and ρ) that meets (ε', δ)-DP, exactly and by Bun–Steinke.
type PrivacyTarget struct {
	Target, Delta, ExactEps, BunSteinkeEps float64
}

// NewPrivacyTarget solves for the zCDP ε that meets (target, δ)-DP.
func NewPrivacyTarget(target, delta float64) PrivacyTarget {
	return PrivacyTarget{Target: target, Delta: delta, ExactEps: theory.EpsForTarget(target, delta),
		BunSteinkeEps: theory.EpsForTargetBunSteinke(target, delta)}
}

// PrivacyTargetJSON is the document of `dpso privacy --target-eps E'
// --json`.
type PrivacyTargetJSON struct {
	// Citation is what reproduces the document (WriteCitedJSON sets it).
	Citation          *CitationJSON `json:"citation,omitempty"`
	TargetEps         *float64      `json:"target_eps"`
	Delta             *float64      `json:"delta"`
	ZCDPEpsExact      *float64      `json:"zcdp_eps_exact"`
	RhoExact          *float64      `json:"rho_exact"`
	ZCDPEpsBunSteinke *float64      `json:"zcdp_eps_bun_steinke"`
}

// JSON is t's document.
func (t PrivacyTarget) JSON() PrivacyTargetJSON {
	return PrivacyTargetJSON{TargetEps: theory.JSONNum(t.Target), Delta: theory.JSONNum(t.Delta),
		ZCDPEpsExact: theory.JSONNum(t.ExactEps), RhoExact: theory.JSONNum(theory.Rho(t.ExactEps)), ZCDPEpsBunSteinke: theory.JSONNum(t.BunSteinkeEps)}
}

// WriteTable writes t's table.
func (t PrivacyTarget) WriteTable(w io.Writer) error {
	return writeRows(w, [][2]string{
		{"target ε'", n6(t.Target)},
		{"δ", n6(t.Delta)},
		{"zCDP ε, exact (Gaussian mechanism)", n6(t.ExactEps)},
		{"ρ = ε²/2, exact", n6(theory.Rho(t.ExactEps))},
		{"zCDP ε, Bun–Steinke", n6(t.BunSteinkeEps)},
	})
}

// Accounted is the answer of `dpso privacy --accountant`: T steps of the
// Poisson-subsampled Gaussian mechanism (DP-SGD's) with noise multiplier
// NoiseMultiplier and sampling rate SamplingRate, accounted at δ under
// Adjacency by the accountant (package solvers/accountant). Eps is the accountant's upper
// bound on the exact ε'; EpsLower is PLD's proved lower bound (NaN for RDP),
// so the exact ε' lies in [EpsLower, Eps]. TargetEps, when set (not NaN),
// is the target the noise multiplier was calibrated to
// (accountant.CalibrateContext: the smallest multiplier that meets it).
type Accounted struct {
	Accountant                    accountant.Kind
	Adjacency                     accountant.Adjacency
	NoiseMultiplier, SamplingRate float64
	Steps                         int
	Delta, Eps, EpsLower          float64
	TargetEps                     float64
}

// NewAccounted accounts m at δ with the accountant k (with target =
// NaN), or, with a finite target, first calibrates m.Sigma to it; ctx
// cancels the calibration (accountant.CalibrateContext).
func NewAccounted(ctx context.Context, k accountant.Kind, m accountant.Mechanism, delta, target float64) (Accounted, error) {
	a := Accounted{Accountant: k, Adjacency: m.Adjacency, SamplingRate: m.Q, Steps: m.Steps, Delta: delta, TargetEps: target, EpsLower: math.NaN()}
	if !math.IsNaN(target) {
		z, err := accountant.CalibrateContext(ctx, k, m.Adjacency, m.Q, m.Steps, target, delta)
		if ctx.Err() != nil {
			return a, ctx.Err()
		}
		var ce *accountant.CalibrationError
		if errors.As(err, &ce) {
			return a, fmt.Errorf("%v (q = %s, T = %s, (ε', δ) = (%s, %s), %v)", ce.Err, theory.Sig6.Format(ce.Q), theory.FormatCount(ce.Steps), theory.Sig6.Format(ce.Eps), theory.Sig6.Format(ce.Delta), ce.Adjacency)
		}
		if err != nil {
			return a, err
		}
		m.Sigma = z
	}
	a.NoiseMultiplier = m.Sigma
	var err error
	if k == accountant.PLD {
		a.EpsLower, a.Eps, err = accountant.PLDBounds(m, delta, accountant.PLDOptions{})
	} else {
		a.Eps, _, err = accountant.RDPEpsilon(m, delta, nil)
	}
	return a, err
}

// AccountedJSON is the document of `dpso privacy --accountant … --json`:
// the inputs first (the accountant, the adjacency, the mechanism, δ and
// with --target-eps the target), then the noise multiplier (given, or calibrated to the
// target), ε' at δ of the mechanism, PLD's lower bound and its
// discretisation error eps − eps_lower (null for RDP).
type AccountedJSON struct {
	// Citation is what reproduces the document (WriteCitedJSON sets it).
	Citation        *CitationJSON `json:"citation,omitempty"`
	Accountant      string        `json:"accountant"`
	Adjacency       string        `json:"adjacency"`
	SamplingRate    *float64      `json:"sampling_rate"`
	Steps           int           `json:"steps"`
	Delta           *float64      `json:"delta"`
	TargetEps       *float64      `json:"target_eps,omitempty"`
	NoiseMultiplier *float64      `json:"noise_multiplier"`
	Eps             *float64      `json:"eps"`
	EpsLower        *float64      `json:"eps_lower"`
	ErrorBound      *float64      `json:"discretisation_error"`
}

// JSON is a's document.
func (a Accounted) JSON() AccountedJSON {
	return AccountedJSON{Accountant: a.Accountant.String(), Adjacency: a.Adjacency.String(), NoiseMultiplier: theory.JSONNum(a.NoiseMultiplier), SamplingRate: theory.JSONNum(a.SamplingRate),
		Steps: a.Steps, Delta: theory.JSONNum(a.Delta), Eps: theory.JSONNum(a.Eps), EpsLower: theory.JSONNum(a.EpsLower), ErrorBound: theory.JSONNum(a.Eps - a.EpsLower),
		TargetEps: theory.JSONNum(a.TargetEps)}
}

// WriteTable writes a's table.
func (a Accounted) WriteTable(w io.Writer) error {
	rows := [][2]string{
		{"mechanism", "Poisson-subsampled Gaussian, composed over T steps (DP-SGD)"},
		{"accountant", a.Accountant.String()},
		{"adjacency", adjacencyText(a.Adjacency.String())},
	}
	if !math.IsNaN(a.TargetEps) {
		how := " (calibrated: the smallest that meets the target)"
		if a.Accountant == accountant.PLD {
			// Verified on the default grid, at most PredictMargin above
			// the smallest (accountant.CalibrateContext).
			how = " (calibrated: meets the target, within " + accountant.PredictMarginWords() + " of the smallest that does)"
		}
		rows = append(rows, [2]string{"target ε'", n6(a.TargetEps)},
			[2]string{"noise multiplier σ", n6(a.NoiseMultiplier) + how})
	} else {
		rows = append(rows, [2]string{"noise multiplier σ", n6(a.NoiseMultiplier)})
	}
	rows = append(rows,
		[2]string{"sampling rate q", n6(a.SamplingRate)},
		[2]string{"steps T", strconv.Itoa(a.Steps)},
		[2]string{"δ", n6(a.Delta)},
		[2]string{"ε'", n6(a.Eps) + " (an upper bound on the exact ε')"})
	if !math.IsNaN(a.EpsLower) {
		rows = append(rows, [2]string{"exact ε' ≥", n6(a.EpsLower) + " (PLD discretisation error ≤ " + n6(a.Eps-a.EpsLower) + ")"})
	}
	return writeRows(w, rows)
}

// adjacencyText says what a neighbouring relation of a privacy statement
// means, for the tables.
func adjacencyText(adj string) string {
	switch adj {
	case "replace-one":
		return "replace-one (datasets of the same size that differ in one record: the paper's)"
	case "add-remove":
		return "add-remove (one record added or removed: Opacus's and TF Privacy's)"
	}
	return adj
}
