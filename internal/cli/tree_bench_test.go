package cli

import "testing"

// BenchmarkCommandTree is the cost of building dpso's command tree, which
// every command line pays before it runs (the help texts are cited only
// when one is shown).
func BenchmarkCommandTree(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		(&env{}).rootCmd()
	}
}
