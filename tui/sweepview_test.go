package tui

import (
	"strconv"
	"strings"
	"testing"
)

// TestSweepKeys: d and o show the sweeps of d and k.
func TestSweepKeys(t *testing.T) {
	m := newTestModel(t, &fakeRunner{points: 3}, &example1, 132, 42)
	for _, k := range []string{"d", "o"} {
		keyUntil(t, m, k, func() bool { return true })
		if !strings.Contains(strconv.Quote(string(m.shownKind())), "sweep-") {
			t.Errorf("%s shows %s", k, m.shownKind())
		}
	}
}
