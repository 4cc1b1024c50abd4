package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestPlotFileSafety: through the CLI, --plot never
// overwrites an existing file unless --force (exit status 2, the file
// untouched), never writes through a symbolic link (dangling or not, with
// or without --force), and --force replaces a regular file.
func TestPlotFileSafety(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "mine.svg")
	os.WriteFile(existing, []byte("my figure"), 0o644)
	victim := filepath.Join(dir, "victim.txt")
	os.WriteFile(victim, []byte("precious"), 0o644)
	link := filepath.Join(dir, "link.svg")
	os.Symlink(victim, link)
	dangling := filepath.Join(dir, "dangling.svg")
	planted := filepath.Join(dir, "planted-target.svg")
	os.Symlink(planted, dangling)
	folder := filepath.Join(dir, "folder.svg")
	os.Mkdir(folder, 0o755)

	args := func(extra ...string) []string {
		return append([]string{"run", "--scenario", "linreg-t", "--d", "2", "--n", "500", "--trials", "2"}, extra...)
	}
	refused := []struct {
		name string
		args []string
		want string
	}{
		{"existing file", args("--plot", existing), "already exists"},
		{"link", args("--plot", link), "symbolic link"},
		{"link with --force", args("--plot", link, "--force"), "symbolic link"},
		{"dangling link", args("--plot", dangling), "symbolic link"},
		{"dangling link with --force", args("--plot", dangling, "--force"), "symbolic link"},
		{"folder", args("--plot", folder, "--force"), "folder"},
		{"sweep, existing file", []string{"sweep", "--scenario", "linreg-t", "--d", "2", "--trials", "2", "--vary", "n", "--from", "200", "--to", "400", "--points", "2", "--plot", existing}, "already exists"},
	}
	for _, c := range refused {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := dpsoCLI(c.args...)
			if code != 2 || !strings.Contains(errs, "--plot") || !strings.Contains(errs, c.want) || out != "" {
				t.Errorf("%s: status %d, stdout %q, stderr %q; want 2 and %q before any output", c.name, code, out, errs, c.want)
			}
		})
	}
	for p, want := range map[string]string{existing: "my figure", victim: "precious"} {
		t.Run(filepath.Base(p), func(t *testing.T) {
			if b, _ := os.ReadFile(p); string(b) != want {
				t.Errorf("%s changed to %q", p, b)
			}
		})
	}
	if _, err := os.Lstat(planted); !os.IsNotExist(err) {
		t.Error("the dangling link's target was created")
	}
	// --force replaces a regular file with a complete figure.
	if code, _, errs := dpsoCLI(args("--plot", existing, "--force")...); code != 0 {
		t.Fatalf("--force: status %d, %s", code, errs)
	}
	b, _ := os.ReadFile(existing)
	checkSVG(t, b)
	// --force alone is a usage error.
	if code, _, errs := dpsoCLI(args("--force")...); code != 2 || !strings.Contains(errs, "--force") {
		t.Errorf("--force without --plot: status %d, %q", code, errs)
	}
	es, _ := os.ReadDir(dir)
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	if want := []string{"dangling.svg", "folder.svg", "link.svg", "mine.svg", "victim.txt"}; !slices.Equal(names, want) {
		t.Errorf("folder holds %v, want %v (no temporary file left)", names, want)
	}
}
