package accountant

import (
	"context"
	"sync"
	"testing"
)

// go test -bench . -benchmem ./solvers/accountant

// A DP-SGD run of 5 epochs at expected batch 256 on n = 10⁵ samples.
var benchMech = Mechanism{Sigma: 0.9, Q: 256.0 / 100000, Steps: 1953, Adjacency: AddRemove}

func BenchmarkRDPEpsilon(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := RDPEpsilon(benchMech, 1e-5, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPLDEpsilon(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := PLDEpsilon(benchMech, 1e-5, PLDOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPLDBounds(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := PLDBounds(benchMech, 1e-5, PLDOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func benchCalibrate(b *testing.B, k Kind) {
	b.ReportAllocs()
	for b.Loop() {
		calCache = sync.Map{} // measure the computation, not the cache
		if _, err := CalibrateContext(context.Background(), k, benchMech.Adjacency, benchMech.Q, benchMech.Steps, 4.3772, 1e-5); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCalibrateRDP(b *testing.B) { benchCalibrate(b, RDP) }
func BenchmarkCalibratePLD(b *testing.B) { benchCalibrate(b, PLD) }
