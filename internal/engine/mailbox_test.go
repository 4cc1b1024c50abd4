package engine

import (
	"context"
	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/solvers"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"
)

// Capacity, drop-oldest with a count, Ready only after a Put, Take empties
// the box; capacity < 1 is a latest-value box.
func TestMailbox(t *testing.T) {
	m := NewMailbox[int](3)
	select {
	case <-m.Ready():
		t.Fatal("ready before any Put")
	default:
	}
	for i := range 5 {
		m.Put(i)
	}
	<-m.Ready()
	v, d := m.Take()
	if !slices.Equal(v, []int{2, 3, 4}) || d != 2 {
		t.Errorf("Take = %v, %d; want [2 3 4], 2", v, d)
	}
	if v, d := m.Take(); len(v) != 0 || d != 0 {
		t.Errorf("second Take = %v, %d; want nothing", v, d)
	}
	select {
	case <-m.Ready():
		t.Error("ready again without a Put")
	default:
	}
	for _, c := range []int{0, -5, 1} {
		t.Run(fmt.Sprintf("capacity=%d", c), func(t *testing.T) {
			latest := NewMailbox[string](c)
			latest.Put("a")
			latest.Put("b")
			if v, d := latest.Take(); !slices.Equal(v, []string{"b"}) || d != 1 {
				t.Errorf("capacity %d (latest value): %v, %d; want [b], 1", c, v, d)
			}
		})
	}
}

// Put never blocks on a consumer that does not read, memory stays at the
// capacity, and the last value survives.
func TestMailboxNeverBlocks(t *testing.T) {
	m := NewMailbox[solvers.Checkpoint](1)
	done := make(chan struct{})
	go func() {
		for i := 1; i <= 100000; i++ {
			m.Put(solvers.Checkpoint{Iter: i}) // nobody reads
		}
		m.Put(solvers.Checkpoint{Iter: 100001, Done: true})
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(time.Minute): // only ends a test that would hang; no assertion reads the time
		t.Fatal("Put blocked")
	}
	if cap(m.pending) > 2 {
		t.Errorf("pending list grew to capacity %d for a mailbox of 1", cap(m.pending))
	}
	v, d := m.Take()
	if len(v) != 1 || v[0].Iter != 100001 || !v[0].Done || d != 100000 {
		t.Errorf("Take = %+v, dropped %d; want the last checkpoint, 100000 dropped", v, d)
	}
}

// Several producers and a concurrent consumer (run with -race): each
// producer's values arrive in order, received + dropped = sent, nothing is
// duplicated, and the value Put last is received last.
func TestMailboxConcurrent(t *testing.T) {
	const producers, per = 4, 20000
	type msg struct{ p, i int }
	for _, capacity := range []int{1, 8, producers * per} {
		t.Run(fmt.Sprintf("capacity=%d", capacity), func(t *testing.T) {
			m := NewMailbox[msg](capacity)
			var wg sync.WaitGroup
			for p := range producers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := range per {
						m.Put(msg{p, i})
					}
				}()
			}
			stop := make(chan struct{})
			go func() { wg.Wait(); close(stop) }()
			last := [producers]int{-1, -1, -1, -1}
			received, dropped := 0, 0
			var final msg
			consume := func() {
				v, d := m.Take()
				dropped += d
				for _, x := range v {
					if x.i <= last[x.p] {
						t.Fatalf("capacity %d: producer %d's value %d after %d", capacity, x.p, x.i, last[x.p])
					}
					last[x.p] = x.i
					received++
					final = x
				}
			}
		loop:
			for {
				select {
				case <-m.Ready():
					consume()
				case <-stop:
					break loop
				}
			}
			consume() // what was Put after the last Ready
			if received+dropped != producers*per {
				t.Errorf("capacity %d: received %d + dropped %d ≠ sent %d", capacity, received, dropped, producers*per)
			}
			if capacity == producers*per && dropped != 0 {
				t.Errorf("capacity %d ≥ everything sent: dropped %d", capacity, dropped)
			}
			if final.i != per-1 {
				t.Errorf("capacity %d: last value received %+v, want some producer's last (%d)", capacity, final, per-1)
			}
		})
	}
}

// A solver's Observe can be a Mailbox's Put: the run never waits for the
// consumer, and a latest-value box ends up holding the Done checkpoint.
func TestMailboxAsObserver(t *testing.T) {
	in := build(t, spec.Spec{Scenario: scenarios.LinRegT, D: 3, N: 5000})
	m := NewMailbox[solvers.Checkpoint](1)
	s, _ := solvers.Lookup("acsa")
	res, err := s.Run(context.Background(), in, in.Dataset(solvers.Seeded, 1, 0), solvers.Config{Eps: 1, K: 2, Seed: 3, Checkpoints: 16, Observe: m.Put})
	if err != nil {
		t.Fatal(err)
	}
	v, d := m.Take()
	if len(v) != 1 || !v[0].Done || v[0].GradEvals != res.GradEvals || d < 2 {
		t.Errorf("Take = %d values (Done %v), dropped %d; want the Done checkpoint after ≥ 2 dropped", len(v), len(v) > 0 && v[0].Done, d)
	}
}
