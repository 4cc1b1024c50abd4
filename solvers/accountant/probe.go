package accountant

import "math"

// maxGuessEvals is how many evaluations a probe makes to settle its
// guesses before it stops guessing (and evaluates every question that
// monotonicity does not answer, as a plain bisection would).
const maxGuessEvals = 8

// probe answers a bisection's questions "does σ meet the target?" for one
// accountant, evaluating as few of them as it can (see
// [CalibrateContext]): from its evaluated points, by monotonicity in σ
// (ε' falls as σ grows), else by a guess from a local model of ln ε' in
// ln σ, which [replay] later settles by evaluating.
type probe struct {
	eval   func(s float64) (float64, error) // the exact ε'(σ)
	target float64
	pts    []probePoint
	// hint is a threshold to guess with before any point is evaluated
	// (nil: none); priorSlope is d ln ε'/d ln σ before two points are
	// (nil: −2).
	hint       func() float64
	priorSlope func() float64
	// The current pass's guesses: how many, the smallest σ guessed to
	// meet and the largest guessed to miss (NaN: none).
	guesses int
	gT, gF  float64
	evals   int  // evaluations made to settle guesses
	exactly bool // answer only from evaluations (no guess, no implication)
	err     error
}

// probePoint is one evaluation: ε'(σ) and whether it meets the target;
// model is false for a point too far from any answer to guide a guess.
type probePoint struct {
	s, eps float64
	ok     bool
	model  bool
}

func newProbe(eval func(float64) (float64, error), target float64) *probe {
	return &probe{eval: eval, target: target, gT: math.NaN(), gF: math.NaN()}
}

// meets answers one question of a bisection.
func (p *probe) meets(s float64) (bool, error) {
	if p.err != nil {
		return false, p.err
	}
	if ok, known := p.implied(s); known {
		return ok, nil
	}
	if !p.exactly && p.evals < maxGuessEvals {
		if th := p.threshold(); th > 0 {
			ok := s >= th
			p.guesses++
			if ok && !(s >= p.gT) {
				p.gT = s
			} else if !ok && !(s <= p.gF) {
				p.gF = s
			}
			return ok, nil
		}
	}
	return p.exact(s, true)
}

// implied is the answer at s from the evaluated points: their own, or by
// monotonicity from a point at most s that meets the target or one at
// least s that misses it (known = false where neither, or both, hold).
func (p *probe) implied(s float64) (ok, known bool) {
	yes, no := false, false
	for _, q := range p.pts {
		if q.s == s {
			return q.ok, true
		}
		if p.exactly {
			continue
		}
		yes = yes || (q.ok && q.s <= s)
		no = no || (!q.ok && q.s >= s)
	}
	if yes != no {
		return yes, true
	}
	return false, false
}

// exact evaluates ε'(s) and records it.
func (p *probe) exact(s float64, model bool) (bool, error) {
	e, err := p.eval(s)
	if err != nil {
		p.err = err
		return false, err
	}
	ok := e <= p.target
	p.pts = append(p.pts, probePoint{s: s, eps: e, ok: ok, model: model})
	return ok, nil
}

// exactValue is ε'(s), evaluated unless it was.
func (p *probe) exactValue(s float64) (float64, error) {
	for _, q := range p.pts {
		if q.s == s {
			return q.eps, nil
		}
	}
	if _, err := p.exact(s, true); err != nil {
		return math.NaN(), err
	}
	return p.pts[len(p.pts)-1].eps, nil
}

// usable reports whether q can guide the model (a finite positive ε').
func (q probePoint) usable() bool {
	return q.model && q.eps > 0 && !math.IsInf(q.eps, 1)
}

// threshold is the model's guess of the σ where ε' crosses the target:
// the secant in (ln σ, ln ε') through the two evaluated points nearest the
// target in ln ε' (one point: along the prior slope), kept inside the
// bracket of evaluated points where there is one (regula falsi between
// its ends otherwise) and within a factor 8 of the nearest point where
// there is not; the hint before any point; NaN without either.
func (p *probe) threshold() float64 {
	lt := math.Log(p.target)
	var a, b *probePoint // a: largest σ missing, b: smallest meeting
	for i := range p.pts {
		q := &p.pts[i]
		if !q.usable() {
			continue
		}
		if q.ok && (b == nil || q.s < b.s) {
			b = q
		}
		if !q.ok && (a == nil || q.s > a.s) {
			a = q
		}
	}
	n1, _ := p.nearest()
	if n1 == nil {
		if p.hint != nil {
			return p.hint()
		}
		return math.NaN()
	}
	th := n1.s * math.Exp((lt-math.Log(n1.eps))/p.slope())
	switch {
	case a != nil && b != nil && a.s < b.s:
		if !(th > a.s && th <= b.s) {
			t := (lt - math.Log(a.eps)) / (math.Log(b.eps) - math.Log(a.eps))
			th = math.Exp(math.Log(a.s) + t*(math.Log(b.s)-math.Log(a.s)))
		}
	case a != nil && b != nil:
		th = math.Sqrt(a.s * b.s) // not monotone here: split the difference
	default:
		th = math.Min(math.Max(th, n1.s/8), n1.s*8)
	}
	return th
}

// nearest are the two usable evaluated points nearest the target in
// ln ε', the nearest first (nil where there are fewer).
func (p *probe) nearest() (n1, n2 *probePoint) {
	lt := math.Log(p.target)
	for i := range p.pts {
		q := &p.pts[i]
		if !q.usable() {
			continue
		}
		d := math.Abs(math.Log(q.eps) - lt)
		switch {
		case n1 == nil || d < math.Abs(math.Log(n1.eps)-lt):
			n1, n2 = q, n1
		case n2 == nil || d < math.Abs(math.Log(n2.eps)-lt):
			n2 = q
		}
	}
	return n1, n2
}

// slope is the model's d ln ε'/d ln σ: through the two evaluated points
// nearest the target in ln ε', or the prior.
func (p *probe) slope() float64 {
	n1, n2 := p.nearest()
	if n1 != nil && n2 != nil && n1.s != n2.s {
		if s := (math.Log(n1.eps) - math.Log(n2.eps)) / (math.Log(n1.s) - math.Log(n2.s)); s < 0 {
			return s
		}
	}
	return p.prior()
}

func (p *probe) prior() float64 {
	if p.priorSlope != nil {
		if s := p.priorSlope(); s < 0 {
			return s
		}
	}
	return -2
}

// settle evaluates the pass's guess nearest the model's threshold: the
// ends of the bracket the bisection ended on.
func (p *probe) settle() error {
	s := p.gT
	if th := p.threshold(); math.IsNaN(s) || (!math.IsNaN(p.gF) && math.Abs(math.Log(p.gF/th)) < math.Abs(math.Log(s/th))) {
		s = p.gF
	}
	p.evals++
	_, err := p.exact(s, true)
	return err
}

// replay runs a bisection (run) on its probes until it runs without a
// guess: after each run on guesses, the first probe that guessed settles
// one guess. The answer is then checked: it must be an evaluated σ that
// meets the target; where it is not (implied by monotonicity) it is
// evaluated, and where it misses (the accountant is not monotone there)
// the bisection is run again on evaluations only.
func replay(run func() (float64, error), probes ...*probe) (float64, error) {
	last := probes[len(probes)-1]
	for {
		for _, p := range probes {
			p.guesses, p.gT, p.gF = 0, math.NaN(), math.NaN()
		}
		s, err := run()
		for _, p := range probes {
			if p.err != nil {
				return 0, p.err
			}
		}
		var next *probe
		for _, p := range probes {
			if p.guesses > 0 {
				next = p
				break
			}
		}
		if next != nil {
			if err := next.settle(); err != nil {
				return 0, err
			}
			continue
		}
		if err != nil || last.exactly {
			return s, err
		}
		if ok, err := last.exactValueMeets(s); err != nil || ok {
			return s, err
		}
		for _, p := range probes {
			p.exactly = true
		}
	}
}

// exactValueMeets reports whether ε'(s) meets the target, evaluating s
// unless it was.
func (p *probe) exactValueMeets(s float64) (bool, error) {
	e, err := p.exactValue(s)
	if err != nil {
		return false, err
	}
	return e <= p.target, nil
}
