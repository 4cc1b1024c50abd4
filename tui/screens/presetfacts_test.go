package screens

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	gold "dpso/internal/testutil/golden"
	"dpso/tui/presets"
)

// checkFacts checks that the facts got, computed from preset p's pinned
// runs, fill every placeholder of p's texts as its pinned facts do (the
// same text at the precision quoted), and that p's texts read no fact
// beyond them and its pinned facts hold none they do not read. When some
// of the runs were left out (testing.Short), only the placeholders whose
// facts got has are compared. With DPSO_UPDATE_GOLDEN=1 (and every run
// made) the facts replace the pinned ones in tui/presets/facts.json.
func checkFacts(t *testing.T, p presets.Preset, got presets.Facts, complete bool) {
	t.Helper()
	var tmpls []string
	for _, tt := range p.AllTemplates() {
		tmpls = append(tmpls, tt.Text)
	}
	used := map[string]bool{}
	var names []string
	for _, tmpl := range tmpls {
		for _, n := range factNames(tmpl) {
			if !used[n] {
				used[n] = true
				names = append(names, n)
			}
		}
	}
	if complete {
		for _, n := range names {
			if _, ok := got[n]; !ok {
				t.Errorf("%s: its texts read %s, which its runs do not give", p.Title, n)
			}
		}
		for n := range got {
			if !used[n] {
				t.Errorf("%s: fact %s is computed but no text reads it", p.Title, n)
			}
		}
	}
	if complete && gold.Update() {
		all := readFacts(t)
		all[p.Title] = got
		b, err := json.MarshalIndent(all, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(factsFile, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	pinned := readFacts(t)[p.Title]
	for _, tmpl := range tmpls {
		for _, ph := range placeholderForms(tmpl) {
			name := strings.Trim(ph, "{}±%#×")
			if _, ok := got[name]; !ok {
				continue
			}
			want, err1 := presets.Fill(ph, pinned)
			have, err2 := presets.Fill(ph, got)
			if err1 != nil || err2 != nil || want != have {
				t.Errorf("%s: %s reads %q from its run, the text quotes %q (%v %v): DPSO_UPDATE_GOLDEN=1 go test ./tui/screens -run %s rewrites the facts", p.Title, ph, have, want, err1, err2, t.Name())
			}
		}
	}
}

// placeholderForms are the placeholders of a template as written
// ("{acsa±}").
func placeholderForms(tmpl string) []string {
	var out []string
	for {
		i := strings.Index(tmpl, "{")
		if i < 0 {
			return out
		}
		j := strings.Index(tmpl[i:], "}")
		if j < 0 {
			return out
		}
		if ph := tmpl[i : i+j+1]; !slices.Contains(out, ph) {
			out = append(out, ph)
		}
		tmpl = tmpl[i+j+1:]
	}
}

// factsFile is the presets' pinned facts, which package presets embeds.
var factsFile = filepath.Join("..", "presets", "facts.json")

// readFacts is factsFile read: every preset's pinned facts by title.
func readFacts(t *testing.T) map[string]presets.Facts {
	t.Helper()
	b, err := os.ReadFile(factsFile)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]presets.Facts
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", factsFile, err)
	}
	return m
}

// factNames are the fact names template tmpl reads: each placeholder's
// name ({name} or {name<form>}, as package presets writes them), and
// name_se too for name±; other braces ({2+1/k}) are text.
func factNames(tmpl string) []string {
	var out []string
	for _, sub := range placeholderRE.FindAllStringSubmatch(tmpl, -1) {
		out = append(out, sub[1])
		if sub[2] == "±" {
			out = append(out, sub[1]+"_se")
		}
	}
	return out
}

// placeholderRE is a placeholder of a preset's template: a fact's name and
// its form (±, %, # or ×).
var placeholderRE = regexp.MustCompile(`\{([a-z][a-z0-9_]*)([±%#×]?)\}`)
