package cli

import (
	"strings"
	"testing"
)

// TestPrivacyAccountantTooSmallSigma: a noise multiplier whose privacy loss
// the PLD accountant's grid cannot hold is refused on --accountant pld (the
// choice that cannot answer: a small σ or a large T can be the cause),
// with the way out (the RDP accountant), in one line with status 2.
// At `--noise-multiplier 1e-9` the grid's size would overflow int.
func TestPrivacyAccountantTooSmallSigma(t *testing.T) {
	code, out, errs := execTheoryCLI("privacy", "--accountant", "pld", "--noise-multiplier", "1e-9",
		"--sampling-rate", "0.5", "--steps", "100", "--delta", "1e-5")
	if code != 2 || out != "" || strings.Count(errs, "\n") != 1 {
		t.Fatalf("status %d, stdout %q, stderr %q: want 2, nothing, one line", code, out, errs)
	}
	for _, w := range []string{"--accountant pld:", "σ = 10⁻⁹", "--accountant rdp"} {
		if !strings.Contains(errs, w) {
			t.Errorf("stderr %q lacks %q", errs, w)
		}
	}
	// The RDP accountant answers the same question.
	if code, out, errs := execTheoryCLI("privacy", "--accountant", "rdp", "--noise-multiplier", "1e-9",
		"--sampling-rate", "0.5", "--steps", "100", "--delta", "1e-5"); code != 0 || !strings.Contains(out, "ε'") {
		t.Errorf("rdp: status %d, stdout %q, stderr %q", code, out, errs)
	}
}
