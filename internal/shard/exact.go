package shard

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
)

// The exact codec writes a value of plain data types (bools, integers,
// floats, strings, slices, arrays, maps with string keys, pointers and
// structs of these, exported fields only) as JSON that reads back to the
// same value, bit for bit: floats in Go's shortest round-trip form, with
// "NaN", "+Inf" and "-Inf" as strings (encoding/json refuses them); a nil
// slice, map or pointer as null and an empty one as [] or {}; a struct as
// an object of its Go field names. A merged sweep must be the same bytes
// as one run, so nothing may be rounded or dropped on the way: a type
// outside this set (an interface, a func, an unexported field) is refused
// when written rather than lost, and reading refuses unknown and missing
// fields.

// exactValue is v as a value encoding/json writes exactly.
func exactValue(v reflect.Value, path string) (any, error) {
	switch v.Kind() {
	case reflect.Bool:
		return v.Bool(), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return json.Number(strconv.FormatInt(v.Int(), 10)), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return json.Number(strconv.FormatUint(v.Uint(), 10)), nil
	case reflect.Float32, reflect.Float64:
		f := v.Float()
		switch {
		case math.IsNaN(f):
			return "NaN", nil
		case math.IsInf(f, 1):
			return "+Inf", nil
		case math.IsInf(f, -1):
			return "-Inf", nil
		}
		return json.Number(strconv.FormatFloat(f, 'g', -1, v.Type().Bits())), nil
	case reflect.String:
		return v.String(), nil
	case reflect.Pointer:
		if v.IsNil() {
			return nil, nil
		}
		return exactValue(v.Elem(), path)
	case reflect.Slice:
		if v.IsNil() {
			return nil, nil
		}
		fallthrough
	case reflect.Array:
		out := make([]any, v.Len())
		for i := range out {
			x, err := exactValue(v.Index(i), fmt.Sprintf("%s[%d]", path, i))
			if err != nil {
				return nil, err
			}
			out[i] = x
		}
		return out, nil
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String {
			return nil, fmt.Errorf("%s: a map whose keys are not strings cannot be written exactly", path)
		}
		if v.IsNil() {
			return nil, nil
		}
		out := make(map[string]any, v.Len())
		it := v.MapRange()
		for it.Next() {
			x, err := exactValue(it.Value(), path+"["+it.Key().String()+"]")
			if err != nil {
				return nil, err
			}
			out[it.Key().String()] = x
		}
		return out, nil
	case reflect.Struct:
		t := v.Type()
		out := make(map[string]any, t.NumField())
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				return nil, fmt.Errorf("%s.%s: an unexported field cannot be written", path, f.Name)
			}
			x, err := exactValue(v.Field(i), path+"."+f.Name)
			if err != nil {
				return nil, err
			}
			out[f.Name] = x
		}
		return out, nil
	}
	return nil, fmt.Errorf("%s: a %s cannot be written exactly", path, v.Type())
}

// marshalExact writes v exactly (see exactValue).
func marshalExact(v any) ([]byte, error) {
	x, err := exactValue(reflect.ValueOf(v), reflect.TypeOf(v).String())
	if err != nil {
		return nil, err
	}
	return marshalPlain(x)
}

// marshalPlain is json.Marshal without the HTML escapes (<, >, & stay as
// they are: the notes have inequalities) and without the newline.
func marshalPlain(x any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(x); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// unmarshalExact reads what marshalExact wrote into the value ptr points
// to.
func unmarshalExact(b []byte, ptr any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		return err
	}
	v := reflect.ValueOf(ptr).Elem()
	return setExact(x, v, v.Type().String())
}

// setExact stores x (decoded with UseNumber) into v.
func setExact(x any, v reflect.Value, path string) error {
	bad := func(want string) error { return fmt.Errorf("%s: want %s, got %s", path, want, describe(x)) }
	switch v.Kind() {
	case reflect.Bool:
		b, ok := x.(bool)
		if !ok {
			return bad("true or false")
		}
		v.SetBool(b)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, ok := x.(json.Number)
		if !ok {
			return bad("an integer")
		}
		i, err := strconv.ParseInt(string(n), 10, v.Type().Bits())
		if err != nil {
			return bad("an integer")
		}
		v.SetInt(i)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, ok := x.(json.Number)
		if !ok {
			return bad("an unsigned integer")
		}
		u, err := strconv.ParseUint(string(n), 10, v.Type().Bits())
		if err != nil {
			return bad("an unsigned integer")
		}
		v.SetUint(u)
	case reflect.Float32, reflect.Float64:
		var f float64
		switch n := x.(type) {
		case json.Number:
			var err error
			if f, err = strconv.ParseFloat(string(n), v.Type().Bits()); err != nil {
				return bad("a number")
			}
		case string:
			switch n {
			case "NaN":
				f = math.NaN()
			case "+Inf":
				f = math.Inf(1)
			case "-Inf":
				f = math.Inf(-1)
			default:
				return bad(`a number, "NaN", "+Inf" or "-Inf"`)
			}
		default:
			return bad("a number")
		}
		v.SetFloat(f)
	case reflect.String:
		s, ok := x.(string)
		if !ok {
			return bad("a string")
		}
		v.SetString(s)
	case reflect.Pointer:
		if x == nil {
			v.SetZero()
			return nil
		}
		p := reflect.New(v.Type().Elem())
		if err := setExact(x, p.Elem(), path); err != nil {
			return err
		}
		v.Set(p)
	case reflect.Slice, reflect.Array:
		if x == nil && v.Kind() == reflect.Slice {
			v.SetZero()
			return nil
		}
		xs, ok := x.([]any)
		if !ok {
			return bad("an array")
		}
		if v.Kind() == reflect.Slice {
			v.Set(reflect.MakeSlice(v.Type(), len(xs), len(xs)))
		} else if len(xs) != v.Len() {
			return bad(fmt.Sprintf("an array of %d", v.Len()))
		}
		for i, e := range xs {
			if err := setExact(e, v.Index(i), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String {
			return fmt.Errorf("%s: a map whose keys are not strings cannot be read", path)
		}
		if x == nil {
			v.SetZero()
			return nil
		}
		m, ok := x.(map[string]any)
		if !ok {
			return bad("an object")
		}
		v.Set(reflect.MakeMapWithSize(v.Type(), len(m)))
		for k, e := range m {
			ev := reflect.New(v.Type().Elem()).Elem()
			if err := setExact(e, ev, path+"["+k+"]"); err != nil {
				return err
			}
			v.SetMapIndex(reflect.ValueOf(k).Convert(v.Type().Key()), ev)
		}
	case reflect.Struct:
		m, ok := x.(map[string]any)
		if !ok {
			return bad("an object")
		}
		t := v.Type()
		if len(m) != t.NumField() {
			for k := range m {
				if _, ok := t.FieldByName(k); !ok {
					return fmt.Errorf("%s: unknown field %s", path, k)
				}
			}
		}
		for i := range t.NumField() {
			f := t.Field(i)
			e, ok := m[f.Name]
			if !ok {
				return fmt.Errorf("%s: field %s is missing", path, f.Name)
			}
			if err := setExact(e, v.Field(i), path+"."+f.Name); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("%s: a %s cannot be read", path, v.Type())
	}
	return nil
}

// describe names the JSON type of x for messages.
func describe(x any) string {
	switch x.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", x)
}
