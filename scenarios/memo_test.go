package scenarios

import (
	"sync"
	"testing"
)

// TestMemo: a miss, then the value put is a hit; a second put for the
// same k keeps the first; past max values a put keeps nothing new while
// the kept ones stay hits; and callers on many goroutines, each missing,
// computing and putting the same orders, read only the function's values
// and leave at most max kept (run under -race).
func TestMemo(t *testing.T) {
	t.Run("hit and miss", func(t *testing.T) {
		var c memo[string]
		if _, ok := c.get(2); ok {
			t.Fatal("the empty memo has a value for k = 2")
		}
		c.put(2, "two", 4)
		c.put(2, "other", 4)
		if v, ok := c.get(2); !ok || v != "two" {
			t.Errorf("get(2) = %q, %v, want the first value put", v, ok)
		}
		if _, ok := c.get(3); ok {
			t.Error("a value for k = 3, never put")
		}
	})
	t.Run("bound", func(t *testing.T) {
		var c memo[float64]
		for k := 1.0; k <= 10; k++ {
			c.put(k, 2*k, 4)
		}
		if n := len(c.m); n != 4 {
			t.Fatalf("%d values kept, want 4", n)
		}
		for k := 1.0; k <= 10; k++ {
			v, ok := c.get(k)
			if want := k <= 4; ok != want || ok && v != 2*k {
				t.Errorf("get(%g) = %g, %v; want kept %v (the first 4 put)", k, v, ok, want)
			}
		}
	})
	t.Run("concurrent", func(t *testing.T) {
		var c memo[float64]
		const max = 8
		var wg sync.WaitGroup
		for g := 0; g < 8; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < 200; i++ {
					k := float64(i%16) + 0.5
					v, ok := c.get(k)
					if !ok {
						v = k * k
						c.put(k, v, max)
					}
					if v != k*k {
						t.Errorf("k = %g read %g, want %g", k, v, k*k)
					}
				}
			}()
		}
		wg.Wait()
		if n := len(c.m); n != max {
			t.Errorf("%d values kept, want %d", n, max)
		}
	})
}
