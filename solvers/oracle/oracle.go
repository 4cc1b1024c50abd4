package oracle

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"gonum.org/v1/gonum/stat"

	"dpso/solvers/ledger"
)

// Kind tells which privacy model an oracle's cost is stated in.
type Kind int

const (
	// ZCDP oracles are Gaussian mechanisms charged in ρ.
	ZCDP Kind = iota
	// Shuffle oracles are (ε, δ)-shuffle DP protocols charged in (ε, δ).
	Shuffle
)

// Oracle is a private mean estimator used once per call as
// Begin, s × Add, Finish. An Oracle is not safe for concurrent use; each run
// owns its own (see [New]).
type Oracle interface {
	// Name is the oracle's registry name, e.g. "clip-gaussian".
	Name() string
	// Kind is the privacy model of its cost.
	Kind() Kind
	// Threshold maps the ℓ2 clip threshold C that a theorem prescribes for
	// MeanOracle1 to this oracle's own clip parameter for dimension d (the
	// identity for ℓ2-clipping oracles).
	Threshold(c float64, d int) float64
	// Begin starts a call on a batch of s vectors of dimension d, clip
	// parameter c (as returned by Threshold) and per-sample privacy budget
	// b: b.Rho for ZCDP oracles (+Inf: add no noise), (b.Eps, b.Delta) for
	// Shuffle oracles (b.Eps = +Inf: run the protocol without privacy).
	// It returns an error for parameters outside the oracle's range (the
	// error names the parameter and the range). Oracles whose local
	// randomizer draws per-sample randomness ([LocalRandomizer]) also
	// return an error if no random stream was set with [SetRand].
	Begin(d, s int, c float64, b ledger.Cost) error
	// Add feeds one per-sample vector. It must be called exactly s times
	// between Begin and Finish with len(z) = d, and does not allocate.
	// Calling it with another length, or more than s times, is a
	// programming error and panics.
	Add(z []float64)
	// Finish writes the private mean estimate into out (len ≥ d), drawing
	// the mechanism's randomness from r, and reports the call. Calling it
	// after fewer than s Adds is a programming error and panics.
	Finish(out []float64, r *rand.Rand) Call
}

// LocalRandomizer is implemented by the oracles whose per-sample step is
// itself randomized: the shuffle oracles' local randomizers R_1D and R_vec
// round every input at random before it leaves the user (Algorithm "P1D").
// Their Add draws from the stream set by SetRand, which must be called
// before Begin and stays in force for later calls; a solver passes its
// noise stream, so that a seeded run stays reproducible bit for bit.
type LocalRandomizer interface {
	SetRand(r *rand.Rand)
}

// SetRand hands r to o if o is a [LocalRandomizer] and does nothing
// otherwise, so that a solver may call it for any oracle right after [New].
func SetRand(o Oracle, r *rand.Rand) {
	if lr, ok := o.(LocalRandomizer); ok {
		lr.SetRand(r)
	}
}

// Call describes one completed oracle call.
type Call struct {
	// Sigma is the standard deviation per coordinate of the privacy noise
	// added to the mean estimate, 0 when no noise was added. For the
	// shuffle oracles it is an upper bound computed from public quantities
	// (the binomial noise exactly, the randomized rounding at its maximum);
	// for shuffle-coordinate it is that of one group mean before the
	// median (see [ShuffleClip.Sigma], [ShuffleCoordinate.Sigma]).
	Sigma float64
	// Sensitivity is the ℓ2 sensitivity of the pre-noise estimate under
	// replacing one of the s vectors (e.g. 2C/s for MeanOracle1).
	Sensitivity float64
	// Cost is what the call spends for each vector it read.
	Cost ledger.Cost
	// Stats describe the batch.
	Stats BatchStats
}

// New returns a fresh oracle by registry name; see [Names].
func New(name string) (Oracle, error) {
	for _, n := range names {
		if n.name == name && n.make != nil {
			return n.make(), nil
		}
	}
	return nil, fmt.Errorf("unknown oracle %q (want one of %s)", name, strings.Join(Names(), ", "))
}

type registered struct {
	name string
	kind Kind
	desc string
	make func() Oracle
}

// names lists the oracles in display order with their privacy model;
// implementations in other files of this package fill in make and desc at
// init (see register). TestKindOf checks that each kind is the one its
// oracle reports.
var names = []registered{
	{name: "clip-gaussian", kind: ZCDP},
	{name: "coordinate", kind: ZCDP},
	{name: "shuffle-clip", kind: Shuffle},
	{name: "shuffle-coordinate", kind: Shuffle},
}

// KindOf is the privacy model of the named oracle, without constructing
// one; ok is false for an unknown name.
func KindOf(name string) (k Kind, ok bool) {
	for _, n := range names {
		if n.name == name && n.make != nil {
			return n.kind, true
		}
	}
	return ZCDP, false
}

// Names lists the registered oracle names in display order.
func Names() []string {
	out := make([]string, 0, len(names))
	for _, n := range names {
		if n.make != nil {
			out = append(out, n.name)
		}
	}
	return out
}

// Describe returns a one-line description of the named oracle, or "".
func Describe(name string) string {
	for _, n := range names {
		if n.name == name {
			return n.desc
		}
	}
	return ""
}

// register adds an oracle to the registry; called from init functions.
func register(name, desc string, mk func() Oracle) {
	for i := range names {
		if names[i].name == name {
			names[i].desc, names[i].make = desc, mk
			return
		}
	}
	names = append(names, registered{name: name, kind: mk().Kind(), desc: desc, make: mk})
}

// Histogram bins: log10 of the norm from HistMinExp to HistMaxExp with
// HistPerDecade bins per decade; norms below the range (including 0) go to
// Under, above it to Over.
const (
	HistMinExp    = -4
	HistMaxExp    = 12
	HistPerDecade = 4
	HistBins      = (HistMaxExp - HistMinExp) * HistPerDecade
	// NormSampleCap is how many norms of a batch are kept for quantiles: a
	// deterministic stride of ⌈s/NormSampleCap⌉ through the batch.
	NormSampleCap = 2048
)

// BatchStats describe the per-sample vectors of one oracle call.
type BatchStats struct {
	Size      int     // s, the number of vectors fed
	Threshold float64 // the clip parameter (C, or τ for coordinate oracles)
	Clipped   int     // vectors that clipping changed (norm > C; any |z_j| > τ)
	NonFinite int     // vectors with a NaN or ±Inf entry, replaced by 0
	// Hist counts finite norms ‖z_i‖ in log10 bins: bin b covers
	// [10^(HistMinExp + b/HistPerDecade), 10^(HistMinExp + (b+1)/HistPerDecade)).
	Hist        [HistBins]int
	Under, Over int
	// Quantiles of the finite norms at QuantileLevels (stat.Empirical),
	// from the sample of every ⌈s/NormSampleCap⌉-th finite norm in feeding
	// order (all of them, so exact, when s ≤ NormSampleCap); NaN when no
	// norm was finite.
	Quantiles [len(QuantileLevels)]float64
}

// QuantileLevels are the levels of BatchStats.Quantiles.
var QuantileLevels = [5]float64{0.1, 0.5, 0.9, 0.99, 1}

// ClipFraction is Clipped / Size (0 for an empty batch).
func (b *BatchStats) ClipFraction() float64 {
	if b.Size == 0 {
		return 0
	}
	return float64(b.Clipped) / float64(b.Size)
}

// BinEdges returns the lower and upper norm of histogram bin b.
func BinEdges(b int) (lo, hi float64) {
	if b < 0 || b >= HistBins {
		return math.NaN(), math.NaN()
	}
	return histEdge[b], histEdge[b+1]
}

// tally is the additive part of BatchStats: the counts and the histogram
// of a batch or of a part of one (see [Part]), summed by merge.
type tally struct {
	size, clipped, nonFinite int
	hist                     [HistBins]int
	under, over              int
}

// histEdge[b] = 10^(HistMinExp + b/HistPerDecade) is the lower edge of
// histogram bin b (histEdge[HistBins] the upper edge of the last), the
// numbers BinEdges returns.
var histEdge = func() (e [HistBins + 1]float64) {
	for b := range e {
		e[b] = math.Pow(10, HistMinExp+float64(b)/HistPerDecade)
	}
	return e
}()

// histLow is the lower edge 10^HistMinExp of histogram bin 0.
var histLow = histEdge[0]

// histBin is the bin b with histEdge[b] ≤ norm < histEdge[b+1] for a finite
// norm in [histLow, histEdge[HistBins]), found without a logarithm: the
// binary exponent e of the norm (norm ∈ [2^e, 2^{e+1})) gives
// ⌊HistPerDecade·e·log10 2⌋ − HistPerDecade·HistMinExp, which is the bin
// of 2^e up to one rounding, so the answer is at most three bins above a
// guess one below it (HistPerDecade·log10 2 = 1.2 bins per octave); the
// comparisons with the edges make it exact.
func histBin(norm float64) int {
	e := int(math.Float64bits(norm)>>52&0x7ff) - 1023
	// +1000·HistPerDecade keeps the argument of the truncation positive.
	b := int(float64(e)*(HistPerDecade*math.Log10E*math.Ln2)+1000*HistPerDecade) - 1000*HistPerDecade - HistPerDecade*HistMinExp - 1
	b = max(b, 0)
	for b < HistBins-1 && norm >= histEdge[b+1] {
		b++
	}
	return b
}

// record counts one vector: its norm (NaN or ±Inf when not finite) and
// whether clipping changed it, and with detail its histogram bin. It
// reports whether the norm is finite.
func (t *tally) record(norm float64, clipped, detail bool) bool {
	t.size++
	if !(norm <= math.MaxFloat64) { // NaN or +Inf (a norm is never negative)
		t.nonFinite++
		return false
	}
	if clipped {
		t.clipped++
	}
	if detail {
		t.bin(norm)
	}
	return true
}

// bin counts a finite norm in the histogram.
func (t *tally) bin(norm float64) {
	switch {
	case norm < histLow:
		t.under++
	case norm >= histEdge[HistBins]:
		t.over++
	default:
		t.hist[histBin(norm)]++
	}
}

func (t *tally) add(u *tally) {
	t.size += u.size
	t.clipped += u.clipped
	t.nonFinite += u.nonFinite
	t.under += u.under
	t.over += u.over
	for b, c := range u.hist {
		t.hist[b] += c
	}
}

// ExactNoiser is implemented by the oracles whose privacy noise is Gaussian
// (ClipGaussian, Coordinate, NoisySum). SetExactNoise(true) makes Finish
// release each coordinate as the lattice point round_γ(v + σ̃Z), Z ~ N(0, 1)
// sampled exactly, σ̃ ≥ σ (package dpso/solvers/noise): a post-processing
// of the Gaussian mechanism at σ, so the call's privacy is the one stated
// for σ, and no bit of the release depends on v beyond what that
// mechanism releases. Off (the default), the noise is σ·NormFloat64(), the
// floating-point ziggurat. The setting stays for later calls.
type ExactNoiser interface {
	SetExactNoise(on bool)
}

// SetExactNoise sets exact noise on o if o is an [ExactNoiser] and does
// nothing otherwise (the shuffle oracles' noise is binomial).
func SetExactNoise(o Oracle, on bool) {
	if e, ok := o.(ExactNoiser); ok {
		e.SetExactNoise(on)
	}
}

// DetailSetter is implemented by every oracle of this package. The
// distribution of a batch's norms — BatchStats.Hist, Under, Over and the
// Quantiles, which sort a sample of up to NormSampleCap norms at every
// Finish — is only needed where a call's statistics are shown; a caller
// that will not look at a call's statistics turns it off before Begin
// (SetDetail(false): Hist, Under and Over are then 0 and the Quantiles NaN;
// Size, Clipped and NonFinite are always counted). The setting stays for
// later calls.
type DetailSetter interface {
	SetDetail(on bool)
}

// statsRecorder accumulates BatchStats without allocating per sample.
type statsRecorder struct {
	noDetail  bool // no histogram or quantiles (DetailSetter)
	t         tally
	threshold float64
	ready     bool // between a successful Begin and Finish
	s         int  // the batch size Begin announced
	stride    int
	finite    int       // finite norms seen so far
	sample    []float64 // reused across calls
}

// invalidate marks the recorder as outside a call; every Begin starts with
// it, so that Add after a failed Begin panics instead of using stale
// parameters.
func (r *statsRecorder) invalidate() { r.ready = false }

func (r *statsRecorder) begin(s int, threshold float64) {
	r.ready = true
	r.t = tally{}
	r.threshold = threshold
	r.s = s
	r.stride = max((s+NormSampleCap-1)/NormSampleCap, 1)
	r.finite = 0
	if r.sample == nil {
		r.sample = make([]float64, 0, NormSampleCap)
	}
	r.sample = r.sample[:0]
}

// next checks one call of Add: the vector's length and the number of Adds.
func (r *statsRecorder) next(name string, d, n int) {
	if !r.ready {
		panic(fmt.Sprintf("oracle %s: Add outside a call (no successful Begin since the last Finish)", name))
	}
	if n != d {
		panic(fmt.Sprintf("oracle %s: Add of a vector of length %d, Begin said d = %d", name, n, d))
	}
	if r.t.size >= r.s {
		panic(fmt.Sprintf("oracle %s: more than s = %d calls of Add", name, r.s))
	}
}

// block checks a block of k vectors fed with stride through xs (len n):
// the strides fit d and the block does not exceed the call.
func (r *statsRecorder) block(name string, d, stride, k, n int) {
	if !r.ready {
		panic(fmt.Sprintf("oracle %s: Add outside a call (no successful Begin since the last Finish)", name))
	}
	checkBlock(name, d, stride, k, n)
	if r.t.size+k > r.s {
		panic(fmt.Sprintf("oracle %s: more than s = %d calls of Add", name, r.s))
	}
}

func checkBlock(name string, d, stride, k, n int) {
	if stride < d || (k > 0 && (k-1)*stride+d > n) {
		panic(fmt.Sprintf("oracle %s: a block of %d vectors of length %d with stride %d in %d floats", name, k, d, stride, n))
	}
}

// done checks that Finish follows exactly s Adds.
func (r *statsRecorder) done(name string) {
	if !r.ready {
		panic(fmt.Sprintf("oracle %s: Finish outside a call (no successful Begin since the last Finish)", name))
	}
	r.ready = false
	if r.t.size != r.s {
		panic(fmt.Sprintf("oracle %s: Finish after %d calls of Add, Begin said s = %d", name, r.t.size, r.s))
	}
}

// record notes one vector: its norm (NaN or Inf when not finite) and whether
// clipping changed it. Every finite norm at a multiple of the stride among
// the finite norms is kept for the quantiles, so quantiles exist whenever a
// finite norm does.
func (r *statsRecorder) record(norm float64, clipped bool) {
	if !r.t.record(norm, clipped, !r.noDetail) || r.noDetail {
		return
	}
	if r.finite%r.stride == 0 && len(r.sample) < cap(r.sample) {
		r.sample = append(r.sample, norm)
	}
	r.finite++
}

// recordRows is record for each row of a block, in order.
func (r *statsRecorder) recordRows(norms []float64, clipped []bool) {
	if r.noDetail {
		r.t.countRows(norms, clipped)
		return
	}
	for i, norm := range norms {
		r.record(norm, clipped[i])
	}
}

// countRows is tally.record without detail for each row of a block.
func (t *tally) countRows(norms []float64, clipped []bool) {
	clipped = clipped[:len(norms)]
	t.size += len(norms)
	for i, norm := range norms {
		if !(norm <= math.MaxFloat64) { // NaN or +Inf
			t.nonFinite++
			continue
		}
		if clipped[i] {
			t.clipped++
		}
	}
}

// countFlagged is countRows of n rows, nonFinite of them with a norm that
// is not finite and nclip of the others clipped.
func (t *tally) countFlagged(n, nonFinite, nclip int) {
	t.size += n
	t.nonFinite += nonFinite
	t.clipped += nclip
}

// countScaled is countRows of n rows with finite norms, nclip of them
// clipped (a block clipScaledRows fed on its fast path alone).
func (t *tally) countScaled(n, nclip int) {
	t.size += n
	t.clipped += nclip
}

// merge adds a part's statistics, exactly as if its vectors had been
// recorded one by one: the part keeps all its finite norms in order, and
// those whose rank among all the batch's finite norms is a multiple of the
// stride join the quantile sample.
func (r *statsRecorder) merge(name string, p *partStats) {
	if !r.ready {
		panic(fmt.Sprintf("oracle %s: part merged outside a call", name))
	}
	if r.t.size+p.t.size > r.s {
		panic(fmt.Sprintf("oracle %s: parts hold more than s = %d vectors", name, r.s))
	}
	r.t.add(&p.t)
	k := (r.stride - r.finite%r.stride) % r.stride // first local rank with (finite + k) % stride == 0
	for ; k < len(p.norms) && len(r.sample) < cap(r.sample); k += r.stride {
		r.sample = append(r.sample, p.norms[k])
	}
	r.finite += len(p.norms)
}

func (r *statsRecorder) finish() BatchStats {
	st := BatchStats{Size: r.t.size, Threshold: r.threshold, Clipped: r.t.clipped, NonFinite: r.t.nonFinite,
		Hist: r.t.hist, Under: r.t.under, Over: r.t.over}
	if len(r.sample) == 0 || r.noDetail {
		for i := range st.Quantiles {
			st.Quantiles[i] = math.NaN()
		}
		return st
	}
	slices.Sort(r.sample)
	for i, p := range QuantileLevels {
		st.Quantiles[i] = stat.Quantile(p, stat.Empirical, r.sample, nil)
	}
	return st
}

// partStats is the statistics of a part: its tally and, with detail, all
// its finite norms in feeding order (a part holds at most its range's
// length).
type partStats struct {
	t      tally
	norms  []float64
	n      int // the part's length hi − lo
	detail bool
}

func (p *partStats) reset(n int, detail bool) {
	p.t = tally{}
	p.n = n
	p.detail = detail
	if cap(p.norms) < n {
		p.norms = make([]float64, 0, n)
	}
	p.norms = p.norms[:0]
}

func (p *partStats) next(name string, d, n int) {
	if n != d {
		panic(fmt.Sprintf("oracle %s: Add of a vector of length %d, Begin said d = %d", name, n, d))
	}
	if p.t.size >= p.n {
		panic(fmt.Sprintf("oracle %s: more than the part's %d calls of Add", name, p.n))
	}
}

func (p *partStats) block(name string, d, stride, k, n int) {
	checkBlock(name, d, stride, k, n)
	if p.t.size+k > p.n {
		panic(fmt.Sprintf("oracle %s: more than the part's %d calls of Add", name, p.n))
	}
}

// record is tally.record plus the norm's keeping, written to be inlined
// into the per-sample loops.
func (p *partStats) record(norm float64, clipped bool) {
	p.t.size++
	if !(norm <= math.MaxFloat64) { // NaN or +Inf
		p.t.nonFinite++
		return
	}
	if clipped {
		p.t.clipped++
	}
	if p.detail {
		p.keep(norm)
	}
}

// recordRows is record for each row of a block, in order.
func (p *partStats) recordRows(norms []float64, clipped []bool) {
	if p.detail {
		for i, norm := range norms {
			p.record(norm, clipped[i])
		}
		return
	}
	p.t.countRows(norms, clipped)
}

func (p *partStats) keep(norm float64) {
	p.t.bin(norm)
	p.norms = append(p.norms, norm)
}

// finite reports whether every entry of z is finite.
func finite(z []float64) bool {
	for _, v := range z {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}
