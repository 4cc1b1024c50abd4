// Package golden is the one golden-file helper of dpso's tests: a test's
// output compared byte for byte with a file in its package's testdata/,
// and the files rewritten on request. It is built on
// github.com/charmbracelet/x/exp/golden (RequireEqual, with its -update
// flag), adding the file's name (RequireEqual names it after the test)
// and the environment switch DPSO_UPDATE_GOLDEN=1, which reaches every
// package of `go test ./...` where -update would be refused by the
// packages that have no goldens.
//
// It is test support: only tests import it (arch_test.go checks that no
// package does), so deadcode, which counts no test as a root, lists it.
package golden
