package accountant

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"gonum.org/v1/gonum/dsp/fourier"
)

// TestFastLenFactorsFit: every FFT length the accountant asks for is
// 5-smooth, at least the length needed, and has at most maxFFTFactors
// FFTPACK factors — gonum's FFTPACK panics ("index out of range [15]")
// on more. 3¹⁴ = 4782969 is such a length (dpso privacy --accountant pld
// --target-eps 1e9 reaches it during calibration).
func TestFastLenFactorsFit(t *testing.T) {
	for _, m := range []int{1, 2, 7, 1000, 4782969, 4782968, 4782970, 14348907, 1 << 20, 1<<26 - 1, 1 << 26} {
		t.Run(fmt.Sprintf("m=%d", m), func(t *testing.T) {
			L := fastLen(m)
			if L < m {
				t.Errorf("fastLen(%d) = %d < m", m, L)
			}
			r, f := L, 0
			for _, p := range []int{4, 2, 3, 5} {
				for r%p == 0 {
					r /= p
					f++
				}
			}
			if r != 1 || f > maxFFTFactors {
				t.Errorf("fastLen(%d) = %d: rest %d, %d factors (at most %d)", m, L, r, f, maxFFTFactors)
			}
		})
	}
	// The FFT of the length 3¹⁴ asks for, constructed for real.
	L := fastLen(4782969)
	if L == 4782969 {
		t.Fatalf("fastLen(3¹⁴) = 3¹⁴, which FFTPACK cannot factor")
	}
	fourier.NewFFT(L)
}

// TestPLDExtremeMechanisms: a mechanism whose privacy loss spans more grid
// points than int can count (σ = 10⁻⁹, q = 1/2: dpso privacy --accountant
// pld --noise-multiplier 1e-9) is refused with
// ErrGridTooLarge, not a panic (a mechanism past the default grid's cap
// is computed on a wider grid: TestFullBatchIsGaussian's σ = 0.002); and a
// calibration whose answer the grid cannot resolve (target ε' = 10⁹ for
// one Gaussian step, past what gonum's FFT can factor) is refused with
// ErrGridTooLarge instead of returning a σ that is not the smallest.
func TestPLDExtremeMechanisms(t *testing.T) {
	_, err := PLDEpsilon(Mechanism{Sigma: 1e-9, Q: 0.5, Steps: 100}, 1e-5, PLDOptions{})
	if !errors.Is(err, ErrGridTooLarge) {
		t.Errorf("σ = 10⁻⁹: err = %v, want ErrGridTooLarge", err)
	}
	if _, err := CalibrateContext(context.Background(), PLD, AddRemove, 1, 1, 1e9, 1e-5); !errors.Is(err, ErrGridTooLarge) {
		t.Errorf("target ε' = 10⁹ for one Gaussian step: err = %v, want ErrGridTooLarge", err)
	}
}
