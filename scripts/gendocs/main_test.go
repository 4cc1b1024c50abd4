package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"dpso/internal/testutil/golden"
)

// TestReferenceInSync: docs/cli and docs/man are what gendocs writes from
// the command tree today — every command's page, none of a command that
// no longer exists, each byte for byte — so that a new command, flag or
// output field cannot leave the reference behind. `go run
// ./scripts/gendocs` (or DPSO_UPDATE_GOLDEN=1 on this test) rewrites
// them.
func TestReferenceInSync(t *testing.T) {
	docs := filepath.Join("..", "..", "docs")
	if golden.Update() {
		if err := write(docs); err != nil {
			t.Fatal(err)
		}
	}
	want, err := reference()
	if err != nil {
		t.Fatal(err)
	}
	if len(want) < 2*8 {
		t.Fatalf("the reference has %d files, want a page and a man page for each of dpso's 8 commands at least", len(want))
	}
	var onDisk []string
	for sub, pattern := range map[string]string{referenceDir: "*.md", manDir: "*.1"} {
		files, err := filepath.Glob(filepath.Join(docs, sub, pattern))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			onDisk = append(onDisk, sub+"/"+filepath.Base(f))
		}
	}
	for _, name := range onDisk {
		if _, ok := want[name]; !ok {
			t.Errorf("docs/%s documents no command of dpso's tree: run go run ./scripts/gendocs", name)
		}
	}
	names := make([]string, 0, len(want))
	for name := range want {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		got, err := os.ReadFile(filepath.Join(docs, filepath.FromSlash(name)))
		switch {
		case err != nil:
			t.Errorf("docs/%s is missing: run go run ./scripts/gendocs", name)
		case !bytes.Equal(got, want[name]):
			t.Errorf("docs/%s differs from the command tree (first difference at line %d): run go run ./scripts/gendocs",
				name, firstDiffLine(got, want[name]))
		}
	}
}

// firstDiffLine is the 1-based number of the first line where a and b
// differ.
func firstDiffLine(a, b []byte) int {
	la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			return i + 1
		}
	}
	return min(len(la), len(lb)) + 1
}

// TestReferencePages: the reference of `dpso run` carries what its help
// leaves out — the per-scenario defaults (hinge-t's per-class n), the
// JSON fields to every depth (the certificate's conditions) — and its man
// page names it, undated.
func TestReferencePages(t *testing.T) {
	files, err := reference()
	if err != nil {
		t.Fatal(err)
	}
	md := string(files["cli/dpso_run.md"])
	for _, want := range []string{"## dpso run", "hinge-t        1024   4", "2048   4", "conditions[{text, holds}]", "#### Exit status", "--work-budget"} {
		if !strings.Contains(md, want) {
			t.Errorf("docs/cli/dpso_run.md lacks %q", want)
		}
	}
	if strings.Contains(md, "Auto generated") {
		t.Error("docs/cli/dpso_run.md carries cobra's dated footer")
	}
	man := string(files["man/dpso-run.1"])
	if !strings.Contains(man, `.TH "DPSO-RUN" "1" "" "dpso" "dpso manual"`) {
		t.Errorf("the man page's header is not dpso's, undated:\n%.200s", man)
	}
}
