package report

import (
	"fmt"
	"strings"
	"testing"
)

// TestFieldsOfJSON: a document's key tree is its objects' keys in order,
// an array's the union of its elements' (an empty array and null show
// none), written as FormatFields writes it to each depth.
func TestFieldsOfJSON(t *testing.T) {
	doc := `{"a": 1, "b": {"c": null, "d": [1, 2]}, "e": [{"f": 1}, {"g": true, "f": 2}], "h": [], "i": null}`
	fs, err := FieldsOfJSON([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		depth int
		want  string
	}{
		{0, "a, b{c, d}, e[{f, g}], h, i"},
		{1, "a, b{…}, e[{…}], h, i"},
	} {
		t.Run(fmt.Sprintf("depth=%d", c.depth), func(t *testing.T) {
			if got := FormatFields(fs, c.depth); got != c.want {
				t.Errorf("depth %d: %q, want %q", c.depth, got, c.want)
			}
		})
	}
	if got := strings.Join(FieldPaths(fs), " "); got != "a b b.c b.d[] e[] e[].f e[].g h[] i" {
		t.Errorf("paths %q", got)
	}
	for _, bad := range []string{`[1]`, `{"a": 1} {}`, `{"a": }`} {
		t.Run(bad, func(t *testing.T) {
			if _, err := FieldsOfJSON([]byte(bad)); err == nil {
				t.Errorf("%s is accepted", bad)
			}
		})
	}
}

// TestFieldsOfListsOptionalKeys: FieldsOf lists the keys a type's
// document can have, the omitempty ones and those its own MarshalJSON
// writes included (theory.Bound writes rate_n and meaning, which are no
// fields of it under those names).
func TestFieldsOfListsOptionalKeys(t *testing.T) {
	fs, err := FieldsOf(RunJSON{})
	if err != nil {
		t.Fatal(err)
	}
	paths := " " + strings.Join(FieldPaths(fs), " ") + " "
	for _, want := range []string{"data", "not_private[]", "clipped.private", "privacy.eps_delta.eps_lower", "trials[].w[]", "bounds[].rate_n", "bounds[].meaning", "certificate.conditions[].holds", "refused"} {
		if !strings.Contains(paths, " "+want+" ") {
			t.Errorf("FieldsOf(RunJSON) lacks %s:%s", want, paths)
		}
	}
	if _, err := FieldsOf(nil); err == nil {
		t.Error("FieldsOf(nil) is accepted")
	}
}
