package main

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
	small := []string{"--scenario", "linreg-t", "--n", "400", "--trials", "2", "--seed", "7"}
	cases := []struct {
		name string
		args []string
	}{
		{"run", append([]string{"run", "--rand", "secure"}, small...)},
		{"run on data", []string{"run", "--data", data, "--rk", "3", "--beta", "1"}},
		{"comparison", append([]string{"run", "--rand", "secure", "--solvers", "acsa,sgd"}, small...)},
		{"sweep", append([]string{"sweep", "--rand", "secure", "--vary", "eps", "--from", "0.5", "--to", "1", "--points", "2"}, small...)},
		{"audit", []string{"audit", "--rand", "secure", "--seed", "7", "--trials", "1000"}},
		{"one-run audit", []string{"audit", "--one-run", "--rand", "secure", "--seed", "7"}},
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
