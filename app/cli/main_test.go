package cli

import (
	"encoding/csv"
	"os"
	"strings"
	"testing"
)

// TestMain fixes the version line that outputs cite: the test binary's
// build information names the toolchain, which the goldens and the
// README's generated blocks must not depend on.
func TestMain(m *testing.M) {
	citedVersion = func() string { return "(devel) · test build" }
	os.Exit(m.Run())
}

// uncited is a JSON document without its citation (the command line,
// which differs between two invocations that must print the same
// results), or a CSV without the citation's columns.
func uncited(out string) string {
	if strings.HasPrefix(out, "{\n  \"citation\": {") {
		if end := strings.Index(out, "\n  },\n"); end >= 0 {
			return "{\n" + out[end+len("\n  },\n"):]
		}
	}
	lines := strings.Split(out, "\n")
	if len(lines) > 0 {
		if i := strings.Index(lines[0], ",dpso_version,"); i >= 0 {
			recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
			if err != nil {
				return out
			}
			cut := len(strings.Split(lines[0][:i], ",")) + 0
			var b strings.Builder
			w := csv.NewWriter(&b)
			for _, r := range recs {
				w.Write(r[:cut])
			}
			w.Flush()
			return b.String()
		}
	}
	return out
}
