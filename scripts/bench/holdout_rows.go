//go:build ignore

// BENCHMARK REFERENCE ONLY — not part of dpso, not run by CI.
//
// holdout_rows prints the indices (0-based, ascending, one a line) of the
// rows `--holdout F` keeps out of every solver on a file of N rows: the same
// choice as scenarios' splitHoldout (a partial Fisher–Yates shuffle from
// ChaCha8 keyed by N and F only), so that tune_numpy.py holds out the same
// rows. tune_compare.py checks the copy against dpso itself: the held-out
// loss dpso reports for each released w must equal the mean loss of these
// rows at that w.
//
// Usage: go run scripts/bench/holdout_rows.go N F
package main

import (
	"crypto/sha256"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: go run scripts/bench/holdout_rows.go N F")
		os.Exit(2)
	}
	rows, err1 := strconv.Atoi(os.Args[1])
	f, err2 := strconv.ParseFloat(os.Args[2], 64)
	if err1 != nil || err2 != nil || rows < 1 || !(f >= 0 && f < 1) {
		fmt.Fprintln(os.Stderr, "holdout_rows: N must be a positive integer and F in [0, 1)")
		os.Exit(2)
	}
	h := int(math.Round(f * float64(rows)))
	var seed [32]byte
	key := sha256.Sum256(fmt.Appendf(nil, "dpso/holdout\x00%d\x00%x", rows, math.Float64bits(f)))
	copy(seed[:], key[:])
	r := rand.New(rand.NewChaCha8(seed))
	idx := make([]int, rows)
	for i := range idx {
		idx[i] = i
	}
	for i := range h {
		j := i + r.IntN(rows-i)
		idx[i], idx[j] = idx[j], idx[i]
	}
	held := slices.Clone(idx[:h])
	slices.Sort(held)
	for _, i := range held {
		fmt.Println(i)
	}
}
