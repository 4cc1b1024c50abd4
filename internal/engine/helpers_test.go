package engine

import (
	"context"
	"math"
	"reflect"
	"strings"
	"testing"

	"dpso/internal/spec"
	"dpso/scenarios"
)

// resolve resolves s, failing the test on an error.
func resolve(tb testing.TB, s spec.Spec) spec.Resolved {
	tb.Helper()
	r, err := s.Resolve()
	if err != nil {
		tb.Fatalf("resolve %+v: %v", s, err)
	}
	return r
}

// build resolves and builds s's problem.
func build(tb testing.TB, s spec.Spec) *scenarios.Instance {
	tb.Helper()
	in, err := scenarios.Build(context.Background(), resolve(tb, s).Problem)
	if err != nil {
		tb.Fatalf("Build(%+v): %v", s, err)
	}
	return in
}

// sameJSON reports whether a and b are equal bit for bit: every float
// compared by its bits (so NaN equals NaN, and 0 differs from −0), through
// pointers, slices, maps and structs (unexported fields too).
func sameJSON(t *testing.T, a, b any) bool {
	t.Helper()
	return sameBits(reflect.ValueOf(a), reflect.ValueOf(b))
}

func sameBits(a, b reflect.Value) bool {
	if a.IsValid() != b.IsValid() {
		return false
	}
	if !a.IsValid() {
		return true
	}
	if a.Type() != b.Type() {
		return false
	}
	switch a.Kind() {
	case reflect.Float32, reflect.Float64:
		return math.Float64bits(a.Float()) == math.Float64bits(b.Float())
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return sameBits(a.Elem(), b.Elem())
	case reflect.Slice:
		if a.IsNil() != b.IsNil() {
			return false
		}
		fallthrough
	case reflect.Array:
		if a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !sameBits(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.Len() != b.Len() {
			return false
		}
		it := a.MapRange()
		for it.Next() {
			v := b.MapIndex(it.Key())
			if !v.IsValid() || !sameBits(it.Value(), v) {
				return false
			}
		}
		return true
	case reflect.Struct:
		for i := range a.NumField() {
			if !sameBits(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Func:
		return a.IsNil() == b.IsNil()
	}
	return reflect.DeepEqual(valueOf(a), valueOf(b))
}

// valueOf reads a value, exported or not.
func valueOf(v reflect.Value) any {
	switch v.Kind() {
	case reflect.Bool:
		return v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint()
	case reflect.String:
		return v.String()
	case reflect.Complex64, reflect.Complex128:
		return v.Complex()
	}
	return v.Kind()
}

// caseName names a test case by its Spec: the arguments that reproduce
// it (Args).
func caseName(s spec.Spec) string {
	if a := s.Args(); len(a) > 0 {
		return strings.Join(a, " ")
	}
	return "defaults"
}
