package cli

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"

	"dpso/internal/statestring"
	"dpso/tui"
	"dpso/tui/presets"
)

// TestExploreStateOpensTheCopiedScreen: for every preset and every
// screen, the state string of that screen given to `dpso explore --state`
// opens the explorer on the same form and the same screen.
func TestExploreStateOpensTheCopiedScreen(t *testing.T) {
	for i, p := range presets.All {
		for _, sc := range tui.ScreenNames() {
			want := statestring.State{Spec: p.Spec, Screen: sc}
			code, opts, errs := exploreCapture("explore", "--state", want.String())
			if code != 0 || opts == nil || opts.Start == nil {
				t.Fatalf("preset %d, %s: status %d, %s", i+1, sc, code, errs)
			}
			m, err := tui.New(context.Background(), *opts)
			if err != nil {
				t.Fatal(err)
			}
			if got := m.State(); !reflect.DeepEqual(got, want) {
				t.Fatalf("preset %d, %s: opened %#v", i+1, sc, got)
			}
		}
	}
}

func TestExploreStateRefusals(t *testing.T) {
	good := statestring.State{Spec: presets.All[0].Spec, Screen: "sweep"}.String()
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"damaged", []string{"--state", good[:len(good)-2]}, "--state: this state string is damaged"},
		{"another format", []string{"--state", "dpso9.AAAA"}, "--state: this state string is of format 9, written by a newer dpso"},
		{"with a preset", []string{"--state", good, "--preset", "2"}, "--state: give --state or --preset, not both"},
		{"empty", []string{"--state", ""}, "--state: an empty value is not allowed"},
		{"a flag over it out of range", []string{"--state", good, "--n", "1"}, "--n:"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, opts, errs := exploreCapture(append([]string{"explore"}, c.args...)...)
			if code != 2 || opts != nil || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.want) {
				t.Fatalf("status %d, stderr %q: want 2 and one line with %q", code, errs, c.want)
			}
		})
	}
	code, opts, errs := exploreCapture("explore", "--state", good, "--n", "20000")
	if code != 0 || opts.Start.N != 20000 || opts.Screen != "sweep" || opts.Start.Scenario != presets.All[0].Spec.Scenario {
		t.Fatalf("a flag over a state string: status %d, %+v, %s", code, opts, errs)
	}
}

// TestSessionArgsAreExploreFlags: an SSH session's arguments are parsed
// and checked as `dpso explore`'s flags: the same options, and a bad one
// the same one line (dpso explore's stderr); --out and --data are refused
// (a session has no files on the server).
func TestSessionArgsAreExploreFlags(t *testing.T) {
	st := statestring.State{Spec: presets.All[2].Spec, Screen: "moments"}.String()
	for _, args := range [][]string{
		{"--preset", "3"},
		{"--scenario", "linreg-t", "--n", "20000"},
		{"--state", st},
		{"--preset", "hard instance", "--trials", "4"},
		{"--preset", "99"},
		{"--n", "-3"},
		{"--frobnicate"},
		{"--eps"},
		{"stray"},
		{"--state", "dpso1.xyz"},
		{"--scenario", "linreg-t", "--seed", "5", "--rand", "secure"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			code, want, errs := exploreCapture(append([]string{"explore"}, args...)...)
			got, err := sessionArgs(args)
			if code != 0 {
				if err == nil || err.Error() != strings.TrimSuffix(errs, "\n") {
					t.Fatalf("session: %v; dpso explore: %q", err, errs)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, *want) {
				t.Fatalf("session: %+v, %v; dpso explore: %+v", got, err, *want)
			}
		})
	}
	for _, args := range [][]string{{"--out", "."}, {"--data", "examples/x.csv"}} {
		t.Run(caseName(args), func(t *testing.T) {
			if _, err := sessionArgs(args); err == nil || !strings.Contains(err.Error(), "no file of the server") {
				t.Errorf("%v: %v, want a refusal", args, err)
			}
		})
	}
}

// TestSessionStateWithDataReadsNoPath: a session's state string that names
// a data file is refused with the same line whatever is at the path — a
// folder, nothing, a FIFO, a regular file — so that no student can map the
// server's files by its answers.
func TestSessionStateWithDataReadsNoPath(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	syscall.Mkfifo(fifo, 0o600)
	file := filepath.Join(dir, "rows.csv")
	os.WriteFile(file, []byte("a,y\n1,2\n"), 0o600)
	var first string
	for _, path := range []string{dir, filepath.Join(dir, "none"), fifo, file} {
		s := presets.All[0].Spec
		s.Scenario, s.Data, s.Rk = "", path, 1
		_, err := sessionArgs([]string{"--state", statestring.State{Spec: s, Screen: "chart"}.String()})
		if err == nil || !strings.Contains(err.Error(), "--state: this state string reads a data file") {
			t.Fatalf("%s: %v, want the refusal", path, err)
		}
		if first == "" {
			first = err.Error()
		}
		if err.Error() != first {
			t.Fatalf("the answer depends on the path: %q, then %q", first, err.Error())
		}
	}
}
