package cli

import (
	"io"
	"strings"
	"testing"
)

// BenchmarkCommandTree is the cost of building dpso's command tree, which
// every command line pays before it runs (the help texts are cited only
// when one is shown).
func BenchmarkCommandTree(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		(&env{}).rootCmd()
	}
}

// BenchmarkMainList is `dpso list` in process: the command tree, the
// catalogue and its output, without the process's own start (the loader,
// the runtime and the packages' initializers).
func BenchmarkMainList(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if code := Main([]string{"list"}, strings.NewReader(""), io.Discard, io.Discard); code != 0 {
			b.Fatalf("dpso list: exit %d", code)
		}
	}
}
