package presets

import "testing"

// TestPresetTextsFill: every preset's texts fill from its pinned facts —
// no placeholder without a fact, none left in the text, no pinned fact
// that no text reads.
func TestPresetTextsFill(t *testing.T) {
	for _, p := range All {
		t.Run(p.Title, func(t *testing.T) {
			caption, afterR, afterC, text, next := p.Templates()
			f := pinned[p.Title]
			used := map[string]bool{}
			for _, tmpl := range []string{caption, afterR, afterC, text, next} {
				s, err := Fill(tmpl, f)
				if err != nil || placeholder.MatchString(s) {
					t.Errorf("%q: %v", s, err)
				}
				for _, sub := range placeholder.FindAllStringSubmatch(tmpl, -1) {
					used[sub[1]] = true
					if sub[2] == "±" {
						used[sub[1]+"_se"] = true
					}
				}
			}
			for n := range f {
				if !used[n] {
					t.Errorf("pinned fact %s is read by no text", n)
				}
			}
		})
	}
}
