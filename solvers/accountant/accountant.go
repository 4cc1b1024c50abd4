package accountant

import (
	"fmt"
	"math"
	"slices"
)

// Kind is an accountant: RDP or PLD.
type Kind int

const (
	// PLD is the privacy-loss-distribution accountant (the tight one).
	PLD Kind = iota
	// RDP is the Rényi-DP accountant.
	RDP
)

// String is the accountant's name as used on flags and in JSON.
func (k Kind) String() string {
	switch k {
	case PLD:
		return "pld"
	case RDP:
		return "rdp"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// ParseKind parses "rdp" or "pld".
func ParseKind(s string) (Kind, error) {
	switch s {
	case "pld":
		return PLD, nil
	case "rdp":
		return RDP, nil
	}
	return 0, fmt.Errorf("unknown accountant %q (want rdp or pld)", s)
}

// Adjacency is the neighbouring relation a privacy statement is about.
type Adjacency int

const (
	// ReplaceOne: datasets of the same size that differ in one record
	// (Hamming distance 1), the relation of Lowy & Razaviyayn's
	// definition of DP and of every zCDP statement in dpso. It is the zero
	// value.
	ReplaceOne Adjacency = iota
	// AddRemove: one dataset is the other with one record added or
	// removed, the relation of Opacus, TF Privacy and dp_accounting's
	// ADD_OR_REMOVE_ONE (the one their published DP-SGD figures use).
	AddRemove
)

// String is the relation's name as flags and JSON write it.
func (a Adjacency) String() string {
	switch a {
	case ReplaceOne:
		return "replace-one"
	case AddRemove:
		return "add-remove"
	}
	return fmt.Sprintf("Adjacency(%d)", int(a))
}

// ParseAdjacency parses "replace-one" or "add-remove".
func ParseAdjacency(s string) (Adjacency, error) {
	switch s {
	case "replace-one":
		return ReplaceOne, nil
	case "add-remove":
		return AddRemove, nil
	}
	return 0, fmt.Errorf("unknown adjacency %q (want replace-one or add-remove)", s)
}

// Mechanism is T steps of the Poisson-subsampled Gaussian mechanism: each
// step includes each sample independently with probability Q and adds
// N(0, Sigma²·C²) to the sum of the included samples' vectors, each of norm
// at most C (Sigma is the noise multiplier), accounted under Adjacency.
// Under AddRemove one record moves the sum by at most C; under ReplaceOne
// by at most 2C (g − g' with ‖g‖, ‖g'‖ ≤ C), and only in a step that
// samples its slot.
type Mechanism struct {
	Sigma     float64 // noise multiplier σ ≥ 0 (0: not private)
	Q         float64 // sampling rate q ∈ [0, 1]
	Steps     int     // T ≥ 1
	Adjacency Adjacency
}

// check validates m.
func (m Mechanism) check() error {
	switch {
	case math.IsNaN(m.Sigma) || m.Sigma < 0:
		return fmt.Errorf("noise multiplier σ = %g; want σ ≥ 0", m.Sigma)
	case math.IsNaN(m.Q) || m.Q < 0 || m.Q > 1:
		return fmt.Errorf("sampling rate q = %g; want q in [0, 1]", m.Q)
	case m.Steps < 1:
		return fmt.Errorf("steps T = %d; want T ≥ 1", m.Steps)
	case m.Adjacency != ReplaceOne && m.Adjacency != AddRemove:
		return fmt.Errorf("unknown adjacency %v", m.Adjacency)
	}
	return nil
}

// trivial reports the mechanisms whose (ε', δ) needs no accountant: q = 0 or
// σ = ∞ (nothing released about any sample: ε' = 0) and σ = 0 with q > 0
// (no noise: ε' = ∞).
func (m Mechanism) trivial() (eps float64, ok bool) {
	switch {
	case m.Q == 0 || math.IsInf(m.Sigma, 1):
		return 0, true
	case m.Sigma == 0:
		return math.Inf(1), true
	}
	return 0, false
}

// RDPEpsilon is ε' of m at δ by the RDP accountant on the given orders (nil:
// [DefaultOrders]), and the order that attains it.
func RDPEpsilon(m Mechanism, delta float64, orders []float64) (eps, order float64, err error) {
	if err := m.check(); err != nil {
		return math.NaN(), math.NaN(), err
	}
	if e, ok := m.trivial(); ok {
		return e, math.NaN(), checkDelta(delta)
	}
	if orders == nil {
		orders = DefaultOrders()
	}
	if m.Adjacency == ReplaceOne && m.Q < 1 && len(orders) > 0 && slices.IsSorted(orders) {
		if err := checkDelta(delta); err != nil {
			return math.NaN(), math.NaN(), err
		}
		eps, order = replaceEpsilon(m.Q, m.Sigma, m.Steps, orders, delta)
		return eps, order, nil
	}
	return EpsFromRDP(orders, ComposedRDP(m.Adjacency, m.Q, m.Sigma, m.Steps, orders), delta)
}

func checkDelta(delta float64) error {
	if !(delta > 0 && delta < 1) {
		return fmt.Errorf("δ = %g; want δ in (0, 1)", delta)
	}
	return nil
}

// Epsilon is ε' of m at δ by the accountant k with its default settings
// (RDP on [DefaultOrders], PLD with h = 10⁻⁴): an upper bound on the exact
// ε'.
func Epsilon(k Kind, m Mechanism, delta float64) (float64, error) {
	switch k {
	case RDP:
		e, _, err := RDPEpsilon(m, delta, nil)
		return e, err
	case PLD:
		return PLDEpsilon(m, delta, PLDOptions{})
	}
	return math.NaN(), fmt.Errorf("unknown accountant %v", k)
}
