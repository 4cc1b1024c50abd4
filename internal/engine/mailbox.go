package engine

import "sync"

// Mailbox hands values from producers that must never block (a solver's
// goroutine calling Config.Observe, the engine's workers) to a consumer
// that may be slow (a terminal UI): a run reports checkpoints at a bounded
// rate to a consumer that may be slow, and never blocks on it.
//
// Put appends to a pending list under a mutex and signals Ready; the
// consumer Takes everything pending at once. When more than the capacity is
// pending, the oldest values are dropped and counted, so memory stays
// bounded (at most capacity values) and the latest value is always
// delivered. With capacity 1 it is a latest-value box.
//
// A typical consumer waits on Ready and then calls Take (a Bubble Tea
// command that re-arms itself does exactly that). Put, Ready and Take are
// safe for concurrent use by any number of goroutines; values from one
// producer are taken in the order it Put them.
type Mailbox[T any] struct {
	mu      sync.Mutex
	pending []T
	dropped int
	max     int
	ready   chan struct{}
}

// NewMailbox returns a mailbox holding at most capacity pending values
// (capacity < 1 means 1: a latest-value mailbox).
func NewMailbox[T any](capacity int) *Mailbox[T] {
	return &Mailbox[T]{max: max(capacity, 1), ready: make(chan struct{}, 1)}
}

// Put adds v without blocking; if capacity values are already pending, the
// oldest is dropped (and counted) first.
func (m *Mailbox[T]) Put(v T) {
	m.mu.Lock()
	if len(m.pending) >= m.max {
		n := len(m.pending) - m.max + 1
		m.dropped += n
		k := copy(m.pending, m.pending[n:])
		clear(m.pending[k:]) // let the dropped values be collected
		m.pending = m.pending[:k]
	}
	m.pending = append(m.pending, v)
	m.mu.Unlock()
	select {
	case m.ready <- struct{}{}:
	default:
	}
}

// Ready receives a value whenever something was Put since the last
// receive. A receive followed by Take may find nothing pending (another
// Take already got it); that is harmless.
func (m *Mailbox[T]) Ready() <-chan struct{} { return m.ready }

// Take returns the pending values in the order they were Put and the
// number of values dropped since the last Take. It never blocks.
func (m *Mailbox[T]) Take() (values []T, dropped int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	values, m.pending = m.pending, nil
	dropped, m.dropped = m.dropped, 0
	return values, dropped
}
