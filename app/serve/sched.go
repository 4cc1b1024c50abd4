package serve

import (
	"context"
	"slices"
	"sync"
	"time"

	"dpso/internal/engine"
)

// sched is the pool's CPU slots, served round-robin by seat (a session):
// each seat keeps its waiting requests in order, the seats with a waiting
// request form a ring, and a freed slot goes to the first request of the
// seat at the ring's head, which then moves to the ring's tail. A session
// with several calls waiting is served once per turn, as every other
// session, however many calls it queues. The head waits until its slots
// are free (no request overtakes it), so that a call asking for more slots
// than one is never starved by smaller ones.
type sched struct {
	mu   sync.Mutex
	free int
	ring []*queue // the seats with a waiting request, in the order served
	now  func() time.Time
}

// queue is one seat's waiting requests, oldest first.
type queue struct {
	reqs   []*request
	inRing bool
}

// request is one call waiting for n slots. report, if not nil, is told
// the call's place whenever it changes, and Position 0 once the slots are
// the call's, whether it waited or not (engine.Queue; it must not block).
type request struct {
	q       *queue
	n       int
	since   time.Time
	granted chan struct{} // closed once the slots are the request's
	ok      bool          // granted (sched.mu)
	pos     int           // the position last reported
	report  func(engine.Queue)
}

func newSched(slots int, now func() time.Time) *sched {
	if now == nil {
		now = time.Now
	}
	return &sched{free: slots, now: now}
}

// reportEvery is how often a waiting call's report is renewed, so that
// the wait shown moves.
const reportEvery = time.Second

// acquire waits, in q's turn, for n slots; ctx cancels the wait. It
// returns the release, to be called once. A request first goes ahead of
// q's waiting requests (a prescription: the constants its session's panel
// waits for, one slot's short work, before that session's runs); the
// others wait behind them.
func (s *sched) acquire(ctx context.Context, q *queue, n int, first bool, report func(engine.Queue)) (func(), error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	r := &request{q: q, n: n, since: s.now(), granted: make(chan struct{}), report: report}
	s.mu.Lock()
	if first {
		q.reqs = slices.Insert(q.reqs, 0, r)
	} else {
		q.reqs = append(q.reqs, r)
	}
	if !q.inRing {
		q.inRing = true
		s.ring = append(s.ring, q)
	}
	s.dispatch()
	s.positions()
	s.mu.Unlock()
	var tick <-chan time.Time
	if report != nil {
		t := time.NewTicker(reportEvery)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-r.granted:
			if report != nil {
				report(engine.Queue{Waited: s.now().Sub(r.since)})
			}
			return func() { s.release(n) }, nil
		case <-tick:
			s.mu.Lock()
			if !r.ok {
				report(engine.Queue{Position: r.pos, Waited: s.now().Sub(r.since)})
			}
			s.mu.Unlock()
		case <-ctx.Done():
			s.mu.Lock()
			if r.ok { // granted as the context ended: give the slots back
				s.mu.Unlock()
				s.release(n)
				return nil, ctx.Err()
			}
			s.drop(r)
			s.dispatch()
			s.positions()
			s.mu.Unlock()
			return nil, ctx.Err()
		}
	}
}

// release gives n slots back and serves the ring.
func (s *sched) release(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.free += n
	s.dispatch()
	s.positions()
}

// drop removes a waiting request (s.mu held).
func (s *sched) drop(r *request) {
	q := r.q
	q.reqs = slices.DeleteFunc(q.reqs, func(x *request) bool { return x == r })
	if len(q.reqs) == 0 && q.inRing {
		q.inRing = false
		s.ring = slices.DeleteFunc(s.ring, func(x *queue) bool { return x == q })
	}
}

// dispatch grants the ring's head requests while their slots are free
// (s.mu held).
func (s *sched) dispatch() {
	for len(s.ring) > 0 {
		q := s.ring[0]
		r := q.reqs[0]
		if r.n > s.free {
			return
		}
		s.free -= r.n
		r.ok = true
		close(r.granted)
		q.reqs = q.reqs[1:]
		s.ring = s.ring[1:]
		if len(q.reqs) > 0 {
			s.ring = append(s.ring, q)
		} else {
			q.inRing = false
		}
	}
}

// positions numbers the waiting requests in the order the ring serves
// them — the first of every seat in ring order, then the second of every
// seat that has one, … — and reports each one whose number changed
// (s.mu held).
func (s *sched) positions() {
	k := 0
	now := s.now()
	for depth := 0; ; depth++ {
		any := false
		for _, q := range s.ring {
			if depth >= len(q.reqs) {
				continue
			}
			any = true
			k++
			r := q.reqs[depth]
			if r.pos != k {
				r.pos = k
				if r.report != nil {
					r.report(engine.Queue{Position: k, Waited: now.Sub(r.since)})
				}
			}
		}
		if !any {
			return
		}
	}
}
