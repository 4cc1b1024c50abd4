package cli

import (
	"os"
	"runtime/debug"
	"strings"

	"dpso/internal/report"
	"dpso/internal/shard"
	"dpso/internal/spec"
)

// citedVersion is the version line a citation states: that of dpso
// --version. The package's tests fix it (their goldens must not move with
// the toolchain that builds the test binary).
var citedVersion = func() string { return versionString(debug.ReadBuildInfo()) }

// citation is what every JSON document and CSV file of this command
// carries (report.Citation): the version line of `dpso --version`, the
// command line as given (each argument quoted for a POSIX shell), the
// randomness of s with its seed where seeded (random false: the command
// draws nothing, as the privacy conversions), and for user data the
// SHA-256 of the file's bytes.
func (e *env) citation(s spec.Spec, random bool) *report.Citation {
	words := make([]string, 0, len(e.args)+1)
	words = append(words, "dpso")
	for _, a := range e.args {
		words = append(words, spec.ShellQuote(a))
	}
	c := &report.Citation{Version: citedVersion(), Command: strings.Join(words, " ")}
	if random {
		c.Rand, c.Seed = s.Rand, s.Seed
	}
	if s.Data != "" {
		if _, err := os.Stat(s.Data); err == nil {
			if h, err := shard.FileHash(s.Data); err == nil {
				c.DataSHA256 = h
			}
		}
	}
	return c
}
