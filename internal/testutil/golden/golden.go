package golden

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	xgolden "github.com/charmbracelet/x/exp/golden"
)

// EnvUpdate is the environment variable that, set to 1, rewrites every
// golden file and generated block instead of comparing with it, as
// go test -update does.
const EnvUpdate = "DPSO_UPDATE_GOLDEN"

// updateFlag is the -update flag that x/exp/golden registers.
const updateFlag = "update"

func init() {
	if os.Getenv(EnvUpdate) == "1" {
		// Before the test binary parses its command line, which sets
		// only the flags it is given: the switch holds for the whole run.
		if err := flag.Set(updateFlag, "true"); err != nil {
			panic(fmt.Sprintf("golden: %s=1 but x/exp/golden's -%s flag is not set: %v", EnvUpdate, updateFlag, err))
		}
	}
}

// Update reports whether this run rewrites the golden files (go test
// -update, or DPSO_UPDATE_GOLDEN=1): tests whose goldens are not files of
// testdata/ (the README's generated blocks, the reference docs) write
// them in place when it is true.
func Update() bool {
	f := flag.Lookup(updateFlag)
	if f == nil {
		return false
	}
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return false
	}
	on, _ := g.Get().(bool)
	return on
}

// Path is the golden file of name: testdata/name.golden in the test's
// package folder.
func Path(name string) string { return filepath.Join("testdata", name+".golden") }

// Equal compares got with the golden file Path(name), byte for byte, and
// reports a difference (with its unified diff) as an error of t, so that
// a test that compares several goldens reports every one that differs;
// under Update it writes the file first. A missing file is fatal.
func Equal(t testing.TB, name, got string) {
	t.Helper()
	xgolden.RequireEqual(named{TB: t, name: name}, got)
}

// named is t as x/exp/golden sees it: named name, so that RequireEqual's
// testdata/<Name()>.golden is the golden's file, and with RequireEqual's
// one Fatalf (a difference) reported as an error.
type named struct {
	testing.TB
	name string
}

// Name is the golden's name, which RequireEqual makes its file's.
func (n named) Name() string { return n.name }

// Fatalf reports RequireEqual's difference as an error of the test, with
// the file and how to rewrite it.
func (n named) Fatalf(format string, args ...any) {
	n.TB.Helper()
	n.TB.Errorf("%s: %s\n(go test -update, or %s=1, rewrites it)", Path(n.name), fmt.Sprintf(format, args...), EnvUpdate)
}

// Fatal ends the test on RequireEqual's I/O errors (a missing golden:
// the hint says how to create it).
func (n named) Fatal(args ...any) {
	n.TB.Helper()
	n.TB.Fatalf("%s: %s (go test -update, or %s=1, creates it)", Path(n.name), fmt.Sprint(args...), EnvUpdate)
}
