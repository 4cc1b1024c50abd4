package runs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/tui/backend"
)

// PrescriptionMsg is the prescriber's outcome: the prescription (bounds,
// parameters, moment profile) of spec, an error, or pending while it is
// computed off the UI loop.
type PrescriptionMsg struct {
	Spec         spec.Resolved
	Key          string // PrescKey(spec)
	Prescription *engine.Prescription
	Err          string
	Pending      bool
	// Queue is the pending computation's place in a shared CPU queue
	// (dpso serve's, backend.QueuedPrescriber) while it waits for a slot
	// (Position k > 0); nil when it waits for none.
	Queue *engine.Queue
	// paper is the prescription of the class's paper solver at the same
	// Spec, beside a dp-sgd with adaptive clipping (the clipping panel
	// draws its C trajectory beside the paper's prescribed C); nil
	// otherwise, or when it could not be computed.
	Paper *engine.Prescription
}

// PrescDoneMsg is a prescription computed off the UI loop for request id.
type PrescDoneMsg struct {
	id    int
	key   string
	spec  spec.Resolved
	p     *engine.Prescription
	err   error
	paper *engine.Prescription
	// paperKey is the paper prescription's cache key ("" when none was
	// asked for).
	paperKey string
}

// Prescriber evaluates the prescription of the form's Spec off the UI
// loop, tags each request with an id so that a late answer to an older
// request is dropped, and caches prescriptions by the Spec fields that
// define them (an LRU). Like the run lifecycle it draws nothing: the root forwards the
// PrescriptionMsg it returns.
type Prescriber struct {
	runner backend.Runner
	// ctx is the explorer's: every computation's context derives from it.
	ctx    context.Context
	id     int
	cancel context.CancelFunc
	cache  *prescCache
	// pending is the request in flight, box its place in the queue as
	// the runner reports it (a QueuedPrescriber's; nil otherwise).
	pending PrescriptionMsg
	box     *queueBox
	// pendingPaper is the paper prescription's key the request in flight
	// computes too ("" when none).
	pendingPaper string
}

// PrescPollMsg asks the prescriber, while request id is computed, for
// its place in the CPU queue (PollEvery apart).
type PrescPollMsg struct{ id int }

// PollEvery is how often a queued prescription's place is read.
const PollEvery = 250 * time.Millisecond

// queueBox is the latest place in the queue a runner reported for a
// prescription, and whether it changed since it was read.
type queueBox struct {
	mu      sync.Mutex
	q       engine.Queue
	changed bool
}

func (b *queueBox) put(q engine.Queue) {
	b.mu.Lock()
	b.q, b.changed = q, true
	b.mu.Unlock()
}

func (b *queueBox) take() (engine.Queue, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	q, ch := b.q, b.changed
	b.changed = false
	return q, ch
}

// peek is the latest place reported, leaving it unread.
func (b *queueBox) peek() engine.Queue {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.q
}

func pollCmd(id int) tea.Cmd {
	return tea.Tick(PollEvery, func(time.Time) tea.Msg { return PrescPollMsg{id: id} })
}

// Poll answers a PrescPollMsg: while the request it is about is the
// latest and still computed, a pending PrescriptionMsg with its place in
// the queue when that changed (nil otherwise), and the next poll.
func (p *Prescriber) Poll(msg PrescPollMsg) (tea.Msg, tea.Cmd) {
	if msg.id != p.id || p.cancel == nil || p.box == nil {
		return nil, nil
	}
	q, changed := p.box.take()
	if !changed {
		return nil, pollCmd(msg.id)
	}
	out := p.pending
	out.Queue = nil
	if q.Position > 0 {
		out.Queue = &q
	}
	return out, pollCmd(msg.id)
}

func NewPrescriber(ctx context.Context, runner backend.Runner) *Prescriber {
	return &Prescriber{ctx: ctx, runner: runner, cache: newPrescCache(64)}
}

// PrescKey is the cache key of a resolved Spec's prescription: every
// field but those that do not change it (seed, trials, workers,
// checkpoints, randomness mode).
func PrescKey(r spec.Resolved) string {
	rs := r.Spec.Clone()
	rs.Seed, rs.Trials, rs.Workers, rs.Checkpoints, rs.Rand = 0, 0, 0, 0, ""
	b, _ := json.Marshal(rs)
	return string(b)
}

// RunKey identifies a resolved Spec for "is this result stale?".
func RunKey(r spec.Resolved) string {
	b, _ := json.Marshal(r.Spec)
	return string(b)
}

// Request asks for the prescription of rs (and, for a dp-sgd with
// adaptive clipping, the paper solver's at the same Spec): the cached ones
// at once, or a pending message and the command that computes them. A
// request for the prescriptions the one in flight computes (a Spec that
// differs only in fields the prescription does not read) keeps that one,
// and its place in a shared CPU queue: asked again, it would wait behind
// every call its session queued since, its own run among them.
func (p *Prescriber) Request(rs spec.Resolved) (tea.Msg, tea.Cmd) {
	key := PrescKey(rs)
	paperRes, wantPaper := paperSpec(rs)
	paperKey := ""
	if wantPaper {
		paperKey = PrescKey(paperRes)
	}
	if p.cancel != nil && p.pending.Key == key && p.pendingPaper == paperKey {
		p.pending.Spec = rs
		out := p.pending
		if p.box != nil {
			if q := p.box.peek(); q.Position > 0 {
				out.Queue = &q
			}
		}
		return out, nil
	}
	p.Stop()
	p.id++
	pr, ok := p.cache.get(key)
	paper, paperOK := p.cache.get(paperKey)
	if ok && (!wantPaper || paperOK) {
		return PrescriptionMsg{Spec: rs, Key: key, Prescription: pr, Paper: paper}, nil
	}
	id := p.id
	ctx, cancel := context.WithCancel(p.ctx)
	p.cancel = cancel
	runner := p.runner
	p.pending = PrescriptionMsg{Spec: rs, Key: key, Pending: true}
	p.pendingPaper = paperKey
	prescribe := runner.Prescribe
	var poll tea.Cmd
	p.box = nil
	if qp, ok := runner.(backend.QueuedPrescriber); ok {
		box := &queueBox{}
		p.box, poll = box, pollCmd(id)
		prescribe = func(ctx context.Context, r spec.Resolved) (*engine.Prescription, error) {
			return qp.PrescribeQueued(ctx, r, box.put)
		}
	}
	return p.pending, tea.Batch(poll, func() (msg tea.Msg) {
		defer func() {
			if r := recover(); r != nil {
				msg = PrescDoneMsg{id: id, key: key, spec: rs, err: fmt.Errorf("internal error: %v", r)}
			}
		}()
		var err error
		if !ok {
			pr, err = prescribe(ctx, rs)
		}
		done := PrescDoneMsg{id: id, key: key, spec: rs, p: pr, err: err, paperKey: paperKey, paper: paper}
		if err == nil && wantPaper && !paperOK {
			// The paper's C is a reference beside the trajectory: if it
			// cannot be computed, the panel goes without it.
			done.paper, _ = prescribe(ctx, paperRes)
		}
		return done
	})
}

// paperSpec is rs with the class's paper solver (the solver resolution
// picks when none is named), when rs runs dp-sgd with adaptive clipping;
// false otherwise.
func paperSpec(rs spec.Resolved) (spec.Resolved, bool) {
	if !rs.Solver.Settings.Has(AdaptiveFlag) || !rs.Spec.AdaptiveClip {
		return spec.Resolved{}, false
	}
	s := rs.Spec.Clone()
	s.Solver, s.AdaptiveClip = "", false
	pr, err := backend.Resolve(s)
	return pr, err == nil
}

// Stop cancels the computation in flight.
func (p *Prescriber) Stop() {
	if p.cancel != nil {
		p.cancel()
		p.cancel = nil
	}
}

// Update caches a computed prescription and returns it as a
// PrescriptionMsg if it answers the latest request (nil otherwise).
func (p *Prescriber) Update(msg PrescDoneMsg) tea.Msg {
	if msg.err == nil && msg.p != nil {
		p.cache.put(msg.key, msg.p)
	}
	if msg.paper != nil {
		p.cache.put(msg.paperKey, msg.paper)
	}
	if msg.id != p.id {
		return nil // stale
	}
	p.cancel = nil
	rs := msg.spec
	if p.pending.Key == msg.key {
		rs = p.pending.Spec // the latest request's, which kept this one
	}
	if msg.err != nil {
		if ctxErr(msg.err) {
			return nil
		}
		return PrescriptionMsg{Spec: rs, Key: msg.key, Err: backend.SpecMessage(msg.err)}
	}
	return PrescriptionMsg{Spec: rs, Key: msg.key, Prescription: msg.p, Paper: msg.paper}
}

func ctxErr(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// prescCache is a small LRU of prescriptions by key: a hit makes its key
// the most recent; a put beyond max evicts the least recently used.
type prescCache struct {
	max   int
	order []string // least recently used first
	m     map[string]*engine.Prescription
}

func newPrescCache(n int) *prescCache {
	return &prescCache{max: n, m: map[string]*engine.Prescription{}}
}

func (c *prescCache) get(k string) (*engine.Prescription, bool) {
	p, ok := c.m[k]
	if ok {
		c.touch(k)
	}
	return p, ok
}

// touch moves k to the most recent end of the order.
func (c *prescCache) touch(k string) {
	if i := slices.Index(c.order, k); i >= 0 {
		c.order = append(c.order[:i], c.order[i+1:]...)
	}
	c.order = append(c.order, k)
}

func (c *prescCache) put(k string, p *engine.Prescription) {
	c.touch(k)
	c.m[k] = p
	if len(c.order) > c.max {
		delete(c.m, c.order[0])
		c.order = c.order[1:]
	}
}
