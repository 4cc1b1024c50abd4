package vec

import (
	"math/rand/v2"
	"testing"
)

// TestClampFlagCounts: the counts of 1s and 2s in flags of every length
// to 40, read eight at a time, are those of a plain count.
func TestClampFlagCounts(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for n := 0; n <= 40; n++ {
		for range 20 {
			flag := make([]uint8, n)
			var c1, c2 int
			for i := range flag {
				flag[i] = uint8(r.IntN(3))
				c1 += int(flag[i] & 1)
				c2 += int(flag[i] >> 1)
			}
			if got1, got2 := ClampFlagCounts(flag); got1 != c1 || got2 != c2 {
				t.Fatalf("%v: counts %d, %d, want %d, %d", flag, got1, got2, c1, c2)
			}
		}
	}
}

// BenchmarkClampFlagCounts counts klz-gd's block of 372 flags eight at a
// time ("words", ClampFlagCounts) and one at a time ("plain"), in ns a
// flag.
func BenchmarkClampFlagCounts(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	flag := make([]uint8, 372)
	for i := range flag {
		flag[i] = uint8(r.IntN(3))
	}
	var sink int
	b.Run("plain", func(b *testing.B) {
		for b.Loop() {
			var c1, c2 int
			for _, f := range flag {
				c1 += int(f & 1)
				c2 += int(f >> 1)
			}
			sink += c1 + c2
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(flag)), "ns/flag")
	})
	b.Run("words", func(b *testing.B) {
		for b.Loop() {
			c1, c2 := ClampFlagCounts(flag)
			sink += c1 + c2
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(flag)), "ns/flag")
	})
	if sink == -1 {
		b.Log(sink)
	}
}
