package audit

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/solvers"
	"dpso/solvers/ledger"
	"dpso/solvers/oracle"
	"dpso/theory"
)

// Defaults and limits of an oracle audit.
const (
	// DefaultTrials is the default number of runs per input: μ̂ then has a
	// standard error of about 1.5/√N ≈ 0.0034 at μ = 1 and MuLower lies
	// about 8.3/√N ≈ 0.019 below μ (the Clopper–Pearson width at the
	// middle threshold, see analyze), so a negative control at 1.2 is
	// caught at ε ≥ 0.15.
	DefaultTrials = 200_000
	MinTrials     = 1000
	MaxTrials     = 100_000_000
	// DefaultClipS is the default batch size of the ℓ2-clipping oracles
	// (the audit's μ does not depend on it: the shift 2C/s and the noise
	// both scale with 1/s).
	DefaultClipS = 16
	MaxS         = 1_000_000
	MaxD         = scenarios.MaxD
	// MaxNegativeControl caps F.
	MaxNegativeControl = 1000
	// chunkRuns is the number of oracle runs of one chunk (one random
	// stream): the unit of parallel work, fixed so that results do not
	// depend on the number of workers.
	chunkRuns = 2048
)

// Config is an oracle audit. Zero fields take the documented defaults.
type Config struct {
	Oracle string  // registry name (oracle.Names); default "clip-gaussian"
	Eps    float64 // the claimed ε ∈ (0, ∞): zCDP ε (ρ = ε²/2) or the shuffle oracles' (ε, δ)-DP ε
	// Delta is the claimed δ ∈ (0, 1/2) of the shuffle oracles (default
	// spec.DefaultDelta); it must be 0 for the zCDP oracles.
	Delta float64
	D     int // dimension, [1, MaxD]; default 1
	// S is the batch size, [1, MaxS]; default DefaultClipS for the
	// ℓ2-clipping oracles and m (one vector per group) for the
	// coordinate-wise ones.
	S int
	// Groups is m for the coordinate-wise oracles, [0, S]; 0 is the
	// oracles' own default (oracle.DefaultGroups), as solvers use it.
	Groups int
	Trials int // runs per input, [MinTrials, MaxTrials]; default DefaultTrials
	// NegativeControl is F ∈ [1, MaxNegativeControl]: run the oracle at
	// budget F·ε while the claim stays ε (0 or 1: off). See [Oracle].
	NegativeControl float64
	Seed            uint64
	Rand            solvers.RandMode
	Workers         int // goroutines; 0 = GOMAXPROCS
	// Progress, if not nil, counts the audit's finished runs as they
	// finish (read it from any goroutine).
	Progress *Progress
}

// defaultOracle is the oracle an audit of an oracle uses when none is
// named: MeanOracle1, the paper's.
const defaultOracle = "clip-gaussian"

func specErr(field, format string, a ...any) error {
	return &scenarios.FieldError{Field: field, Msg: fmt.Sprintf(format, a...)}
}

// negativeControl is an audit's negative-control factor F (0: 1, no
// control), refused outside [1, MaxNegativeControl].
func negativeControl(f float64) (float64, error) {
	if f == 0 {
		return 1, nil
	}
	if !(f >= 1 && f <= MaxNegativeControl) {
		return f, specErr("negative-control", "F = %s; want F in [1, %s] (the factor by which the noise is weakened)", theory.FormatNumber(f), theory.FormatCount(MaxNegativeControl))
	}
	return f, nil
}

// resolve validates c and fills its defaults. The returned oracle kind
// comes from the registry.
func (c Config) resolve() (Config, oracle.Kind, error) {
	if c.Oracle == "" {
		c.Oracle = defaultOracle
	}
	kind, ok := oracle.KindOf(c.Oracle)
	if !ok {
		return c, 0, specErr("oracle", "%q is not an oracle; want one of %s", c.Oracle, strings.Join(oracle.Names(), ", "))
	}
	switch {
	case !(c.Eps > 0) || math.IsInf(c.Eps, 1):
		return c, 0, specErr("eps", "ε = %s; want a finite ε > 0 (an audit of ε = ∞ has no claim to test)", theory.FormatNumber(c.Eps))
	case kind == oracle.ZCDP && c.Delta != 0:
		return c, 0, specErr("delta", "δ applies to the shuffle oracles only; %s is ρ-zCDP with ρ = ε²/2", c.Oracle)
	case kind == oracle.Shuffle && c.Delta == 0:
		c.Delta = spec.DefaultDelta
	}
	if kind == oracle.Shuffle && !(c.Delta > 0 && c.Delta < 0.5) {
		return c, 0, specErr("delta", "δ = %s; want δ in (0, 1/2) (the shuffle protocols' range)", theory.FormatNumber(c.Delta))
	}
	if c.D == 0 {
		c.D = 1
	}
	if c.D < 1 || c.D > MaxD {
		return c, 0, specErr("d", "d = %s; want d in [1, %s]", theory.FormatCount(c.D), theory.FormatCount(MaxD))
	}
	coord := coordinateWise(c.Oracle)
	if c.Groups < 0 || (!coord && c.Groups != 0) {
		return c, 0, specErr("groups", "m = %d; want m ≥ 1 (0 for the default) for the coordinate-wise oracles, and 0 for the others", c.Groups)
	}
	if c.S == 0 {
		switch {
		case !coord:
			c.S = DefaultClipS
		case c.Groups > 0:
			c.S = c.Groups
		default:
			c.S = oracle.DefaultGroups(c.D, math.MaxInt)
		}
	}
	if c.S < 1 || c.S > MaxS {
		return c, 0, specErr("s", "s = %s; want s in [1, %s]", theory.FormatCount(c.S), theory.FormatCount(MaxS))
	}
	if c.Groups > c.S {
		return c, 0, specErr("groups", "m = %d groups of s = %d vectors; want m ≤ s", c.Groups, c.S)
	}
	if c.Trials == 0 {
		c.Trials = DefaultTrials
	}
	if c.Trials < MinTrials || c.Trials > MaxTrials {
		return c, 0, specErr("trials", "%s runs per input; want [%s, %s]", theory.FormatCount(c.Trials), theory.FormatCount(MinTrials), theory.FormatCount(MaxTrials))
	}
	var err error
	if c.NegativeControl, err = negativeControl(c.NegativeControl); err != nil {
		return c, 0, err
	}
	if c.Workers < 0 {
		return c, 0, specErr("workers", "%d; want ≥ 0 (0 = all cores)", c.Workers)
	}
	if c.Rand != solvers.Seeded && c.Rand != solvers.Secure {
		return c, 0, specErr("rand", "%v; want seeded or secure", c.Rand)
	}
	return c, kind, nil
}

func coordinateWise(name string) bool { return name == "coordinate" || name == "shuffle-coordinate" }

// budget is the per-call budget of the audited runs: the claim's,
// multiplied by F for a negative control (ρ·F², or F·ε for shuffle).
func (c Config) budget(kind oracle.Kind, f float64) ledger.Cost {
	return solvers.Config{Eps: c.Eps * f, Delta: c.Delta}.Budget(kind)
}

// noPrivacy is the budget that turns the oracle's privacy off.
func noPrivacy(kind oracle.Kind) ledger.Cost {
	if kind == oracle.Shuffle {
		return ledger.Cost{Eps: math.Inf(1)}
	}
	return ledger.Cost{Rho: math.Inf(1)}
}

// Neighbours are an oracle audit's two inputs: batches D0 and D1 of S
// vectors of dimension D that differ only in row Canary, and the unit
// Direction in which the oracle's noiseless output moves from D0 to D1.
type Neighbours struct {
	D0, D1    [][]float64
	Canary    int
	Direction []float64
	Clip      float64 // the clip parameter to call the oracle with (C, or τ)
	Groups    int     // m for the coordinate-wise oracles, else 0
}

// NewNeighbours builds worst-case neighbours for the named oracle with
// clip parameter 1 (C = 1 or τ = 1; μ does not depend on it).
//
// ℓ2-clipping oracles (clip-gaussian, shuffle-clip): every row is 0 except
// the canary, row 0, which is −C·e₁ in D0 and +C·e₁ in D1. The clipped
// mean moves by 2C/s along e₁, the full ℓ2 sensitivity 2C/s.
//
// Coordinate-wise oracles (coordinate, shuffle-coordinate), m groups
// (row i in group i mod m, q = ⌊s/m⌋): the canary is row m−1, the first
// of group m−1, which holds q rows; it is −τ·1 in D0 and +τ·1 in D1, and
// the other rows of its group are 0, so that group's mean moves from −τ/q
// to +τ/q in every coordinate. Of the other m − 1 groups (all rows of a
// group equal), ⌊(m−1)/2⌋ sit at −τ and ⌊(m−1)/2⌋ at +τ, and for even m
// one more at 0. For odd m the canary's group is the median group on both
// sides, so the median moves by 2τ/q in every coordinate: ℓ2 shift
// 2τ√d/q, the sensitivity the oracle is calibrated to (coordinate.go).
// For even m the median is the mean of the two middle group means, and it
// moves by (2τ/q)/2 = τ/q per coordinate here — which is the most
// possible: as one group mean rises, the sum of the two middle order
// statistics rises with slope 1 only while that value is one of them, so
// it moves by at most the group's change, and the median by half of it.
// The Gaussian oracle (coordinate) is calibrated to exactly that,
// Δ = τ√d/q for even m, so its audit is tight for every m. The shuffle
// oracle adds its noise per group, before the median, so its Δ = 2τ√d/q
// is not what its noise is calibrated to, and the shift here is half of
// it.
//
// Rows with the same values are one slice, shared by D0 and D1 (the
// oracles only read their rows): the batches take O(d) memory for the
// clip oracles and at most five distinct rows of d for the coordinate
// ones, whatever s. Every worker reads them at every run, so each row
// and the direction share no cache line with another object (isolated).
func NewNeighbours(name string, d, s, groups int) (Neighbours, error) {
	nb := Neighbours{Clip: 1, Direction: isolated[float64](d)}
	constant := func(v float64) []float64 {
		z := isolated[float64](d)
		for j := range z {
			z[j] = v
		}
		return z
	}
	zero := constant(0)
	nb.D0, nb.D1 = make([][]float64, s), make([][]float64, s)
	for i := range s {
		nb.D0[i], nb.D1[i] = zero, zero
	}
	switch name {
	case "clip-gaussian", "shuffle-clip":
		nb.D0[0], nb.D1[0] = isolated[float64](d), isolated[float64](d)
		nb.D0[0][0], nb.D1[0][0] = -1, 1
		nb.Direction[0] = 1
		return nb, nil
	case "coordinate", "shuffle-coordinate":
	default:
		return nb, fmt.Errorf("audit: no neighbours for oracle %q", name)
	}
	m := groups
	if m == 0 {
		m = oracle.DefaultGroups(d, s)
	}
	m = min(m, s)
	nb.Groups = m
	below := (m - 1) / 2
	middle := m - 1 - 2*below // 1 for even m, 0 for odd m
	level := func(g int) float64 {
		switch {
		case g < below:
			return -1
		case g < below+middle:
			return 0
		default:
			return 1
		}
	}
	nb.Canary = m - 1
	rowOf := map[float64][]float64{0: zero, -1: constant(-1), 1: constant(1)}
	for i := range s {
		g := i % m
		v := 0.0
		if g != m-1 {
			v = level(g)
		}
		nb.D0[i], nb.D1[i] = rowOf[v], rowOf[v]
	}
	nb.D0[nb.Canary], nb.D1[nb.Canary] = constant(-1), constant(1)
	u := 1 / math.Sqrt(float64(d))
	for j := range d {
		nb.Direction[j] = u
	}
	return nb, nil
}

// oracleDrawer runs one oracle on the two inputs.
type oracleDrawer struct {
	o    oracle.Oracle
	nb   *Neighbours
	d, s int
	cost ledger.Cost
	out  []float64
	last *rand.Rand
}

func newOracleDrawer(name string, groups int, nb *Neighbours, d, s int, cost ledger.Cost) (*oracleDrawer, error) {
	o, err := oracle.New(name)
	if err != nil {
		return nil, err
	}
	setGroups(o, groups)
	// The audit reads the outputs only: no norm histogram or quantiles
	// (sorting each call's norms was most of a run's time).
	if ds, ok := o.(oracle.DetailSetter); ok {
		ds.SetDetail(false)
	}
	return &oracleDrawer{o: o, nb: nb, d: d, s: s, cost: cost, out: isolated[float64](d)}, nil
}

// setGroups sets m on the coordinate-wise oracles.
func setGroups(o oracle.Oracle, m int) {
	switch c := o.(type) {
	case *oracle.Coordinate:
		c.M = m
	case *oracle.ShuffleCoordinate:
		c.M = m
	}
}

// call runs the oracle once on rows with budget b and randomness r, and
// returns its output (in dr.out) and the call's report.
func (dr *oracleDrawer) call(ctx context.Context, rows [][]float64, b ledger.Cost, r *rand.Rand) (oracle.Call, error) {
	if r != dr.last {
		oracle.SetRand(dr.o, r) // the shuffle oracles' local randomizers
		dr.last = r
	}
	if err := dr.o.Begin(dr.d, dr.s, dr.nb.Clip, b); err != nil {
		return oracle.Call{}, err
	}
	// A call adds s rows of d coordinates: check ctx every checkRows rows
	// (about 10⁷ coordinates), so that a call of 10⁶ rows × 10⁴
	// coordinates stops within a fraction of a second.
	checkRows := max(1, 10_000_000/max(1, dr.d))
	for i, z := range rows {
		if i%checkRows == 0 {
			if err := ctx.Err(); err != nil {
				return oracle.Call{}, err
			}
		}
		dr.o.Add(z)
	}
	return dr.o.Finish(dr.out, r), nil
}

func (dr *oracleDrawer) draw(ctx context.Context, side int, _ int, r *rand.Rand) (float64, error) {
	rows := dr.nb.D0
	if side == 1 {
		rows = dr.nb.D1
	}
	if _, err := dr.call(ctx, rows, dr.cost, r); err != nil {
		return 0, err
	}
	var x float64
	for j, u := range dr.nb.Direction {
		x += dr.out[j] * u
	}
	return x, nil
}

// Oracle audits one mean oracle black-box: it builds worst-case
// neighbouring batches ([NewNeighbours]), runs the oracle Trials times on
// each (plus a pilot of max(2000, Trials/10) runs each that chooses the
// thresholds), projects every output on the direction of the difference,
// and computes the bounds of [Result] (see analyze for the statistics).
//
// Randomness: runs are grouped in fixed chunks of 2048; chunk j of input
// D<side> in phase pilot or main draws everything (the oracle's noise and
// its local randomizers) from solvers.NewRand(Rand, Seed, j,
// "audit/<phase>/D<side>"). Chunks run on Workers goroutines and are
// merged in their fixed order, so a seeded audit is the same bit for bit
// for any number of workers.
//
// Negative control. With F = NegativeControl > 1 the oracle runs at budget
// F·ε — ρ·F² for the zCDP oracles, (F·ε, δ) for the shuffle ones — while
// the claim stays ε. For the Gaussian oracles σ = Δ/√(2ρ) is proportional
// to 1/ε, so this is exactly the oracle with its noise divided by F (and,
// in seeded mode, the very same normal draws, scaled); for the shuffle
// oracles it is the protocol designed for (F·ε, δ), whose binomial noise
// has about 1/F the standard deviation. No code path of the oracles
// themselves is changed, so nothing a solver runs can reach the weakened
// noise: only this audit option misreports the budget.
func Oracle(ctx context.Context, cfg Config) (*Result, error) {
	c, kind, err := cfg.resolve()
	if err != nil {
		return nil, err
	}
	c.Progress.start(max(2000, c.Trials/10), c.Trials)
	nb, err := NewNeighbours(c.Oracle, c.D, c.S, c.Groups)
	if err != nil {
		return nil, err
	}
	cost := c.budget(kind, c.NegativeControl)
	res := &Result{
		Oracle: c.Oracle, Kind: kind, Eps: c.Eps, Delta: math.NaN(),
		D: c.D, S: c.S, Groups: nb.Groups, NegativeControl: c.NegativeControl,
		Rand: c.Rand, Seed: c.Seed, Direction: nb.Direction,
	}
	if kind == oracle.Shuffle {
		res.Delta = c.Delta
	}
	// Check the budgets and measure the noiseless shift and the
	// calibrated sensitivity with one call each.
	probe, err := newOracleDrawer(c.Oracle, c.Groups, &nb, c.D, c.S, cost)
	if err != nil {
		return nil, err
	}
	r := solvers.NewRand(solvers.Seeded, 0, 0, "audit/probe")
	call, err := probe.call(ctx, nb.D0, c.budget(kind, 1), r)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		return nil, specErr("eps", "%v", err)
	}
	res.Sensitivity = call.Sensitivity
	if c.NegativeControl != 1 {
		if _, err := probe.call(ctx, nb.D0, cost, r); err != nil {
			return nil, specErr("negative-control", "the oracle refuses the weakened budget F·ε = %s: %v", theory.FormatNumber(c.Eps*c.NegativeControl), err)
		}
	}
	free := noPrivacy(kind)
	if _, err := probe.call(ctx, nb.D0, free, r); err != nil {
		return nil, err
	}
	pre0 := append([]float64(nil), probe.out...)
	if _, err := probe.call(ctx, nb.D1, free, r); err != nil {
		return nil, err
	}
	var ss float64
	for j := range pre0 {
		ss += (probe.out[j] - pre0[j]) * (probe.out[j] - pre0[j])
	}
	res.Shift = math.Sqrt(ss)
	if nb.Groups%2 == 0 && nb.Groups > 0 {
		note := fmt.Sprintf("m = %d groups is even: the median of group means moves by at most half of one group's change, so the most any neighbours can shift the output is %s", nb.Groups, theory.Sig4.Format(res.Shift))
		if kind == oracle.ZCDP {
			note += fmt.Sprintf(", the sensitivity %s the noise is calibrated to", theory.Sig4.Format(res.Sensitivity))
		} else {
			note += fmt.Sprintf(", half the reported sensitivity %s (the shuffle protocol's noise is per group, before the median)", theory.Sig4.Format(res.Sensitivity))
		}
		res.Notes = append(res.Notes, note+".")
	}

	p := plan{
		trials: c.Trials, pilot: max(2000, c.Trials/10), chunk: chunkRuns,
		workers: c.Workers, mode: c.Rand, seed: c.Seed, progress: c.Progress,
		// A run adds s rows of d coordinates: report every 2¹⁸ of them
		// (well under a millisecond), at most every 256 runs.
		tick: int(max(1, min(256, (1<<18)/(int64(c.S)*int64(c.D))))),
		newDrawer: func() (drawer, error) {
			dr, err := newOracleDrawer(c.Oracle, c.Groups, &nb, c.D, c.S, cost)
			if err == nil {
				// What a secure run releases: the Gaussian noise exact.
				oracle.SetExactNoise(dr.o, c.Rand == solvers.Secure)
			}
			return dr, err
		},
	}
	res.Pilot = p.pilot
	smp, err := p.collect(ctx)
	if err != nil {
		return nil, err
	}
	analyze(res, smp)
	return res, nil
}
