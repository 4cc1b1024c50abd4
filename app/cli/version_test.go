package cli

import (
	"runtime/debug"
	"strings"
	"testing"
)

// TestVersionString: what the build recorded, and
// "(devel)" / "unknown" where it recorded nothing.
func TestVersionString(t *testing.T) {
	for _, c := range []struct {
		bi   *debug.BuildInfo
		ok   bool
		want string
	}{
		{nil, false, "(devel) · no build information recorded"},
		{&debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"}}, true,
			"(devel) · commit unknown (built without VCS information) · built with go1.26.0"},
		{&debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v0.3.1"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0f1471e0123456789abcdef0123456789abcdef0"}, {Key: "vcs.time", Value: "2025-11-20T10:00:00Z"}, {Key: "vcs.modified", Value: "true"}}}, true,
			"v0.3.1 · commit 0f1471e0123456789abcdef0123456789abcdef0 (2025-11-20T10:00:00Z, with uncommitted changes) · built with go1.26.0"},
		{&debug.BuildInfo{Main: debug.Module{}, Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}, {Key: "vcs.modified", Value: "false"}}}, true,
			"(devel) · commit abc"},
	} {
		t.Run(c.want, func(t *testing.T) {
			if got := versionString(c.bi, c.ok); got != c.want {
				t.Errorf("versionString = %q, want %q", got, c.want)
			}
		})
	}
	code, out, _ := dpsoCLI("--version")
	bi, ok := debug.ReadBuildInfo()
	if code != 0 || out != "dpso "+versionString(bi, ok)+"\n" {
		t.Errorf("dpso --version: %d %q", code, out)
	}
}

// TestCompletion: cobra's completion scripts for the four shells, and the
// flags' values offered to them.
func TestCompletion(t *testing.T) {
	for shell, mark := range map[string]string{"bash": "# bash completion", "zsh": "#compdef dpso", "fish": "complete -c dpso", "powershell": "Register-ArgumentCompleter"} {
		t.Run(shell, func(t *testing.T) {
			code, out, errs := dpsoCLI("completion", shell)
			if code != 0 || !strings.Contains(out, mark) {
				t.Errorf("completion %s: %d, %q…, %s", shell, code, out[:min(len(out), 60)], errs)
			}
		})
	}
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"__complete", "run", "--scenario", ""}, []string{"linreg-t\n", "affine-hard\n"}},
		{[]string{"__complete", "run", "--solvers", ""}, []string{"klz-gd\n"}},
		{[]string{"__complete", "sweep", "--vary", ""}, []string{"eps\n"}},
		{[]string{"__complete", "explore", "--preset", ""}, []string{"1\tMoment clipping beats Lipschitz DP-SGD"}},
		{[]string{"__complete", ""}, []string{"explore\t", "completion\t"}},
	} {
		t.Run(caseName(c.args), func(t *testing.T) {
			code, out, _ := dpsoCLI(c.args...)
			for _, w := range c.want {
				if code != 0 || !strings.Contains(out, w) {
					t.Errorf("%s: %d, lacks %q:\n%s", strings.Join(c.args, " "), code, w, out)
				}
			}
		})
	}
}
