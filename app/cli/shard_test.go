package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"dpso/theory"
)

// shardRun runs `dpso sweep ARGS --shard i/n --out dir/part-i.json` for
// every i (with --workers i, which changes no result) and returns the
// files' names.
func shardRun(t *testing.T, dir string, n int, args ...string) []string {
	t.Helper()
	var names []string
	for i := 1; i <= n; i++ {
		name := filepath.Join(dir, "part-"+string(rune('0'+i))+".json")
		code, out, errs := dpsoCLI(append(slices.Clone(args), "--shard", string(rune('0'+i))+"/"+string(rune('0'+n)), "--out", name, "--workers", string(rune('0'+i)))...)
		if code != 0 || out != "" || !strings.Contains(errs, "written to "+theory.Quote(name)) {
			t.Fatalf("shard %d: status %d, stdout %q, stderr %q", i, code, out, errs)
		}
		names = append(names, name)
	}
	return names
}

// TestSweepShardedMergesToTheSameBytes: a
// sweep cut into 3 shards, run separately (each with its own --workers)
// and merged, prints byte for byte what the unsharded sweep prints: the
// JSON, the CSV, the table and the SVG figure; the order of the files
// does not matter.
func TestSweepShardedMergesToTheSameBytes(t *testing.T) {
	dir := t.TempDir()
	parts := shardRun(t, dir, 3, sweepArgs...)
	for _, c := range []struct {
		name  string
		extra []string
	}{{"JSON", []string{"--json"}}, {"CSV", []string{"--csv"}}, {"table", nil}} {
		t.Run(c.name, func(t *testing.T) {
			code, want, errs := dpsoCLI(append(slices.Clone(sweepArgs), c.extra...)...)
			if code != 0 {
				t.Fatalf("%s: sweep: status %d: %s", c.name, code, errs)
			}
			files := slices.Clone(parts)
			slices.Reverse(files)
			code, got, errs := dpsoCLI(append(append([]string{"sweep", "merge"}, files...), c.extra...)...)
			if code != 0 || errs != "" {
				t.Fatalf("%s: merge: status %d: %s", c.name, code, errs)
			}
			// The same bytes but for the citation's command line (merge's).
			if uncited(got) != uncited(want) {
				t.Errorf("%s: the merged output differs from the unsharded sweep's:\n--- merged\n%s\n--- sweep\n%s", c.name, got, want)
			}
		})
	}
	whole, merged := filepath.Join(dir, "whole.svg"), filepath.Join(dir, "merged.svg")
	if code, _, errs := dpsoCLI(append(slices.Clone(sweepArgs), "--plot", whole)...); code != 0 {
		t.Fatal(errs)
	}
	if code, _, errs := dpsoCLI(append(append([]string{"sweep", "merge"}, parts...), "--plot", merged)...); code != 0 {
		t.Fatal(errs)
	}
	a, _ := os.ReadFile(whole)
	b, _ := os.ReadFile(merged)
	if len(a) == 0 || string(a) != string(b) {
		t.Errorf("the merged figure differs from the sweep's (%d and %d bytes)", len(a), len(b))
	}

	// An ε sweep with an accounted solver (dp-sgd: its ledger events travel
	// in the files) and a materializing one (klz-gd), in 2 shards.
	eps := []string{"sweep", "--scenario", "linreg-t", "--d", "3", "--n", "4000", "--trials", "2", "--vary", "eps", "--from", "0.5", "--to", "2",
		"--points", "3", "--solvers", "acsa,dp-sgd,klz-gd"}
	parts = shardRun(t, t.TempDir(), 2, eps...)
	_, want, _ := dpsoCLI(append(slices.Clone(eps), "--json")...)
	code, got, errs := dpsoCLI(append(append([]string{"sweep", "merge"}, parts...), "--json")...)
	if code != 0 || uncited(got) != uncited(want) || !strings.Contains(want, "dp-sgd") {
		t.Errorf("ε sweep with dp-sgd: status %d %s; the merged JSON equals the sweep's: %v", code, errs, got == want)
	}
}

// TestSweepShardOnUserData: a sweep on user data with seeded noise (asked
// for, and labelled not private), sharded and merged, is the unsharded
// sweep, its privacy total the whole sweep's; merge reads the data again
// (at the shards' path, or --data PATH to a copy) and refuses a file whose
// content differs. With the default secure randomness the shards merge
// too (into a sweep of other draws, which no second run can repeat).
func TestSweepShardOnUserData(t *testing.T) {
	atRepoRoot(t)
	dir := t.TempDir()
	args := []string{"sweep", "--data", "examples/linreg-t-d3.csv", "--rk", "12", "--beta", "1.5", "--trials", "2",
		"--vary", "eps", "--from", "0.5", "--to", "2", "--points", "2"}
	secure := shardRun(t, t.TempDir(), 2, args...)
	if code, _, errs := dpsoCLI(append([]string{"sweep", "merge"}, secure...)...); code != 0 {
		t.Errorf("merge of secure shards: status %d: %s", code, errs)
	}
	args = append(args, "--rand", "seeded")
	parts := shardRun(t, dir, 2, args...)
	_, want, _ := dpsoCLI(append(slices.Clone(args), "--json")...)
	code, got, errs := dpsoCLI(append(append([]string{"sweep", "merge"}, parts...), "--json")...)
	if code != 0 || uncited(got) != uncited(want) {
		t.Fatalf("merge: status %d %s; equal: %v", code, errs, got == want)
	}
	raw, _ := os.ReadFile("examples/linreg-t-d3.csv")
	cp := filepath.Join(dir, "copy.csv")
	os.WriteFile(cp, raw, 0o644)
	code, got, errs = dpsoCLI(append(append([]string{"sweep", "merge"}, parts...), "--json", "--data", cp)...)
	if code != 0 || !strings.Contains(got, cp) {
		t.Errorf("merge --data copy: status %d %s", code, errs)
	}
	os.WriteFile(cp, append(raw, []byte("0.1,0.2,0.3,0.4\n")...), 0o644)
	code, _, errs = dpsoCLI(append(append([]string{"sweep", "merge"}, parts...), "--data", cp)...)
	if code != 2 || !strings.Contains(errs, "is not the data the shards ran on") {
		t.Errorf("merge --data with other content: status %d %s", code, errs)
	}
}

// TestSweepShardRefusals: shards of different sweeps, a shard missing or
// given twice, an existing --out, and the flags a shard cannot take, each
// refused with status 2 and a line that names the file or the flag.
func TestSweepShardRefusals(t *testing.T) {
	dir := t.TempDir()
	parts := shardRun(t, dir, 3, sweepArgs...)
	other := filepath.Join(dir, "other-3.json")
	otherArgs := append(slices.Clone(sweepArgs), "--seed", "7", "--shard", "3/3", "--out", other)
	if code, _, errs := dpsoCLI(otherArgs...); code != 0 {
		t.Fatal(errs)
	}
	merge := func(files ...string) []string { return append([]string{"sweep", "merge"}, files...) }
	// Not regular files: a FIFO made merge block forever, /dev/zero grow
	// without bound; each is refused up front, named, status 2.
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want []string
	}{
		{merge(fifo, parts[0]), []string{theory.Quote(fifo), "named pipe", "not a regular file"}},
		{merge(parts[0], "/dev/zero"), []string{`"/dev/zero" is a character device`}},
		{merge(dir), []string{"is a folder"}},
		{merge(parts[0], parts[1]), []string{"shard 3/3 is missing (2 of 3 shards given)"}},
		{merge(parts[0], parts[1], parts[1], parts[2]), []string{"shard 2/3 is given twice", theory.Quote(parts[1])}},
		{merge(parts[0], parts[1], other), []string{theory.Quote(other) + " is a shard of a different sweep than " + theory.Quote(parts[0]), "--seed"}},
		{merge(filepath.Join(dir, "none.json")), []string{"none.json", "no such file"}},
		{merge(), []string{"give the shard files"}},
		{[]string{"sweep", "merg", parts[0]}, []string{"takes no arguments", "merg"}},
		{merge(parts...), nil}, // the control: these merge
		{append(slices.Clone(sweepArgs), "--shard", "1/3", "--out", parts[0]), []string{"--out:", "exists", "--force"}},
		{append(slices.Clone(sweepArgs), "--shard", "1/3"), []string{"--shard:", "give --out FILE"}},
		{append(slices.Clone(sweepArgs), "--shard", "4/3", "--out", "x.json"), []string{"--shard:", "1 ≤ I ≤ N"}},
		{append(slices.Clone(sweepArgs), "--shard", "10/10", "--out", filepath.Join(dir, "x.json")), []string{"--shard:", "10 shards for 9 units", "use 1 to 9 shards"}},
		{append(slices.Clone(sweepArgs), "--out", filepath.Join(dir, "y.json"), "--json"), []string{"--out writes raw results", "dpso sweep merge"}},
		{append(slices.Clone(sweepArgs), "--force"), []string{"--force:", "--out"}},
		{merge(parts...), nil},
	} {
		t.Run(caseName(c.args), func(t *testing.T) {
			code, _, errs := dpsoCLI(c.args...)
			if c.want == nil {
				if code != 0 {
					t.Errorf("%v: status %d: %s", c.args, code, errs)
				}
				return
			}
			if code != 2 {
				t.Errorf("%v: status %d, want 2 (%s)", c.args, code, errs)
			}
			for _, w := range c.want {
				if !strings.Contains(errs, w) {
					t.Errorf("%v: %q lacks %q", c.args, errs, w)
				}
			}
		})
	}
	// --force replaces the file, atomically.
	code, _, errs := dpsoCLI(append(slices.Clone(sweepArgs), "--shard", "1/3", "--out", parts[0], "--force")...)
	if code != 0 {
		t.Errorf("--force: status %d: %s", code, errs)
	}
	if es, _ := os.ReadDir(dir); len(es) != 5 {
		t.Errorf("%d files in the folder, want the 4 shard files and the FIFO", len(es))
	}
}
