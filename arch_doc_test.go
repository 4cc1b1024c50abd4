package main

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// architectureSection is the text of ARCHITECTURE.md's section headed
// "## "+title, up to the next "## ".
func architectureSection(t *testing.T, title string) string {
	t.Helper()
	b, err := os.ReadFile("ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, "\n## "+title+"\n")
	if i < 0 {
		t.Fatalf("ARCHITECTURE.md has no section %q", title)
	}
	s = s[i+len(title)+5:]
	if j := strings.Index(s, "\n## "); j >= 0 {
		s = s[:j]
	}
	return s
}

// treePath is a path at the start of a line of the package tree: a
// folder ("internal/testutil/plotcheck/") or the root's files ("main.go").
var treePath = regexp.MustCompile(`^ *([a-z][a-z0-9_.-]*(?:/[a-z0-9_.-]+)*/|main\.go)`)

// TestArchitecturePackages holds ARCHITECTURE.md's package tree to the
// code: every folder with (non-test) Go files is a line of the tree, by
// its full path, or a word of the entry of the nearest folder above it
// that is ("tui/components/ one component a package: form, …"), and
// every folder the tree names exists.
func TestArchitecturePackages(t *testing.T) {
	listed := packageTree(t)
	if _, ok := listed["main.go"]; !ok {
		t.Error("the tree does not list the root (main.go)")
	}
	word := func(text, w string) bool {
		return regexp.MustCompile(`(^|[^\w/])` + regexp.QuoteMeta(w) + `($|[^\w/])`).MatchString(text)
	}
	eachPackage(t, 0, func(path string, _ *build.Package) error {
		p := filepath.ToSlash(path) + "/"
		if _, ok := listed[p]; path == "." || ok {
			return nil
		}
		for a := filepath.ToSlash(filepath.Dir(path)); a != "."; a = filepath.ToSlash(filepath.Dir(a)) {
			if entry, ok := listed[a+"/"]; ok {
				if !word(entry, filepath.Base(path)) {
					t.Errorf("package %s is neither a line of ARCHITECTURE.md's tree nor named in %s/'s entry", path, a)
				}
				return nil
			}
		}
		t.Errorf("package %s is not in ARCHITECTURE.md's tree (a line starting with %s)", path, p)
		return nil
	})
	for p := range listed {
		if p == "main.go" {
			continue
		}
		if fi, err := os.Stat(filepath.FromSlash(p)); err != nil || !fi.IsDir() {
			t.Errorf("ARCHITECTURE.md's tree lists %s, which is not a folder here", p)
		}
	}
}

// packageTree is ARCHITECTURE.md's package tree: each path it lists ("tui/",
// "main.go") with its entry's text, the lines up to the next path.
func packageTree(t *testing.T) map[string]string {
	t.Helper()
	sec := architectureSection(t, "Packages")
	i, j := strings.Index(sec, "```\n"), strings.LastIndex(sec, "\n```")
	if i < 0 || j <= i {
		t.Fatal("the Packages section has no code block")
	}
	listed := map[string]string{}
	last := ""
	for _, line := range strings.Split(sec[i+4:j], "\n") {
		if m := treePath.FindStringSubmatch(line); m != nil {
			last = m[1]
		}
		if last != "" {
			listed[last] += " " + line
		}
	}
	return listed
}

// TestArchitectureExplorerExports holds the tree's entry for tui/ to the
// code: the names in its "exports its entry points only (…)" are exactly
// the exported top-level names of package tui.
func TestArchitectureExplorerExports(t *testing.T) {
	_, rest, ok := strings.Cut(packageTree(t)["tui/"], "exports its entry points only (")
	list, _, closed := strings.Cut(rest, ")")
	if !ok || !closed {
		t.Fatal(`the tree's entry for tui/ does not say "exports its entry points only (…)"`)
	}
	listed := regexp.MustCompile(`\b[A-Z]\w*`).FindAllString(list, -1)
	slices.Sort(listed)
	p, err := build.ImportDir("tui", 0)
	if err != nil {
		t.Fatal(err)
	}
	var exported []string
	fset := token.NewFileSet()
	for _, name := range p.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join("tui", name), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					exported = append(exported, d.Name.Name)
				}
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					switch sp := sp.(type) {
					case *ast.TypeSpec:
						exported = append(exported, sp.Name.Name)
					case *ast.ValueSpec:
						for _, n := range sp.Names {
							exported = append(exported, n.Name)
						}
					}
				}
			}
		}
	}
	exported = slices.DeleteFunc(exported, func(n string) bool { return !ast.IsExported(n) })
	slices.Sort(exported)
	if len(exported) == 0 || !slices.Equal(listed, exported) {
		t.Errorf("ARCHITECTURE.md says tui exports %v; it exports %v", listed, exported)
	}
}

// ruleLine is a line of the import rules: the packages it names, and what
// they may import.
type ruleLine struct {
	pkgs, imports []string
}

var backticked = regexp.MustCompile("`([^`]+)`")

// architectureRules parses the import rules' lines: "- `a`, `b`: `x`,
// `y` — why." names a and b and lets them import x and y (the
// backticked names before the colon, and those between it and the dash);
// "nothing of ours" is none, and "the root (`main.go`)" is dpso's main.
func architectureRules(t *testing.T) []ruleLine {
	t.Helper()
	sec := architectureSection(t, "Import rules")
	var bullets []string
	for _, line := range strings.Split(sec, "\n") {
		switch {
		case strings.HasPrefix(line, "- "):
			bullets = append(bullets, line[2:])
		case strings.HasPrefix(line, "  ") && len(bullets) > 0:
			bullets[len(bullets)-1] += " " + strings.TrimSpace(line)
		case strings.TrimSpace(line) == "":
			if len(bullets) > 0 && !strings.HasSuffix(bullets[len(bullets)-1], "\x00") {
				bullets[len(bullets)-1] += "\x00" // a bullet ends at a blank line
			}
		}
	}
	full := func(name string) string {
		if name == "main.go" {
			return "dpso"
		}
		return "dpso/" + name
	}
	var out []ruleLine
	for _, b := range bullets {
		b = strings.TrimSuffix(b, "\x00")
		head, rest, ok := strings.Cut(b, ":")
		if !ok {
			t.Errorf("import rule %q has no colon", b)
			continue
		}
		var r ruleLine
		for _, m := range backticked.FindAllStringSubmatch(head, -1) {
			r.pkgs = append(r.pkgs, full(m[1]))
		}
		rest, _, _ = strings.Cut(rest, " — ")
		if !strings.Contains(rest, "nothing of ours") {
			for _, m := range backticked.FindAllStringSubmatch(rest, -1) {
				r.imports = append(r.imports, full(m[1]))
			}
		}
		if len(r.pkgs) == 0 {
			t.Errorf("import rule %q names no package", b)
		}
		out = append(out, r)
	}
	return out
}

// TestArchitectureImportRules holds ARCHITECTURE.md's import rules to
// importRules, which TestImportRules holds the code to: every package of
// importRules has exactly one line, which lets it import what importRules
// does (an entry x/... is x where nothing lies under x), and no line names
// a package importRules lacks.
func TestArchitectureImportRules(t *testing.T) {
	var pkgs []string
	eachPackage(t, 0, func(path string, _ *build.Package) error {
		pkgs = append(pkgs, filepath.ToSlash(filepath.Join("dpso", path)))
		return nil
	})
	canonical := func(entries []string) []string {
		var out []string
		for _, e := range entries {
			if x, ok := strings.CutSuffix(e, "/..."); ok && !slices.ContainsFunc(pkgs, func(p string) bool { return strings.HasPrefix(p, x+"/") }) {
				e = x
			}
			out = append(out, e)
		}
		slices.Sort(out)
		return out
	}
	seen := map[string]bool{}
	for _, r := range architectureRules(t) {
		for _, p := range r.pkgs {
			want, ok := importRules[p]
			switch {
			case !ok:
				t.Errorf("ARCHITECTURE.md has a rule for %s, which importRules lacks", p)
			case seen[p]:
				t.Errorf("ARCHITECTURE.md has two rules for %s", p)
			case !slices.Equal(canonical(r.imports), canonical(want)):
				t.Errorf("%s: ARCHITECTURE.md lets it import %v, importRules %v", p, canonical(r.imports), canonical(want))
			}
			seen[p] = true
		}
	}
	for p := range importRules {
		if !seen[p] {
			t.Errorf("importRules has %s, which ARCHITECTURE.md's import rules do not name", p)
		}
	}
	if len(seen) < 20 {
		t.Errorf("only %d packages read from the import rules (a parse that found nothing proves nothing)", len(seen))
	}
}
