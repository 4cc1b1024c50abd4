package scenarios

import (
	_ "embed" // minima.txt
	"strconv"
	"strings"
	"sync"
)

// knownMinimum is a point w and smoothing level τ that the certified
// minimization of an evaluation sample's F̂ (minimizeRows) reached on that
// sample: given them, the minimization computes F̂* = F̂(w) and its bound
// F̂_τ(w) − g − cτ at w without searching, the same bits as the search
// ends with. The bound is a proof at any w, so a point that is not the
// search's would cost a wider width, never a false one;
// TestKnownMinimaAreTheSearches runs each search again and requires the
// same point and level to the bit.
type knownMinimum struct {
	tau float64
	w   []float64
}

// minimaText holds, one a line, the evaluation samples' distKey, τ and the
// coordinates of w (hexadecimal floats: exact), separated by tabs — the
// hinge-t samples that the hinge preset and its sweep over d load, whose
// F* takes seconds (DPSO_UPDATE_GOLDEN=1 go test ./scenarios -run
// TestKnownMinimaAreTheSearches rewrites it from the searches).
//
//go:embed minima.txt
var minimaText string

var (
	minimaOnce sync.Once
	minima     map[string]knownMinimum
)

// knownMinimumOf is the known minimum of the evaluation sample named key
// (distKey) in dimension d, or nil.
func knownMinimumOf(key string, d int) *knownMinimum {
	minimaOnce.Do(func() { minima = parseMinima(minimaText) })
	k, ok := minima[key]
	if !ok || len(k.w) != d {
		return nil
	}
	return &k
}

// parseMinima reads minimaText's lines; a line that does not parse is left
// out (its sample is then searched).
func parseMinima(text string) map[string]knownMinimum {
	out := map[string]knownMinimum{}
	for line := range strings.Lines(text) {
		f := strings.Split(strings.TrimRight(line, "\n"), "\t")
		if len(f) < 3 {
			continue
		}
		tau, err := strconv.ParseFloat(f[1], 64)
		if err != nil {
			continue
		}
		k := knownMinimum{tau: tau, w: make([]float64, 0, len(f)-2)}
		for _, s := range f[2:] {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				k.w = nil
				break
			}
			k.w = append(k.w, v)
		}
		if k.w != nil {
			out[f[0]] = k
		}
	}
	return out
}
