package main

import (
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// importRules are ARCHITECTURE.md's import rules: for each package (by the
// longest matching path prefix) the packages of dpso it may import, besides
// its own sub-packages. theory imports nothing of dpso's, solvers only
// theory (its one number formatter, for notes and messages, and its
// privacy conversions: one ρ = ε²/2, one Gaussian curve), the accountant
// nothing; the problem library imports those two; spec the library; the
// engine spec; the reports and figures the engine; the explorer everything
// under internal/ (none of which imports it or app/), in layers: its root
// over its screens and its components (which import neither each other nor
// the screens), those over its common contract, the run services and the
// backend, the one way into the engine; its styles nothing and its chart
// only the styles; the front ends under app/ stand above it.
var importRules = map[string][]string{
	"dpso/theory":               {},
	"dpso/solvers":              {"dpso/solvers/...", "dpso/theory"},
	"dpso/solvers/accountant":   {},
	"dpso/solvers/noise":        {},
	"dpso/scenarios/dist":       {},
	"dpso/scenarios":            {"dpso/solvers/...", "dpso/theory/...", "dpso/scenarios/dist"},
	"dpso/internal/spec":        {"dpso/scenarios", "dpso/scenarios/dist", "dpso/solvers/...", "dpso/theory/..."},
	"dpso/internal/engine":      {"dpso/scenarios", "dpso/scenarios/dist", "dpso/internal/spec", "dpso/solvers/...", "dpso/theory/..."},
	"dpso/internal/report":      {"dpso/scenarios", "dpso/scenarios/dist", "dpso/internal/spec", "dpso/internal/engine", "dpso/internal/audit", "dpso/solvers/...", "dpso/theory/..."},
	"dpso/internal/plot":        {"dpso/scenarios", "dpso/internal/spec", "dpso/internal/engine", "dpso/internal/outfile", "dpso/internal/report", "dpso/solvers", "dpso/theory/..."},
	"dpso/internal/outfile":     {"dpso/theory"},
	"dpso/internal/audit":       {"dpso/scenarios", "dpso/internal/spec", "dpso/solvers/...", "dpso/theory/..."},
	"dpso/internal/shard":       {"dpso/internal/spec", "dpso/internal/engine", "dpso/solvers/...", "dpso/theory/..."},
	"dpso/internal/statestring": {"dpso/internal/spec", "dpso/scenarios", "dpso/theory/..."},
	"dpso/internal/testutil":    {},
	"dpso/app/serve":            {"dpso/internal/...", "dpso/solvers/...", "dpso/theory/...", "dpso/tui", "dpso/tui/backend", "dpso/tui/presets", "dpso/tui/input", "dpso/app/serve/web"},
	"dpso/app/serve/web":        {},
	"dpso/app/cli":              {"dpso/scenarios/...", "dpso/internal/...", "dpso/app/serve", "dpso/solvers/...", "dpso/theory/...", "dpso/tui/..."},
	"dpso/scripts":              {"dpso/scenarios/...", "dpso/internal/...", "dpso/app/cli", "dpso/solvers/...", "dpso/theory/..."},
	"dpso/tui":                  {"dpso/scenarios/...", "dpso/internal/...", "dpso/solvers/...", "dpso/theory/..."},
	"dpso/tui/style":            {},
	"dpso/tui/chart":            {"dpso/tui/style"},
	"dpso/tui/input":            {},
	"dpso/tui/backend":          {"dpso/internal/spec", "dpso/internal/engine", "dpso/internal/audit"},
	"dpso/tui/runs":             {"dpso/tui/backend", "dpso/internal/spec", "dpso/internal/engine", "dpso/internal/audit", "dpso/solvers/...", "dpso/theory/..."},
	"dpso/tui/common":           {"dpso/tui/backend", "dpso/tui/runs", "dpso/tui/style", "dpso/tui/chart", "dpso/internal/...", "dpso/scenarios", "dpso/solvers/...", "dpso/theory/..."},
	"dpso/tui/presets":          {"dpso/tui/runs", "dpso/internal/spec", "dpso/scenarios", "dpso/theory/..."},
	"dpso/tui/components":       {"dpso/tui/backend", "dpso/tui/runs", "dpso/tui/common", "dpso/tui/presets", "dpso/tui/style", "dpso/tui/chart", "dpso/internal/...", "dpso/scenarios/...", "dpso/solvers/...", "dpso/theory/..."},
	"dpso/tui/screens":          {"dpso/tui/backend", "dpso/tui/runs", "dpso/tui/common", "dpso/tui/style", "dpso/tui/chart", "dpso/internal/...", "dpso/scenarios/...", "dpso/solvers/...", "dpso/theory/..."},
	"dpso":                      {"dpso/app/cli"},

	// Test support (tests only import it): a figure's measured colours;
	// the sweep reports the tests build.
	"dpso/internal/testutil/plotcheck": {"dpso/internal/plot"},
	"dpso/internal/testutil/sweepfix":  {"dpso/internal/engine", "dpso/internal/spec", "dpso/theory"},
}

// allows reports whether the rule entry a ("x" exactly, or "x/..." for x
// and its sub-packages) allows importing imp.
func allows(a, imp string) bool {
	if x, ok := strings.CutSuffix(a, "/..."); ok {
		return imp == x || strings.HasPrefix(imp, x+"/")
	}
	return imp == a
}

// rule is the rule of the longest prefix of pkg.
func rule(pkg string) (string, []string, bool) {
	best := ""
	for p := range importRules {
		if (pkg == p || strings.HasPrefix(pkg, p+"/")) && len(p) > len(best) {
			best = p
		}
	}
	allowed, ok := importRules[best]
	return best, allowed, ok
}

// TestImportRules checks every package's (non-test) imports of dpso
// against importRules: an allowed package or any of its sub-packages, or
// a sub-package of the package's own rule; none imports the test helpers
// of internal/testutil. The test files may import more
// (an external test package of a leaf, say).
func TestImportRules(t *testing.T) {
	eachPackage(t, 0, func(path string, p *build.Package) error {
		pkg := filepath.ToSlash(filepath.Join("dpso", path))
		if path == "." {
			pkg = "dpso"
		}
		base, allowed, ok := rule(pkg)
		if !ok {
			t.Errorf("%s has no import rule: add it to ARCHITECTURE.md and importRules", pkg)
			return nil
		}
		for _, imp := range p.Imports {
			if imp != "dpso" && !strings.HasPrefix(imp, "dpso/") {
				continue
			}
			if allows("dpso/internal/testutil/...", imp) {
				t.Errorf("%s imports %s: test helpers are for tests only", pkg, imp)
				continue
			}
			// A package's own sub-packages (solvers/oracle from solvers'
			// tree, tui/chart from tui's) are its own business; the
			// explorer's components import no other component.
			ok := base != "dpso" && base != "dpso/scenarios" && base != "dpso/tui/components" && strings.HasPrefix(imp, base+"/")
			ok = ok || slices.ContainsFunc(allowed, func(a string) bool { return allows(a, imp) })
			if !ok {
				t.Errorf("%s imports %s, against its rule (%s may import %v)", pkg, imp, base, allowed)
			}
		}
		return nil
	})
}

// eachPackage calls fn for every directory of the module with (non-test)
// Go files, skipping hidden folders and testdata, and fails the test when
// fewer than 13 packages were seen (a walk that found nothing proves
// nothing).
func eachPackage(t *testing.T, mode build.ImportMode, fn func(path string, p *build.Package) error) {
	t.Helper()
	checked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if name := d.Name(); path != "." && (strings.HasPrefix(name, ".") || name == "testdata") {
			return filepath.SkipDir
		}
		p, err := build.Default.ImportDir(path, mode)
		if err != nil {
			return nil // no Go files here
		}
		checked++
		return fn(path, p)
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 13 {
		t.Errorf("only %d packages checked", checked)
	}
}

// TestEveryPackageHasDocGo is ARCHITECTURE.md's "each package with a
// doc.go": every directory with (non-test) Go files has a doc.go that
// carries the package comment ("// Package x …", or "// Command x …" for
// a command), and no other file of the package carries one (two package
// comments are concatenated by go doc).
func TestEveryPackageHasDocGo(t *testing.T) {
	eachPackage(t, build.ImportComment, func(path string, p *build.Package) error {
		if !slices.Contains(p.GoFiles, "doc.go") {
			t.Errorf("%s has no doc.go (package %s)", path, p.Name)
			return nil
		}
		for _, f := range p.GoFiles {
			src, err := os.ReadFile(filepath.Join(path, f))
			if err != nil {
				return err
			}
			has := packageComment(string(src), p.Name)
			switch {
			case f == "doc.go" && !has:
				t.Errorf("%s: doc.go has no package comment", path)
			case f != "doc.go" && has:
				t.Errorf("%s: %s carries a package comment besides doc.go's", path, f)
			}
		}
		return nil
	})
}

// packageComment reports whether src has a comment line directly above
// its package clause.
func packageComment(src, name string) bool {
	lines := strings.Split(src, "\n")
	for i, l := range lines {
		if l == "package "+name || strings.HasPrefix(l, "package "+name+" ") {
			return i > 0 && strings.HasPrefix(lines[i-1], "//") && !strings.HasPrefix(lines[i-1], "//go:")
		}
	}
	return false
}
