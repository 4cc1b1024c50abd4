package solvers

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"

	"dpso/solvers/accountant"
	"dpso/solvers/ledger"
	"dpso/solvers/noise"
	"dpso/solvers/oracle"
	"dpso/solvers/vec"
	"dpso/theory"
)

// dp-sgd's defaults (see [DPSGD] for why).
const (
	DefaultDPSGDBatch    = 256
	DefaultDPSGDEpochs   = 5
	DefaultDPSGDQuantile = 0.5
	DefaultDPSGDClipRate = 0.2
	// DefaultDPSGDDelta is the δ of dp-sgd's (ε', δ) when Config.Delta is 0:
	// the δ at which dpso shows every run's (ε', δ).
	DefaultDPSGDDelta = 1e-5
)

// DPSGD is "dp-sgd", DP-SGD as practitioners run it (Abadi et al. 2016, as
// in Opacus, TF Privacy and JAX Privacy), the baseline every heavy-tailed
// method is compared with. Each of T steps draws a Poisson batch (every
// sample independently with probability q = B/n), clips each per-sample
// gradient to ℓ2 norm C, adds N(0, z²C² I) to the sum, divides by the
// expected batch size B and takes a projected step:
//
//	w_{t+1} = Π_W(w_t − η·(Σ_{i∈batch} Π_C(∇f(w_t, x_i)) + N(0, z²C² I))/B),
//
// and returns the last iterate. It makes several passes, so it materializes
// the dataset.
//
// Privacy on equal terms. The run's zCDP ε (ρ = ε²/2) is turned into the
// exact (ε', δ) of a ρ-zCDP composition of Gaussian mechanisms (the Gaussian
// curve at μ = ε, [theory.EpsExact]; 4.3772 at ε = 1, δ = 10⁻⁵),
// at δ = Config.Delta (0: 10⁻⁵), and z is the smallest noise multiplier (PLD:
// to within an estimated 0.1%, [accountant.PredictMargin]) whose
// accounted ε' for T Poisson-subsampled Gaussian steps meets it
// ([accountant.CalibrateContext]; accountant PLD, or RDP by option) under the
// paper's replace-one adjacency (datasets at Hamming distance 1, the
// relation of the paper's solvers' ρ-zCDP), where replacing one record
// moves a sampled step's sum by up to 2C (add/remove, by option, counts C). The ledger
// records the T steps as one event (ledger.Event) charged to every sample,
// and the run ends by checking it against the target like every run.
//
// Defaults, from the declared constants only (never the data):
//
//   - B = min(256, n) (or B = qn for a given sampling rate q): the
//     expected batch of Opacus's and TF Privacy's examples; larger batches
//     lower the noise per step (zC/B) at a nearly constant z.
//   - E = 5 epochs, T = ⌈E·n/B⌉ = ⌈E/q⌉ steps (TF Privacy's count): a few
//     passes, as DP-SGD is run; work E·n gradients.
//   - C = r̃_k (B/(√d·z))^{1/k}: the threshold minimising the per-step
//     error bound of the clipped noisy mean, clipping bias
//     r̃_k^k/((k−1)C^{k−1}) (Lemma "bias and variance of bd14") plus noise
//     norm √d·zC/B; r̃_k at the run's k (k = ∞: C = L_f, no clipping bias).
//   - η = min{1/β, D/(G√T)} with G² = r̃_2²(1 + 1/B) + d(z_sum C/B)², a
//     bound on E‖g̃‖²: the step of projected SGD for a β-smooth convex F
//     (1/β alone when the noise is small; D/(G√T) otherwise); D/(G√T) when
//     β is not declared.
//   - Adaptive clipping (off by default): γ = 0.5 (the median), η_C = 0.2
//     and σ_b = B/20 (Andrew et al.'s recommendations), starting from the C
//     above. Its noisy count b̃ = (Σ_batch (1[‖g_i‖ ≤ C] − ½) + N(0, σ_b²))/B + ½
//     (sensitivity ½) shares the budget by Andrew et al.'s Theorem 1: the
//     sum uses z_sum = (z⁻² − (2σ_b)⁻²)^{−1/2}, so that sum and count
//     together are one Gaussian mechanism with multiplier z, which the
//     accountant composes (2σ_b > z is required). The C of each step is
//     each checkpoint's Batch.Threshold.
//
// ε = ∞: no noise and, unless Config.Clip is given, no clipping (plain SGD
// with Poisson batches). Config.Iters overrides T, Config.Clip the
// (initial) C, Config.Step η, Config.Delta the δ of the target; the oracle
// must be clip-gaussian (per-sample ℓ2 clipping, Gaussian noise).
//
// Its fields are its settings (dpsgdSettings names them); the zero value
// is the defaults above.
type DPSGD struct {
	// Accountant is "pld" (default) or "rdp".
	Accountant string
	// Adjacency is the neighbouring relation the accountant calibrates
	// under: "replace-one" (default: the paper's, and every other
	// solver's) or "add-remove" (Opacus's and TF Privacy's, to reproduce
	// practitioners' figures; one record then moves a step's sum by C
	// instead of 2C).
	Adjacency string
	// Batch is the expected batch size B = qn (0: min(DefaultDPSGDBatch, n)).
	Batch int
	// SamplingRate is the Poisson rate q ∈ (0, 1] instead of Batch (not
	// both): B = qn, which need not be an integer.
	SamplingRate float64
	// Epochs is E, the expected number of passes over the data; the run
	// makes T = ⌈E·n/B⌉ steps (0: DefaultDPSGDEpochs). Config.Iters
	// overrides T.
	Epochs float64
	// Adaptive turns on quantile-based adaptive clipping (Andrew et al.
	// 2021): after each step C ← C·exp(−η_C(b̃ − γ)).
	Adaptive bool
	// Quantile is the target quantile γ ∈ (0, 1) of the gradient norms
	// (0: DefaultDPSGDQuantile).
	Quantile float64
	// ClipRate is η_C > 0 (0: DefaultDPSGDClipRate).
	ClipRate float64
	// CountNoise is σ_b, the standard deviation of the noise on the clipped
	// count (0: B/20).
	CountNoise float64
	// Multiplier, when > 0, is the noise multiplier z itself, not
	// calibrated to the run's ε (not a user setting): the caller accounts
	// the run — a private search's candidate, whose z keeps its Rényi
	// curve under the search's — and the ledger records the RDP
	// accountant's (ε', δ) of that z.
	Multiplier float64
}

// dpsgdSettings are dp-sgd's settings, by the names its ConfigErrors give
// them.
var dpsgdSettings = Settings{Names: []string{"accountant", "adjacency", "batch", "sampling-rate", "epochs", "adaptive-clip", "clip-quantile", "clip-rate", "clip-count-noise"}}

// WithSettings implements Configurable.
func (DPSGD) WithSettings(v SettingValues) Solver {
	return DPSGD{Accountant: v.String("accountant"), Adjacency: v.String("adjacency"), Batch: v.Int("batch"), SamplingRate: v.Float("sampling-rate"), Epochs: v.Float("epochs"),
		Adaptive: v.Bool("adaptive-clip"), Quantile: v.Float("clip-quantile"), ClipRate: v.Float("clip-rate"), CountNoise: v.Float("clip-count-noise")}
}

// Name implements Solver.
func (DPSGD) Name() string { return "dp-sgd" }

// Describe implements Solver.
func (DPSGD) Describe() string {
	return "DP-SGD as practitioners run it: Poisson batches, per-sample clipping, several epochs, noise calibrated by a PLD (or RDP) accountant (Abadi et al. 2016)"
}

type dpsgdPlan struct {
	B        float64 // expected batch size qn
	q        float64
	T        int
	clip     float64
	eta      float64
	z, zSum  float64 // accounted and sum noise multipliers
	sigmaB   float64 // count noise (adaptive)
	quantile float64
	clipRate float64
	adaptive bool
	target   float64 // ε' target (+Inf without privacy)
	prior    float64 // ρ₀ of a zCDP release before the steps (Config.PriorRho), composed into target
	delta    float64
	acct     accountant.Kind
	adj      accountant.Adjacency
	bound    bool
}

func (s DPSGD) options(n int) (DPSGD, accountant.Kind, accountant.Adjacency, error) {
	o := s
	kind := accountant.PLD
	adj := accountant.ReplaceOne
	if o.Accountant != "" {
		k, err := accountant.ParseKind(o.Accountant)
		if err != nil {
			return o, kind, adj, &ConfigError{"accountant", fmt.Sprintf("%q; want rdp or pld", o.Accountant)}
		}
		kind = k
	}
	if o.Adjacency != "" {
		a, err := accountant.ParseAdjacency(o.Adjacency)
		if err != nil {
			return o, kind, adj, &ConfigError{"adjacency", fmt.Sprintf("%q; want replace-one or add-remove", o.Adjacency)}
		}
		adj = a
	}
	switch {
	case o.Batch > 0 && o.SamplingRate > 0:
		return o, kind, adj, &ConfigError{"sampling-rate", "give the batch once: the expected batch size B, or the sampling rate q = B/n, not both"}
	case math.IsNaN(o.SamplingRate) || o.SamplingRate < 0 || o.SamplingRate > 1:
		return o, kind, adj, &ConfigError{"sampling-rate", fmt.Sprintf("q = %s; want q in (0, 1], or 0 for B/n", exactNum(o.SamplingRate))}
	case o.Batch < 0 || o.Batch > n:
		return o, kind, adj, &ConfigError{"batch", fmt.Sprintf("expected batch size B = %d; want 1 ≤ B ≤ n = %d, or 0 for min(%d, n)", o.Batch, n, DefaultDPSGDBatch)}
	case math.IsNaN(o.Epochs) || o.Epochs < 0 || math.IsInf(o.Epochs, 1):
		return o, kind, adj, &ConfigError{"epochs", fmt.Sprintf("E = %s; want a finite E > 0, or 0 for %d", exactNum(o.Epochs), DefaultDPSGDEpochs)}
	case math.IsNaN(o.Quantile) || o.Quantile < 0 || o.Quantile >= 1:
		return o, kind, adj, &ConfigError{"clip-quantile", fmt.Sprintf("γ = %s; want γ in (0, 1), or 0 for %s", exactNum(o.Quantile), exactNum(DefaultDPSGDQuantile))}
	case math.IsNaN(o.ClipRate) || o.ClipRate < 0 || math.IsInf(o.ClipRate, 1):
		return o, kind, adj, &ConfigError{"clip-rate", fmt.Sprintf("η_C = %s; want a finite η_C > 0, or 0 for %s", exactNum(o.ClipRate), exactNum(DefaultDPSGDClipRate))}
	case math.IsNaN(o.CountNoise) || o.CountNoise < 0 || math.IsInf(o.CountNoise, 1):
		return o, kind, adj, &ConfigError{"clip-count-noise", fmt.Sprintf("σ_b = %s; want a finite σ_b > 0, or 0 for B/20", exactNum(o.CountNoise))}
	case math.IsNaN(o.Multiplier) || o.Multiplier < 0 || math.IsInf(o.Multiplier, 1):
		return o, kind, adj, &ConfigError{"eps", fmt.Sprintf("noise multiplier z = %s; want a finite z > 0, or 0 to calibrate it", exactNum(o.Multiplier))}
	}
	if o.SamplingRate > 0 {
		o.Batch = max(1, int(math.Round(o.SamplingRate*float64(n))))
	}
	if o.Batch == 0 {
		o.Batch = min(DefaultDPSGDBatch, n)
	}
	if o.Epochs == 0 {
		o.Epochs = DefaultDPSGDEpochs
	}
	if o.Quantile == 0 {
		o.Quantile = DefaultDPSGDQuantile
	}
	if o.ClipRate == 0 {
		o.ClipRate = DefaultDPSGDClipRate
	}
	if o.CountNoise == 0 {
		o.CountNoise = expectedBatch(o, n) / 20
	}
	return o, kind, adj, nil
}

func (s DPSGD) plan(p Problem, n int, cfg Config) (dpsgdPlan, Params, error) {
	c, _, err := prepMulti(s.Name(), p, n, 1, cfg, "clip-gaussian")
	if err != nil {
		return dpsgdPlan{}, Params{}, err
	}
	if name := oracleName(cfg, "clip-gaussian"); name != "clip-gaussian" {
		return dpsgdPlan{}, Params{}, &ConfigError{"oracle", fmt.Sprintf("dp-sgd clips each per-sample gradient in ℓ2 and adds Gaussian noise to the sum (clip-gaussian); %q is not it", name)}
	}
	o, kind, adj, err := s.options(n)
	if err != nil {
		return dpsgdPlan{}, Params{}, err
	}
	d := float64(p.Dim())
	D, _ := c.D()
	k, eps := cfg.K, cfg.Eps
	bf := expectedBatch(o, n)
	pl := dpsgdPlan{B: bf, q: bf / float64(n), adaptive: o.Adaptive,
		quantile: o.Quantile, clipRate: o.ClipRate, acct: kind, adj: adj, delta: DefaultDPSGDDelta}
	if cfg.Delta != 0 {
		if !(cfg.Delta > 0 && cfg.Delta < 1) {
			return dpsgdPlan{}, Params{}, &ConfigError{"delta", fmt.Sprintf("δ = %s; want δ in (0, 1)", exactNum(cfg.Delta))}
		}
		pl.delta = cfg.Delta
	}
	if pr := cfg.PriorRho; !(pr >= 0) || math.IsInf(pr, 1) {
		return dpsgdPlan{}, Params{}, &ConfigError{"constants", fmt.Sprintf("the prior release's ρ₀ = %s; want a finite ρ₀ ≥ 0", exactNum(pr))}
	} else if !math.IsInf(eps, 1) {
		pl.prior = pr
	}
	var notes []string
	// T, cut by the work budget (expected gradient evaluations T·B).
	budget := cfg.WorkBudget
	if budget == 0 {
		budget = DefaultWorkBudget
	}
	pl.T = cfg.Iters
	if pl.T == 0 {
		T, _ := ceilClamp(o.Epochs/pl.q, 1, math.MaxInt32)
		pl.T = T
	}
	if float64(pl.T)*bf > float64(budget) {
		t0 := pl.T
		pl.T, pl.bound = int(max(1, math.Floor(float64(budget)/bf))), true
		notes = append(notes, fmt.Sprintf("the work budget of %s gradient evaluations binds: T = %d steps of expected batch %s are cut to %d (the noise is calibrated to the T run)", num4(float64(budget)), t0, num6(bf), pl.T))
	}
	// Privacy: the target ε' and the noise multiplier.
	switch {
	case math.IsInf(eps, 1):
		pl.target = math.Inf(1)
	case o.Multiplier > 0:
		// A given z: the run is what its accountant says it is.
		z := o.Multiplier
		e, err := givenEpsilon(z, pl.q, pl.T, pl.delta)
		if err == nil && pl.prior > 0 {
			e, err = accountant.AfterZCDPMechanismEpsilon(accountant.RDP, accountant.Mechanism{Sigma: z, Q: pl.q, Steps: pl.T}, pl.prior, pl.delta)
		}
		if err != nil {
			return dpsgdPlan{}, Params{}, &ConfigError{"eps", fmt.Sprintf("dp-sgd at the given noise multiplier z = %s: %v", num6(z), err)}
		}
		pl.acct, pl.target, pl.z, pl.zSum = accountant.RDP, e, z, z
		what := fmt.Sprintf("T = %d Poisson-subsampled Gaussian steps (q = %s) are", pl.T, num4(pl.q))
		if pl.prior > 0 {
			what = fmt.Sprintf("the private constants' ρ₀ = %s zCDP release and T = %d Poisson-subsampled Gaussian steps (q = %s) after it are together", num4(pl.prior), pl.T, num4(pl.q))
		}
		notes = append(notes, fmt.Sprintf("noise multiplier z = %s, given (not calibrated to ε): %s (ε', δ) = (%s, %s)-DP by the RDP accountant", num6(z), what, num6(e), exactNum(pl.delta)))
		if o.Adaptive {
			pl.sigmaB = o.CountNoise
			if !(2*pl.sigmaB > z) {
				return dpsgdPlan{}, Params{}, &ConfigError{"clip-count-noise", fmt.Sprintf("adaptive clipping needs 2σ_b > z: σ_b = %s, z = %s (the count's noise must be smaller in privacy cost than the whole budget)", num4(pl.sigmaB), num6(z))}
			}
			pl.zSum = 1 / math.Sqrt(1/(z*z)-1/(4*pl.sigmaB*pl.sigmaB))
		}
	default:
		// The target is the exact ε' of the whole ρ, the prior release's
		// included, which the calibration composes with the steps.
		pl.target = theory.EpsExact(math.Sqrt(2*(theory.Rho(eps)+pl.prior)), pl.delta)
		ctx := cfg.Context
		if ctx == nil {
			ctx = context.Background()
		}
		z, err := accountant.CalibrateAfterZCDP(ctx, kind, adj, pl.q, pl.T, pl.prior, pl.target, pl.delta)
		if ctx.Err() != nil {
			return dpsgdPlan{}, Params{}, ctx.Err()
		}
		if errors.Is(err, accountant.ErrGridTooLarge) {
			return dpsgdPlan{}, Params{}, &ConfigError{"eps", fmt.Sprintf("dp-sgd cannot be calibrated to (ε', δ) = (%s, %s) by the PLD accountant: at q = %s, T = %s its privacy loss grid passes its cap of %s points where the noise multiplier would have to be (a small σ or a large T widens it); use the rdp accountant, or a smaller ε", num6(pl.target), exactNum(pl.delta), num4(pl.q), theory.FormatCount(pl.T), theory.Sig4.Format(accountant.MaxGridPoints))}
		}
		if err != nil {
			var ce *accountant.CalibrationError
			if errors.As(err, &ce) {
				err = ce.Err // the question is the message's (ε', δ), q and T are the plan's
			}
			return dpsgdPlan{}, Params{}, &ConfigError{"eps", fmt.Sprintf("dp-sgd cannot meet (ε', δ) = (%s, %s) at q = %s, T = %s: %v", num6(pl.target), exactNum(pl.delta), num4(pl.q), theory.FormatCount(pl.T), err)}
		}
		pl.z, pl.zSum = z, z
		smallest := "the smallest"
		if kind == accountant.PLD {
			// The fast path's answer: verified on the default grid, a
			// margin above its prediction (accountant.PredictMargin).
			smallest = "within " + accountant.PredictMarginWords() + " of the smallest"
		}
		if pl.prior > 0 {
			notes = append(notes, fmt.Sprintf("noise multiplier z = %s: the smallest (to relative %s) whose %s-accounted ε' for the private constants' ρ₀ = %s zCDP release followed by T = %d Poisson-subsampled Gaussian steps (q = %s) under %s adjacency is at most %s, the exact ε' of the whole ρ = ρ₀ + ε²/2 = %s zCDP at δ = %s (the release's privacy loss bounded by zCDP's tail; the other solvers spend the same ρ)", num6(z), exactNum(accountant.CalibrateTol), kind, num4(pl.prior), pl.T, num4(pl.q), adj, num6(pl.target), num4(theory.Rho(eps)+pl.prior), exactNum(pl.delta)))
		} else {
			notes = append(notes, fmt.Sprintf("noise multiplier z = %s: %s whose %s-accounted ε' for T = %d Poisson-subsampled Gaussian steps (q = %s) under %s adjacency is at most %s, the exact ε' of ρ = ε²/2 = %s zCDP at δ = %s", num6(z), smallest, kind, pl.T, num4(pl.q), adj, num6(pl.target), num4(theory.Rho(eps)), exactNum(pl.delta)))
		}
		if o.Adaptive {
			pl.sigmaB = o.CountNoise
			if !(2*pl.sigmaB > z) {
				return dpsgdPlan{}, Params{}, &ConfigError{"clip-count-noise", fmt.Sprintf("adaptive clipping needs 2σ_b > z: σ_b = %s, z = %s (the count's noise must be smaller in privacy cost than the whole budget)", num4(pl.sigmaB), num6(z))}
			}
			pl.zSum = 1 / math.Sqrt(1/(z*z)-1/(4*pl.sigmaB*pl.sigmaB))
		}
	}
	// C.
	C := cfg.Clip
	if C == 0 {
		switch {
		case math.IsInf(eps, 1) && !o.Adaptive:
			C = inf
		case math.IsInf(eps, 1):
			r2, err := c.r2()
			if err != nil {
				return dpsgdPlan{}, Params{}, err
			}
			C = r2
		default:
			rk, err := c.rk()
			if err != nil {
				return dpsgdPlan{}, Params{}, err
			}
			C = rk * math.Pow(bf/(math.Sqrt(d)*pl.z), invK(k))
		}
	}
	pl.clip = C
	// η.
	eta := cfg.Step
	if eta == 0 {
		r2, err := c.r2()
		if err != nil {
			return dpsgdPlan{}, Params{}, err
		}
		g2 := r2 * r2 * (1 + 1/bf)
		if pl.zSum > 0 {
			ns := pl.zSum * C / bf
			g2 += d * ns * ns
		}
		eta = D / (math.Sqrt(g2) * math.Sqrt(float64(pl.T)))
		if beta, err := c.beta(); err == nil {
			eta = math.Min(eta, 1/beta)
		}
	}
	pl.eta = eta
	notes = append([]string{fmt.Sprintf("dp-sgd: T = %d steps of Poisson batches with rate q = B/n = %s/%d (%s epochs); each step clips per-sample gradients to C and adds N(0, (z·C)²) to their sum before dividing by B", pl.T, num6(bf), n, num4(float64(pl.T)*pl.q))}, notes...)
	if o.Adaptive {
		notes = append(notes, fmt.Sprintf("adaptive clipping (Andrew et al. 2021): C ← C·exp(−%s(b̃ − %s)) after each step from C₀ = %s; the clipped count's noise σ_b = %s and the sum's multiplier z_sum = %s make sum and count one Gaussian mechanism with multiplier z (their Theorem 1)", exactNum(o.ClipRate), exactNum(o.Quantile), num4(C), num4(pl.sigmaB), num6(pl.zSum)))
	}
	sigma := 0.0
	if pl.zSum > 0 {
		sigma = pl.zSum * C / bf
	}
	pr := Params{
		Iters:       pl.T,
		Batch:       o.Batch,
		Clip:        C,
		Sigma:       sigma,
		Step:        eta,
		GradEvals:   int64(math.Round(float64(pl.T) * bf)),
		Notes:       notes,
		BudgetBound: pl.bound,
	}
	markOverrides(&pr, cfg)
	return pl, pr, nil
}

// expectedBatch is B = qn: SamplingRate·n when the rate is given, else
// Batch (resolved by options).
func expectedBatch(o DPSGD, n int) float64 {
	if o.SamplingRate > 0 {
		return o.SamplingRate * float64(n)
	}
	return float64(o.Batch)
}

// Prescribe implements Solver.
func (s DPSGD) Prescribe(p Problem, n int, cfg Config) (Params, error) {
	_, pr, err := s.plan(p, n, cfg)
	return pr, err
}

// event is the ledger record of the plan's T steps with their accounted
// (ε', δ); for PLD also the proved lower bound on the exact ε'. Events are
// cached by mechanism (every trial of a run has the same one).
func (pl dpsgdPlan) event() (ledger.Event, error) {
	e := ledger.Event{Mechanism: "poisson-subsampled-gaussian", Q: pl.q, Sigma: pl.z, Steps: pl.T,
		Accountant: pl.acct.String(), Adjacency: pl.adj.String(), Delta: pl.delta, Eps: math.Inf(1), EpsLower: math.NaN(), PriorRho: pl.prior}
	if math.IsInf(pl.target, 1) {
		return e, nil
	}
	key := eventKey{pl.q, pl.z, pl.T, pl.acct, pl.adj, pl.delta, pl.prior}
	if v, ok := eventCache.Load(key); ok {
		return v.(ledger.Event), nil
	}
	m := accountant.Mechanism{Sigma: pl.z, Q: pl.q, Steps: pl.T, Adjacency: pl.adj}
	var err error
	if pl.acct == accountant.PLD {
		e.EpsLower, e.Eps, err = accountant.PLDBounds(m, pl.delta, accountant.PLDOptions{})
	} else {
		e.Eps, _, err = accountant.RDPEpsilon(m, pl.delta, nil)
	}
	if err == nil && pl.prior > 0 {
		// The steps after the prior release: the two composed.
		e.Eps, err = accountant.AfterZCDPMechanismEpsilon(pl.acct, m, pl.prior, pl.delta)
	}
	if err == nil {
		eventCache.Store(key, e)
	}
	return e, err
}

type eventKey struct {
	q, z  float64
	T     int
	acct  accountant.Kind
	adj   accountant.Adjacency
	delta float64
	prior float64
}

// eventCache maps a mechanism to its accounted event.
var eventCache sync.Map

// givenKey is a given-multiplier plan's mechanism: z, q, T and δ.
type givenKey struct {
	z, q, delta float64
	T           int
}

// givenCache maps a givenKey to its RDP-accounted ε'.
var givenCache sync.Map

// givenEpsilon is the RDP-accounted ε' at δ of T Poisson-subsampled
// Gaussian steps at sampling rate q and noise multiplier z (accountant.Epsilon
// under the accountant's default adjacency), cached: a search's grid
// prescribes every point at one placeholder z, and its points share a few
// (q, T), so each (z, q, T, δ) is accounted once per process.
func givenEpsilon(z, q float64, T int, delta float64) (float64, error) {
	key := givenKey{z: z, q: q, delta: delta, T: T}
	if v, ok := givenCache.Load(key); ok {
		return v.(float64), nil
	}
	e, err := accountant.Epsilon(accountant.RDP, accountant.Mechanism{Sigma: z, Q: q, Steps: T}, delta)
	if err == nil {
		givenCache.Store(key, e)
	}
	return e, err
}

// Run implements Solver. It materializes the dataset (multi-pass).
func (s DPSGD) Run(ctx context.Context, p Problem, data Samples, cfg Config) (Result, error) {
	cfg.Context = ctx
	pl, pr, err := s.plan(p, data.Len(), cfg)
	if err != nil {
		return Result{Solver: s.Name()}, err
	}
	res := Result{Solver: s.Name(), Params: pr, Notes: pr.Notes, BudgetBound: pl.bound}
	m, release, err := loadDataset(ctx, s.Name(), data, cfg.Workers)
	if err != nil {
		return res, err
	}
	defer release()
	n, d := m.Len(), p.Dim()
	R := p.Constants().Radius()
	private := !math.IsInf(pl.target, 1)
	// Config.NoNoise: the same schedule (T, q, C, η, the same Poisson
	// batches) with noise multiplier 0 on the sum and on the adaptive
	// count, which is what ε = ∞ with C, T and η given runs; not private.
	noNoise := cfg.NoNoise && private
	r, err := newRunner(ctx, p, cfg, "clip-gaussian", private, n, m.Dim, pr.GradEvals, pl.T)
	if err != nil {
		return res, err
	}
	res.Oracle = "clip-gaussian"
	r.perIter = pl.B // checkpoints at the same steps in every trial
	zSum := pl.zSum
	if noNoise {
		zSum = 0
		ev := ledger.Event{Mechanism: "poisson-subsampled-gaussian", Q: pl.q, Sigma: 0, Steps: pl.T, Accountant: pl.acct.String(),
			Adjacency: pl.adj.String(), Delta: pl.delta, Eps: math.Inf(1), EpsLower: math.Inf(1)}
		if err := r.led.Record(0, n, ev); err != nil {
			return res, fmt.Errorf("%w (this is a bug)", err)
		}
	} else {
		r.fixedBudget = &ledger.Cost{Eps: pl.target, Delta: pl.delta}
		ev, err := pl.event()
		if err != nil {
			return res, fmt.Errorf("dp-sgd: accounting: %w", err)
		}
		// The whole composition is charged before anything is released.
		if err := r.led.Record(0, n, ev); err != nil {
			return res, fmt.Errorf("%w (this is a bug)", err)
		}
	}
	sampler := NewRand(cfg.Rand, cfg.Seed, cfg.Trial, "poisson")
	ns := &oracle.NoisySum{Multiplier: zSum, Divisor: pl.B}
	ns.SetExactNoise(cfg.Rand == Secure)
	var countNoise noise.Sampler // the adaptive clipping's count, exact as the sum's
	countNoise.SetExact(cfg.Rand == Secure)
	w := make([]float64, d)
	// batches holds this step's Poisson batch (its first k indices) and
	// the next step's after it: the sampler is read by nothing else, so
	// drawing a batch one step early draws the same batches, and the rows
	// of the next batch are asked for while this one's last rows are fed.
	// Two batches hold 2B ± √(2B) indices (2n at q = 1): room for 5.6
	// standard deviations above.
	batches := make([]int, 0, int(2*pl.B+8*math.Sqrt(pl.B))+32)
	if pl.T > 0 {
		batches = poissonAppend(batches, n, pl.q, sampler)
		vec.PrefetchRows(m.Data, batches[:min(gatherAhead, len(batches))], m.Dim)
	}
	rows := newGathered(r.block, m.Dim)
	blk := min(gatherBlock, r.block)
	factored := r.lin != nil && r.lin.L2() == 0
	C := pl.clip
	if err := r.start(w); err != nil {
		r.abort(w, &res)
		return res, err
	}
	for t := 0; t < pl.T; t++ {
		k := len(batches)
		if t+1 < pl.T {
			batches = poissonAppend(batches, n, pl.q, sampler)
		}
		idx := batches[:k]
		// The batch's norm distribution is kept only for a step whose
		// statistics a checkpoint shows (r.step's schedule).
		ns.SetDetail(cfg.batchDetail() && (t+1 >= pl.T || r.prog.peek(int64(float64(t+1)*r.perIter))))
		if err := ns.Begin(d, len(idx), C); err != nil {
			r.abort(w, &res)
			return res, &ConfigError{"clip", err.Error()}
		}
		for lo := 0; lo < len(idx); lo += blk {
			a := min(lo+gatherAhead, len(batches))
			xs := vec.GatherRows(rows.buf, m.Data, idx[lo:min(lo+blk, len(idx))], batches[a:min(a+blk, len(batches))], m.Dim)
			if factored {
				rows.feedLinear(r.lin, ns, w[:d], xs, m.Dim)
			} else {
				for j := 0; j < len(xs); j += m.Dim {
					p.Grad(r.g, w, xs[j:j+m.Dim:j+m.Dim])
					ns.Add(r.g)
				}
			}
			if err := r.ticks(len(xs) / m.Dim); err != nil {
				r.abort(w, &res)
				return res, err
			}
		}
		r.last = ns.Finish(r.est, r.rng)
		r.nonFinite += int64(r.last.NonFinite)
		r.clipped += int64(r.last.Clipped) // as runner.call counts every oracle call's
		r.fed += int64(r.last.Size)
		for j := range w {
			w[j] -= pl.eta * r.est[j]
		}
		vec.ProjectBall(w, R)
		if pl.adaptive {
			b := float64(ns.Unclipped()) - float64(len(idx))/2
			if pl.sigmaB > 0 && private && !noNoise {
				b = countNoise.Add(b, pl.sigmaB, r.rng)
			}
			b = b/pl.B + 0.5
			C *= math.Exp(-pl.clipRate * (b - pl.quantile))
		}
		if err := r.step(w); err != nil {
			r.abort(w, &res)
			return res, err
		}
		batches = batches[:copy(batches, batches[k:])]
	}
	err = r.end(w, &res)
	return res, err
}

// gatherBlock is the number of a batch's rows dp-sgd copies out and feeds
// at once (at most the runner's block), and gatherAhead how many rows
// ahead of the rows it copies it asks for the next ones
// (vec.GatherRows, vec.GatherGroup rows at a time between the copies),
// across the end of a step into the next batch, so that the rows are on
// their way from memory while the arithmetic of the blocks before runs.
// The batch's rows are fed in order, so the sums are the same bits for
// any block and distance.
const gatherBlock, gatherAhead = 32, 64

// gathered is a block of a batch's rows copied out of the dataset, one
// after the other, for the row kernels to read in order (vec.GatherRows),
// and the block's scores, squared norms and slopes.
type gathered struct {
	buf, score, sq, slope []float64
}

func newGathered(block, sd int) *gathered {
	return &gathered{buf: make([]float64, block*sd), score: make([]float64, block), sq: make([]float64, block), slope: make([]float64, block)}
}

// feedLinear feeds the gradients of a LinearLoss without an in-loss ℓ2
// term at w for the block's rows xs to ns in factored form, as the
// one-pass solvers do (runner.feedLinear): the scores ⟨w, a_i⟩ and ‖a_i‖²
// in one pass, the slopes, then the clipped slope·a_i accumulated.
func (g *gathered) feedLinear(lin LinearLoss, ns *oracle.NoisySum, w, xs []float64, sd int) {
	nb := len(xs) / sd
	score, sq, slope := g.score[:nb], g.sq[:nb], g.slope[:nb]
	vec.DotSqRows(score, sq, w, xs, sd)
	lin.Slopes(slope, score, xs, sd)
	ns.AddScaled(slope, sq, xs, sd)
}

// poissonAppend appends to idx a Poisson sample of {0, …, n−1} (each
// index independently with probability q), in increasing order, by
// geometric skips: the gap to the next included index is 1 + ⌊E/λ⌋ with
// E ~ Exp(1) (rand.ExpFloat64, a ziggurat: no logarithm on its fast path)
// and λ = −ln(1 − q), so that P(gap > k) = P(E ≥ kλ) = (1 − q)^k. O(qn)
// draws; allocation-free once idx has grown.
func poissonAppend(idx []int, n int, q float64, r *rand.Rand) []int {
	if q >= 1 {
		for i := range n {
			idx = append(idx, i)
		}
		return idx
	}
	if q <= 0 {
		return idx
	}
	lambda := -math.Log1p(-q)
	i := -1
	for {
		skip := math.Floor(r.ExpFloat64() / lambda)
		if skip >= float64(n) {
			return idx
		}
		i += 1 + int(skip)
		if i >= n {
			return idx
		}
		idx = append(idx, i)
	}
}
