package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSecureRandomnessStatesNoSeed: with secure randomness (asked for, or
// the default on --data) no stream reads the seed, so no output states
// one: the JSON's "seed" is null at the top and in every trial and run,
// and the tables name the mode without a seed.
func TestSecureRandomnessStatesNoSeed(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "points.csv")
	os.WriteFile(data, []byte("a1,a2,y\n1,0,1\n0,2,-1\n-1,1,0.5\n2,-1,-1\n0.5,0.5,0\n1,1,2\n"), 0o644)
	small := []string{"--scenario", "linreg-t", "--n", "400", "--trials", "2"}
	cases := []struct {
		name string
		args []string
	}{
		{"run", append([]string{"run", "--rand", "secure"}, small...)},
		{"run on data", []string{"run", "--data", data, "--rk", "3", "--beta", "1"}},
		{"comparison", append([]string{"run", "--rand", "secure", "--solvers", "acsa,nonprivate-schedule"}, small...)},
		{"sweep", append([]string{"sweep", "--rand", "secure", "--vary", "eps", "--from", "0.5", "--to", "1", "--points", "2"}, small...)},
		{"audit", []string{"audit", "--rand", "secure", "--trials", "1000"}},
		{"one-run audit", []string{"audit", "--one-run", "--rand", "secure"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := dpsoCLI(append(c.args, "--json")...)
			if code != 0 {
				t.Fatalf("status %d: %s", code, errs)
			}
			var doc any
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("not JSON: %v", err)
			}
			n := 0
			var walk func(path string, v any)
			walk = func(path string, v any) {
				switch v := v.(type) {
				case map[string]any:
					for k, x := range v {
						if k == "seed" {
							n++
							if x != nil {
								t.Errorf("%s.seed = %v, want null with secure randomness", path, x)
							}
						}
						walk(path+"."+k, x)
					}
				case []any:
					for _, x := range v {
						walk(path+"[]", x)
					}
				}
			}
			walk("", doc)
			if n == 0 {
				t.Errorf("no \"seed\" key: %s", out)
			}
			code, out, errs = dpsoCLI(c.args...)
			if code != 0 {
				t.Fatalf("table: status %d: %s", code, errs)
			}
			if strings.Contains(out, "seed") {
				t.Errorf("the table states a seed with secure randomness:\n%s", out)
			}
			if !strings.Contains(out, "secure") {
				t.Errorf("the table does not state the secure randomness:\n%s", out)
			}
		})
	}
}

// TestSecureRandomnessRefusesASeed: a typed --seed promises a reproducible
// run, which secure randomness (asked for, or the default on --data) cannot
// keep: it is refused on --seed, with the way to a seeded run, instead of
// being silently ignored.
func TestSecureRandomnessRefusesASeed(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "points.csv")
	os.WriteFile(data, []byte("a1,a2,y\n1,0,1\n0,2,-1\n-1,1,0.5\n2,-1,-1\n0.5,0.5,0\n1,1,2\n"), 0o644)
	for _, args := range [][]string{
		{"run", "--rand", "secure", "--seed", "5", "--n", "400"},
		{"run", "--data", data, "--rk", "3", "--beta", "1", "--seed", "5"},
		{"run", "--rand", "secure", "--seed", "0", "--solvers", "acsa,nonprivate-schedule", "--n", "400"},
		{"sweep", "--rand", "secure", "--seed", "5", "--vary", "eps", "--from", "0.5", "--to", "1"},
		{"audit", "--rand", "secure", "--seed", "5"},
	} {
		t.Run(caseName(args), func(t *testing.T) {
			code, out, errs := dpsoCLI(args...)
			if code != 2 || out != "" || !strings.HasPrefix(errs, "dpso: --seed:") || !strings.Contains(errs, "--rand seeded") {
				t.Errorf("%v: status %d, stdout %q, stderr %q: want 2 and one line on --seed", args, code, out, errs)
			}
		})
	}
	// Seeded on the same rows is allowed (and says it is not private).
	if code, _, errs := dpsoCLI("run", "--data", data, "--rk", "3", "--beta", "1", "--seed", "5", "--rand", "seeded"); code != 0 {
		t.Errorf("--rand seeded --seed 5 on --data: status %d: %s", code, errs)
	}
}
