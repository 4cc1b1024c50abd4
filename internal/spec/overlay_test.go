package spec

import (
	"reflect"
	"testing"
)

// TestOverlay: the named fields and parameters come from o, every other
// one stays s's; o's unnamed values never leak in.
func TestOverlay(t *testing.T) {
	l2, l2o := 0.5, 0.0
	s := Spec{Scenario: "linreg-t", N: 1000, Eps: 2, Lambda2: &l2, Params: map[string]float64{"noise": 2, "cond": 3}, Seed: 9}
	o := Spec{Scenario: "hinge-t", N: 20000, Eps: 5, Lambda2: &l2o, Params: map[string]float64{"noise": 4, "wstar": 1}, Seed: 0, EstimateConstants: true}
	set := map[string]bool{"n": true, "lambda2": true, "noise": true, "seed": true}
	got := s.Overlay(o, func(n string) bool { return set[n] })
	want := Spec{Scenario: "linreg-t", N: 20000, Eps: 2, Lambda2: &l2o, Params: map[string]float64{"noise": 4, "cond": 3}, Seed: 0}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Overlay = %+v, want %+v", got, want)
	}
	if s.Params["noise"] != 2 || s.N != 1000 {
		t.Error("Overlay changed its receiver")
	}
}
