package cli

import (
	"io"
	"strings"
	"testing"
)

// BenchmarkCommandTree is the cost of building dpso's whole command tree,
// which help, completion and the reference pages build (a command line
// that names a command builds the root and that command alone: rootFor;
// the help texts are cited only when one is shown).
func BenchmarkCommandTree(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		(&env{}).rootCmd()
	}
}

// BenchmarkMainList is `dpso list` in process: its command tree (the
// root and list), the catalogue and its output, without the process's
// own start (the loader, the runtime and the packages' initializers).
func BenchmarkMainList(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if code := Main([]string{"list"}, strings.NewReader(""), io.Discard, io.Discard); code != 0 {
			b.Fatalf("dpso list: exit %d", code)
		}
	}
}
