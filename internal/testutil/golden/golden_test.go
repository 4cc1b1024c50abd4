package golden

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// recorder is a testing.TB that records what a helper reports instead of
// failing the test; Fatal ends the goroutine, as testing's does.
type recorder struct {
	testing.TB
	errors, fatals []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.fatals = append(r.fatals, fmt.Sprintf(format, args...))
	runtime.Goexit()
}

// equal runs Equal on a recorder, in a goroutine of its own so that a
// Fatal ends only that goroutine.
func equal(t *testing.T, name, got string) *recorder {
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		Equal(r, name, got)
	}()
	<-done
	return r
}

// inTemp runs the rest of the test in an empty folder with a testdata/
// holding name.golden = content.
func inTemp(t *testing.T, name, content string) {
	t.Helper()
	t.Chdir(t.TempDir())
	if err := os.MkdirAll("testdata", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(Path(name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// setUpdate sets the -update flag for the rest of the test.
func setUpdate(t *testing.T, on bool) {
	t.Helper()
	was := Update()
	set := func(v bool) {
		s := "false"
		if v {
			s = "true"
		}
		if err := flag.Set(updateFlag, s); err != nil {
			t.Fatal(err)
		}
	}
	set(on)
	t.Cleanup(func() { set(was) })
}

func TestPath(t *testing.T) {
	if got, want := Path("screen-first-80x24"), filepath.Join("testdata", "screen-first-80x24.golden"); got != want {
		t.Errorf("Path = %q, want %q", got, want)
	}
}

// TestEqual: the same bytes pass; a difference of one byte (a trailing
// newline, an escape sequence) is one error that names the file, shows
// the diff and says how to rewrite it; a missing file is fatal and says
// how to create it.
func TestEqual(t *testing.T) {
	setUpdate(t, false)
	const want = "line one\n\x1b[1mbold\x1b[0m\n"
	for _, c := range []struct {
		name, got string
		ok        bool
	}{
		{"identical", want, true},
		{"one byte more", want + "\n", false},
		{"escape sequence differs", strings.Replace(want, "[1m", "[2m", 1), false},
		{"empty", "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			inTemp(t, "out", want)
			r := equal(t, "out", c.got)
			if len(r.fatals) != 0 {
				t.Fatalf("fatal: %q", r.fatals)
			}
			if c.ok {
				if len(r.errors) != 0 {
					t.Errorf("identical output reported: %q", r.errors)
				}
				return
			}
			if len(r.errors) != 1 {
				t.Fatalf("%d errors, want 1: %q", len(r.errors), r.errors)
			}
			for _, w := range []string{Path("out"), "diff", "-update", EnvUpdate + "=1"} {
				if !strings.Contains(r.errors[0], w) {
					t.Errorf("the report lacks %q:\n%s", w, r.errors[0])
				}
			}
		})
	}
	t.Run("missing file", func(t *testing.T) {
		t.Chdir(t.TempDir())
		r := equal(t, "absent", "x")
		if len(r.fatals) != 1 || len(r.errors) != 0 {
			t.Fatalf("fatals %q, errors %q: want one fatal", r.fatals, r.errors)
		}
		if !strings.Contains(r.fatals[0], Path("absent")) || !strings.Contains(r.fatals[0], "creates it") {
			t.Errorf("the fatal %q does not name the file and how to create it", r.fatals[0])
		}
	})
}

// TestEqualUpdate: under -update, Equal writes the golden (creating
// testdata/) and then passes; the bytes on disk are got's.
func TestEqualUpdate(t *testing.T) {
	setUpdate(t, true)
	if !Update() {
		t.Fatal("Update() is false under -update")
	}
	t.Chdir(t.TempDir())
	const got = "new\x1b[31m output\n"
	r := equal(t, "fresh", got)
	if len(r.errors)+len(r.fatals) != 0 {
		t.Fatalf("errors %q, fatals %q", r.errors, r.fatals)
	}
	b, err := os.ReadFile(Path("fresh"))
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != got {
		t.Errorf("written %q, want %q", b, got)
	}
}

// TestEnvironmentSwitch: DPSO_UPDATE_GOLDEN=1 in the environment of a
// test binary turns -update on for the whole run, and only 1 does.
func TestEnvironmentSwitch(t *testing.T) {
	if os.Getenv("GOLDEN_TEST_CHILD") == "1" {
		if Update() {
			os.Stdout.WriteString("update on\n")
		} else {
			os.Stdout.WriteString("update off\n")
		}
		return
	}
	for _, c := range []struct{ env, want string }{
		{EnvUpdate + "=1", "update on"},
		{EnvUpdate + "=0", "update off"},
		{EnvUpdate + "=", "update off"},
	} {
		t.Run(c.env, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestEnvironmentSwitch$", "-test.v")
			cmd.Env = append(os.Environ(), "GOLDEN_TEST_CHILD=1", c.env)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if !strings.Contains(string(out), c.want) {
				t.Errorf("%s: the child says\n%s\nwant %q", c.env, out, c.want)
			}
		})
	}
}
