package engine

import (
	"context"
	"strings"
	"testing"

	"dpso/internal/spec"
)

// TestCertificateNotesGivenConstantsOnlyWhenGiven: on user data with
// --constants private the certificate reads trial 0's private estimates,
// which the run notes as such; the note that it uses user-given constants
// is made only where a flag gave one it reads (--beta here), not for the
// estimates.
func TestCertificateNotesGivenConstantsOnlyWhenGiven(t *testing.T) {
	base := spec.Spec{Data: "../../examples/linreg-t-d3.csv", Constants: "private", Rand: "seeded", Seed: 1, Trials: 1}
	withBeta := base
	withBeta.Beta = 3
	for _, c := range []struct {
		name  string
		s     spec.Spec
		given bool
	}{{"all estimated", base, false}, {"β given", withBeta, true}} {
		t.Run(c.name, func(t *testing.T) {
			rep, err := Run(context.Background(), resolve(t, c.s), nil)
			if err != nil {
				t.Fatal(err)
			}
			notes := strings.Join(append(rep.Notes, rep.Certified.Notes...), "\n")
			if !strings.Contains(notes, "private estimates") {
				t.Fatalf("no note on the private estimates:\n%s", notes)
			}
			if got := strings.Contains(notes, "the certificate uses user-given constants"); got != c.given {
				t.Fatalf("certificate's user-given note %v, want %v:\n%s", got, c.given, notes)
			}
		})
	}
}
