package report

import (
	"fmt"
	"io"
	"math"
	"strings"

	"dpso/internal/engine"
	"dpso/solvers/accountant"
	"dpso/theory"
)

// DPSGDTuneMethod says how dp-sgd's search is accounted.
const DPSGDTuneMethod = "the same search, each dp-sgd candidate accounted by its own Rényi curve: T Poisson-subsampled Gaussian steps at rate q = B/n_train under replace-one adjacency (Mironov, Talwar & Zhang 2019; the replace pair of Koskela, Jälkö & Honkela 2020), each mechanism (B, T) of the grid and the private score (a Gaussian mechanism, ρλ) entering Papernot & Steinke's theorem as the candidates' pointwise maximum (a candidate is one draw of the grid point, independent of the data, and one run); each mechanism's noise multiplier is the smallest for a search of it alone, all raised by one factor until the whole search meets the target"

// DPSGDSearchJSON is dp-sgd's search's accounting.
type DPSGDSearchJSON struct {
	Method string `json:"method"`
	// Mechanisms are the grid's distinct (batch, T) with their noise
	// multipliers (alone: the smallest for a search of that mechanism
	// alone, on the calibration's coarse orders; noise_multiplier =
	// scale·alone).
	Mechanisms []DPSGDMechanismJSON `json:"mechanisms"`
	// Score is each candidate's private score: a Gaussian mechanism on the
	// validation rows, ρ = 1/(2z²).
	Score DPSGDScoreJSON `json:"score"`
	Scale *float64       `json:"scale"`
	RDP   RDPJSON        `json:"rdp"`
	// Eps is the search's ε' at Delta by the bound Accountant names
	// ("rdp": Papernot & Steinke; "pld": the privacy-profile bound, with
	// every noise multiplier pld_factor times the Rényi calibration's and
	// pld_shift the theorem's ε₂); rdp_eps the Rényi curve's ε' at the
	// multipliers run (at order), above the target under "pld".
	Eps        *float64 `json:"eps"`
	RDPEps     *float64 `json:"rdp_eps"`
	Accountant string   `json:"accountant"`
	PLDFactor  *float64 `json:"pld_factor"`
	PLDShift   *float64 `json:"pld_shift"`
	Delta      *float64 `json:"delta"`
	Order      *float64 `json:"order"`
	// Dropped are the (batch, T) no noise lets the search meet the target
	// with (their grid points are not drawn).
	Dropped []string `json:"dropped"`
}

// DPSGDMechanismJSON is one (batch, T) of dp-sgd's grid.
type DPSGDMechanismJSON struct {
	Batch           int      `json:"batch"`
	SamplingRate    *float64 `json:"sampling_rate"`
	Steps           int      `json:"steps"`
	NoiseMultiplier *float64 `json:"noise_multiplier"`
	Alone           *float64 `json:"alone"`
}

// DPSGDScoreJSON is dp-sgd's private score's mechanism.
type DPSGDScoreJSON struct {
	Rho             *float64 `json:"rho"`
	NoiseMultiplier *float64 `json:"noise_multiplier"`
	Alone           *float64 `json:"alone"`
}

func dpsgdSearchJSON(s *engine.DPSGDSearch, delta float64) *DPSGDSearchJSON {
	if s == nil {
		return nil
	}
	j := &DPSGDSearchJSON{Method: DPSGDTuneMethod, Scale: theory.JSONNum(s.Scale), RDP: rdpJSON(s.Orders, s.RDP),
		Eps: theory.JSONNum(s.Eps), RDPEps: theory.JSONNum(s.RDPEps), Accountant: s.Accountant.String(), Delta: theory.JSONNum(delta), Order: theory.JSONNum(s.Order), Dropped: nonNil(s.Dropped),
		Score: DPSGDScoreJSON{Rho: theory.JSONNum(s.ScoreRho), NoiseMultiplier: theory.JSONNum(s.ScoreZ), Alone: theory.JSONNum(s.ScoreAlone)}}
	if s.Accountant == accountant.PLD {
		j.PLDFactor, j.PLDShift = theory.JSONNum(s.PLDFactor), theory.JSONNum(s.PLDShift)
	}
	for _, m := range s.Mechanisms {
		j.Mechanisms = append(j.Mechanisms, DPSGDMechanismJSON{Batch: m.Batch, SamplingRate: theory.JSONNum(m.Q), Steps: m.Steps,
			NoiseMultiplier: theory.JSONNum(m.Z), Alone: theory.JSONNum(m.Alone)})
	}
	return j
}

func rdpJSON(orders, rdp []float64) RDPJSON {
	vals := make([]*float64, len(rdp))
	for i, v := range rdp {
		vals[i] = theory.JSONNum(v)
	}
	return RDPJSON{Orders: orders, Values: vals}
}

// searchEps is the ε' of solver ts's search: dp-sgd's own, else the
// zCDP solvers' (pv's).
func searchEps(r *engine.TuneReport, ts engine.TuneSolver) float64 {
	if ts.DPSGD != nil {
		return ts.DPSGD.Eps
	}
	return r.Privacy.Eps
}

// dpsgdRows are the table's lines on dp-sgd's search (none without it).
func dpsgdRows(r *engine.TuneReport) [][2]string {
	var rows [][2]string
	for _, ts := range r.Solvers {
		s := ts.DPSGD
		if s == nil {
			continue
		}
		parts := make([]string, len(s.Mechanisms))
		for i, m := range s.Mechanisms {
			parts[i] = fmt.Sprintf("z = %s at batch %d, T = %d", n4(m.Z), m.Batch, m.Steps)
		}
		scale := fmt.Sprintf("; each is %s× the smallest for a search of its (batch, T) alone, the factor at which the search over all of them meets the budget", n4(s.Scale))
		curves := "each accounted by its own Rényi curve"
		if s.Accountant == accountant.PLD {
			scale = fmt.Sprintf("; each is %s× the smallest for a Rényi-accounted search of its (batch, T) alone: %s× at which the Rényi-accounted search over all of them meets the budget, times %s at which its privacy-profile bound does", n4(s.Scale*s.PLDFactor), n4(s.Scale), n4(s.PLDFactor))
			curves = "each accounted by its own Rényi curve and PLD profile"
		}
		pv := r.Privacy
		rows = append(rows, [][2]string{
			{ts.Solver + " candidates", fmt.Sprintf("%s, T Poisson-subsampled Gaussian steps at q = batch/%d under replace-one: %s%s; its private score at ρ = %s",
				curves, r.NTrain, strings.Join(parts, "; "), scale, n6(s.ScoreRho))},
			{ts.Solver + " privacy", fmt.Sprintf("ε' = %s at δ = %s for the whole search (Papernot & Steinke 2022, Thm %s, on the candidates' pointwise largest curve, with the score clip (ρ_s = %s)%s; Rényi DP, order %s), at most %s: the budget given, tuning included",
				n6(s.Eps), n6(pv.Target.Delta), thmOf(r.Tune.Repetitions.Poisson()), n6(pv.ScoreRho), constantsPart(pv.ConstantsRho), n6(s.Order), n6(pv.Target.EpsDelta))},
		}...)
		if s.Accountant == accountant.PLD {
			rows[len(rows)-1][1] = fmt.Sprintf("ε' = %s at δ = %s for the whole search by its privacy profile (docs/privacy.md: the best of K runs has δ(ε₁ + ε₂) ≤ E[K]·δ_Q(ε₁), ε₂ = %s here, after Koskela, Redberg & Wang 2024; δ_Q the candidates' largest PLD profile; the score clip (ρ_s = %s)%s composed through its Rényi tail), at most %s: the budget given, tuning included; every noise multiplier is %s× the Rényi calibration's, at which Papernot & Steinke's bound would give ε' = %s (order %s)",
				n6(s.Eps), n6(pv.Target.Delta), n4(s.PLDShift), n6(pv.ScoreRho), constantsPart(pv.ConstantsRho), n6(pv.Target.EpsDelta), n4(s.PLDFactor), n6(s.RDPEps), n6(s.Order))
		}
		for _, d := range s.Dropped {
			rows = append(rows, [2]string{ts.Solver + " dropped", d})
		}
	}
	return rows
}

// bestPrivateLine is the table's "best private run" line ("" when fewer
// than two runs have an excess risk: nothing is compared).
func bestPrivateLine(r *engine.TuneReport) string {
	b, ok := r.BestPrivate()
	if !ok || !b.HasNext {
		return ""
	}
	run := func(p engine.PrivateRun) string {
		what := "prescribed"
		if p.Tuned {
			what = "tuned"
		}
		return p.Solver + " " + what
	}
	over := fmt.Sprintf("mean ± s.e. over %d trials", b.Best.Excess.N)
	if b.Best.Excess.N == 1 {
		over = "one trial: no standard error"
	}
	w0 := r.W0.Mean
	txt := fmt.Sprintf("best private run: %s, excess risk %s (%s)", run(b.Best), estText(b.Best.Excess), over)
	if v := W0TuneVerdict(b.Best.Excess.Mean, b.Best.Excess.SE, w0); v != "" {
		txt += " — " + v
	}
	switch {
	case math.IsNaN(b.Diff.SE):
		txt += fmt.Sprintf("; next %s, %s: one trial, so no standard error tells them apart", run(b.Next), nextVsW0(b.Next.Excess, w0))
	case b.Apart():
		txt += fmt.Sprintf("; next %s, %s: lower by %s ± %s on the same draws (paired), more than 2 s.e.", run(b.Next), nextVsW0(b.Next.Excess, w0), n4(b.Diff.Mean), n4(b.Diff.SE))
	default:
		txt += fmt.Sprintf("; next %s, %s: the paired difference %s ± %s is within 2 s.e., so the trials do not tell them apart", run(b.Next), nextVsW0(b.Next.Excess, w0), n4(b.Diff.Mean), n4(b.Diff.SE))
	}
	txt += "; every run meets the same (ε', δ), tuning included"
	if r.UserRows {
		txt += "; chosen by the excess risk on your rows, a non-private comparison"
	}
	return txt
}

// writeTunedW writes each trial's released w (--emit-w).
func writeTunedW(w io.Writer, r *engine.TuneReport) {
	for _, ts := range r.Solvers {
		if ts.Refused != "" {
			continue
		}
		for _, t := range ts.Tuned.Trials {
			parts := make([]string, len(t.W))
			for i, x := range t.W {
				parts[i] = theory.Plain.Format(x)
			}
			what := "its released candidate"
			if t.Chosen < 0 {
				what = "nothing released: w₀"
			}
			fmt.Fprintf(w, "w (%s, tuned, trial %d, %s) = [%s]\n", ts.Solver, t.Trial, what, strings.Join(parts, ", "))
		}
	}
}

// EmitW sets each trial's released w in j, Tune(r)'s document (dpso
// tune --emit-w): the chosen candidate's output, or w₀ where a Poisson
// search released nothing.
func (j *TuneJSON) EmitW(r *engine.TuneReport) {
	for si, ts := range r.Solvers {
		if si >= len(j.Solvers) || j.Solvers[si].Tuned == nil {
			continue
		}
		for ti, t := range ts.Tuned.Trials {
			w := make([]*float64, len(t.W))
			for c, x := range t.W {
				w[c] = theory.JSONNum(x)
			}
			j.Solvers[si].Tuned.Trials[ti].W = w
		}
	}
}

// EmitCandidates sets every candidate's output w in each trial's
// diagnostics of j, Tune(r)'s document (dpso tune --emit-candidates; the
// search's TuneSpec.KeepCandidates): not private — the search releases
// the chosen candidate's output only.
func (j *TuneJSON) EmitCandidates(r *engine.TuneReport) {
	for si, ts := range r.Solvers {
		if si >= len(j.Solvers) || j.Solvers[si].Tuned == nil {
			continue
		}
		for ti, t := range ts.Tuned.Trials {
			ws := make([][]*float64, len(t.Ws))
			for k, cw := range t.Ws {
				ws[k] = make([]*float64, len(cw))
				for c, x := range cw {
					ws[k][c] = theory.JSONNum(x)
				}
			}
			j.Solvers[si].Tuned.Trials[ti].Diagnostics.Ws = ws
		}
	}
}

// nextVsW0 is "mean ± s.e." with W0TuneVerdict's words in parentheses,
// for the runner-up inside the best private run's sentence.
func nextVsW0(e engine.Estimate, w0 float64) string {
	if v := W0TuneVerdict(e.Mean, e.SE, w0); v != "" {
		return estText(e) + " (" + v + ")"
	}
	return estText(e)
}
