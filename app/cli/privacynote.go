package cli

import (
	"fmt"

	"dpso/internal/report"
)

// csvPrivacyNote says on stderr what a CSV cannot carry: that
// its excess risks, measured on the user's rows, are a non-private
// diagnostic, and why a run is NOT private.
func csvPrivacyNote(e *env, userRows bool, notPrivate []string) {
	for _, why := range notPrivate {
		fmt.Fprintf(e.stderr, "dpso: NOT PRIVATE: %s\n", why)
	}
	if userRows {
		fmt.Fprintf(e.stderr, "dpso: note: the excess risks in this CSV are %s\n", report.DiagnosticNote)
	}
}
