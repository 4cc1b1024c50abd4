package cli

import (
	"encoding/json"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Helpers the CLI's tests share: dpso in-process and the JSON shape of
// a document (the goldens in testdata/ are shapes).

// dpsoCLI runs dpso in-process: exit status, stdout, stderr.
// atRepoRoot runs the rest of the test in the repository's root, where
// the README's commands and the examples' paths are written from.
func atRepoRoot(t *testing.T) {
	t.Helper()
	t.Chdir("../..")
}

func dpsoCLI(args ...string) (int, string, string) { return execTheoryCLI(args...) }

// jsonShape is the shape of a JSON document: objects as objects of their
// keys' shapes, arrays as [the merged shape of their elements], leaves as
// their type name; a value that is null in some places and not in others
// is "T|null" (objects: "|null": true), a key missing from some elements
// of an array is "key?".
func jsonShape(t *testing.T, doc string) string {
	t.Helper()
	var v any
	dec := json.NewDecoder(strings.NewReader(doc))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, doc)
	}
	b, err := json.MarshalIndent(renderShape(shapeOf(v)), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}

type shape struct {
	leaves map[string]bool // "null", "bool", "number", "string"
	obj    map[string]*shape
	keyN   map[string]int
	objN   int
	arr    *shape
	isArr  bool
}

func shapeOf(v any) *shape {
	s := &shape{leaves: map[string]bool{}}
	switch x := v.(type) {
	case nil:
		s.leaves["null"] = true
	case bool:
		s.leaves["bool"] = true
	case json.Number:
		s.leaves["number"] = true
	case string:
		s.leaves["string"] = true
	case []any:
		s.isArr = true
		for _, e := range x {
			s.arr = mergeShape(s.arr, shapeOf(e))
		}
	case map[string]any:
		s.obj, s.keyN, s.objN = map[string]*shape{}, map[string]int{}, 1
		for k, e := range x {
			s.obj[k] = shapeOf(e)
			s.keyN[k] = 1
		}
	}
	return s
}

func mergeShape(a, b *shape) *shape {
	if a == nil {
		return b
	}
	for k := range b.leaves {
		a.leaves[k] = true
	}
	if b.isArr {
		a.isArr = true
		if b.arr != nil {
			a.arr = mergeShape(a.arr, b.arr)
		}
	}
	if b.obj != nil {
		if a.obj == nil {
			a.obj, a.keyN = map[string]*shape{}, map[string]int{}
		}
		a.objN += b.objN
		for k, v := range b.obj {
			if a.obj[k] == nil {
				a.obj[k] = v
			} else {
				a.obj[k] = mergeShape(a.obj[k], v)
			}
			a.keyN[k] += b.keyN[k]
		}
	}
	return a
}

func renderShape(s *shape) any {
	var leaves []string
	for k := range s.leaves {
		leaves = append(leaves, k)
	}
	sort.Strings(leaves)
	switch {
	case s.obj != nil:
		out := map[string]any{}
		for k, v := range s.obj {
			name := k
			if s.keyN[k] < s.objN {
				name += "?"
			}
			out[name] = renderShape(v)
		}
		if len(leaves) > 0 {
			out["|"+strings.Join(leaves, "|")] = true
		}
		return out
	case s.isArr:
		if s.arr == nil {
			return []any{}
		}
		return []any{renderShape(s.arr)}
	}
	return strings.Join(leaves, "|")
}

// topKeys are the keys of a JSON object in document order.
func topKeys(t *testing.T, doc string) []string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(doc))
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k.(string))
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

// caseName names a test case by its command line, an absolute path (a
// test's temporary file) by its base name, so that the name is the same
// on every run.
func caseName(args []string) string {
	parts := make([]string, len(args))
	for i, a := range args {
		if filepath.IsAbs(a) {
			a = filepath.Base(a)
		}
		parts[i] = a
	}
	return strings.Join(parts, " ")
}
