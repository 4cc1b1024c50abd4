package scenarios

import (
	"context"
	"strings"
	"testing"
)

// TestLazyCachePanicIsASentence: a computation that panics reaches the
// user as a sentence naming what was computed and that it is a bug; the
// cache key (file names, pointer addresses, parameters) stays internal.
func TestLazyCachePanicIsASentence(t *testing.T) {
	c := lazyCache[*Table]{max: 1, what: "the table of the data file"}
	key := "h.csv/50/0xc000123456/obj=squared"
	_, err := c.get(context.Background(), key, func(context.Context) (*Table, error) {
		var w []float64
		_ = w[:2] // a slice past its capacity panics
		return nil, nil
	})
	want := "scenarios: internal error while computing the table of the data file: runtime error: slice bounds out of range [:2] with capacity 0 (this is a bug; please report it with the command line)"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
	if err != nil && (strings.Contains(err.Error(), key) || strings.Contains(err.Error(), "0x")) {
		t.Errorf("err = %v shows the cache key", err)
	}
}
