package cli

import (
	"runtime/debug"
	"strings"
)

// versionString is what `dpso --version` prints after "dpso": the module
// version (Go writes "(devel)" for a build from a source tree, and so do
// we when no build information exists), the VCS commit the binary was
// built from with its time and whether the tree had uncommitted changes,
// and the Go version — from runtime/debug.ReadBuildInfo, so that nothing
// is claimed that the build did not record.
func versionString(bi *debug.BuildInfo, ok bool) string {
	if !ok || bi == nil {
		return "(devel) · no build information recorded"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, at string
	modified := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	parts := []string{v}
	if rev == "" {
		parts = append(parts, "commit unknown (built without VCS information)")
	} else {
		c := "commit " + rev
		var extra []string
		if at != "" {
			extra = append(extra, at)
		}
		if modified {
			extra = append(extra, "with uncommitted changes")
		}
		if len(extra) > 0 {
			c += " (" + strings.Join(extra, ", ") + ")"
		}
		parts = append(parts, c)
	}
	if bi.GoVersion != "" {
		parts = append(parts, "built with "+bi.GoVersion)
	}
	return strings.Join(parts, " · ")
}
