package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
)

// Field is one key of a JSON document: its name and, for an object or an
// array of objects, the keys inside it, in the document's order.
type Field struct {
	Name string
	// Array: the value is an array (of objects when Fields is not empty).
	Array  bool
	Fields []Field
}

// FieldsOf is the key tree of the JSON document that values of v's type
// marshal to, every optional key included: a value of the type with every
// pointer set, every slice of one element, every array element set and every string, number and
// bool non-zero (so that omitempty keys and the types' own MarshalJSON
// show what they write) is marshalled, and the document is walked as
// [FieldsOfJSON] walks one. The tree is therefore the output's, not the
// Go types' (a field's JSON name, a custom marshaller's shape).
func FieldsOf(v any) ([]Field, error) {
	t := reflect.TypeOf(v)
	if t == nil {
		return nil, fmt.Errorf("report: FieldsOf(nil)")
	}
	x := reflect.New(t).Elem()
	if err := fill(x, 0); err != nil {
		return nil, err
	}
	doc, err := MarshalJSON(x.Interface())
	if err != nil {
		return nil, err
	}
	return FieldsOfJSON(doc)
}

// fill sets every settable part of x non-zero (see FieldsOf).
func fill(x reflect.Value, depth int) error {
	if depth > 16 {
		return fmt.Errorf("report: %s nests too deep to list its JSON fields", x.Type())
	}
	switch x.Kind() {
	case reflect.Pointer:
		x.Set(reflect.New(x.Type().Elem()))
		return fill(x.Elem(), depth+1)
	case reflect.Struct:
		for i := range x.NumField() {
			if f := x.Field(i); f.CanSet() {
				if err := fill(f, depth+1); err != nil {
					return err
				}
			}
		}
	case reflect.Slice:
		x.Set(reflect.MakeSlice(x.Type(), 1, 1))
		return fill(x.Index(0), depth+1)
	case reflect.Array:
		for i := range x.Len() {
			if err := fill(x.Index(i), depth+1); err != nil {
				return err
			}
		}
	case reflect.String:
		x.SetString("x")
	case reflect.Bool:
		x.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		x.SetInt(1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		x.SetUint(1)
	case reflect.Float32, reflect.Float64:
		x.SetFloat(1)
	default:
		return fmt.Errorf("report: cannot list the JSON fields of a %s", x.Type())
	}
	return nil
}

// FieldsOfJSON is the key tree of a JSON document whose top level is an
// object: every object's keys in order, an array's the union of its
// elements' (an empty array, like null, shows no keys).
func FieldsOfJSON(doc []byte) ([]Field, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if tok != json.Delim('{') {
		return nil, fmt.Errorf("report: the document is not a JSON object")
	}
	fs, err := objectFields(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("report: trailing data after the JSON document")
	}
	return fs, nil
}

// objectFields reads an object's keys and values after its '{', through
// its '}'.
func objectFields(dec *json.Decoder) ([]Field, error) {
	var fs []Field
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		name, ok := tok.(string)
		if !ok {
			return nil, fmt.Errorf("report: a JSON object key is not a string")
		}
		f := Field{Name: name}
		if err := valueFields(dec, &f); err != nil {
			return nil, err
		}
		fs = MergeFields(fs, []Field{f})
	}
	_, err := dec.Token() // '}'
	return fs, err
}

// valueFields reads one value into f: an object's keys, an array's
// elements' union.
func valueFields(dec *json.Decoder, f *Field) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('{'):
		sub, err := objectFields(dec)
		f.Fields = MergeFields(f.Fields, sub)
		return err
	case json.Delim('['):
		f.Array = true
		for dec.More() {
			var el Field
			if err := valueFields(dec, &el); err != nil {
				return err
			}
			f.Fields = MergeFields(f.Fields, el.Fields)
		}
		_, err := dec.Token() // ']'
		return err
	}
	return nil
}

// MergeFields is the union of two key trees: a's keys in order, then b's
// that a lacks; a key in both is the union of the two.
func MergeFields(a, b []Field) []Field {
	out := slices.Clone(a)
	for _, g := range b {
		i := slices.IndexFunc(out, func(f Field) bool { return f.Name == g.Name })
		if i < 0 {
			out = append(out, g)
			continue
		}
		out[i].Array = out[i].Array || g.Array
		out[i].Fields = MergeFields(out[i].Fields, g.Fields)
	}
	return out
}

// FieldPaths flattens a key tree into one path per key: "params.clip",
// "trials[].w"; sorted.
func FieldPaths(fs []Field) []string {
	var out []string
	var walk func(prefix string, fs []Field)
	walk = func(prefix string, fs []Field) {
		for _, f := range fs {
			p := prefix + f.Name
			if f.Array {
				p += "[]"
			}
			out = append(out, p)
			walk(p+".", f.Fields)
		}
	}
	walk("", fs)
	slices.Sort(out)
	return out
}

// FormatFields writes a key tree as a list: "a, b{c, d}, e[{f, g}]" — an
// object's keys in braces, an array of objects' in [{…}] — to the given
// depth (deeper keys are written as {…}; depth 0 writes them all).
func FormatFields(fs []Field, depth int) string {
	var b strings.Builder
	formatFields(&b, fs, depth, 1)
	return b.String()
}

func formatFields(b *strings.Builder, fs []Field, depth, level int) {
	for i, f := range fs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(f.Name)
		if len(f.Fields) == 0 {
			continue
		}
		open, close := "{", "}"
		if f.Array {
			open, close = "[{", "}]"
		}
		b.WriteString(open)
		if depth > 0 && level >= depth {
			b.WriteString("…")
		} else {
			formatFields(b, f.Fields, depth, level+1)
		}
		b.WriteString(close)
	}
}
