package scenarios

import (
	"context"
	"fmt"
	"math"
	"testing"
)

// TestSphereRulesAreShared: two gaussSups of the same law (two Builds of
// the same scenario, two explorer sessions on one preset) build their
// quadrature rule once between them and read the same bits as a rule
// built alone; a law that differs in one number gets its own rule.
func TestSphereRulesAreShared(t *testing.T) {
	const d, r, omega, sigma = 7, 1.3, 0.7, 0.4
	key := func(d int, r, omega, sigma, kcap float64) string {
		return fmt.Sprintf("%d %x %x %x %x", d, math.Float64bits(r), math.Float64bits(omega), math.Float64bits(sigma), math.Float64bits(kcap))
	}
	cached := func(k string) *sphereRule {
		sphereRules.mu.Lock()
		defer sphereRules.mu.Unlock()
		if e, ok := sphereRules.m[k]; ok {
			<-e.done
			return e.v
		}
		return nil
	}
	k16 := key(d, r, omega, sigma, 16)
	if cached(k16) != nil {
		t.Fatal("the rule is cached before any law asked for it")
	}
	a, b := newGaussSup(d, r, omega, sigma), newGaussSup(d, r, omega, sigma)
	for _, k := range []float64{2, 3.5, 8} {
		want := a.rule(16, 1).logMoment(k)
		if got := a.logSphereMoment(k); got != want {
			t.Errorf("k = %g: the shared rule gives %v, a rule of its own %v", k, got, want)
		}
		if got := b.logSphereMoment(k); got != want {
			t.Errorf("k = %g: the second law of the same numbers reads %v, want %v", k, got, want)
		}
	}
	rule := cached(k16)
	if rule == nil {
		t.Fatal("no shared rule after two laws of the same numbers")
	}
	if n := len(rule.sums.m); n != 3 {
		t.Errorf("the shared rule keeps %d sums, want the 3 orders asked", n)
	}
	c := newGaussSup(d, r, omega, math.Nextafter(sigma, 1))
	want := c.rule(16, 1).logMoment(3.5)
	if got := c.logSphereMoment(3.5); got != want {
		t.Errorf("σ one ulp larger: %v, want its own rule's %v", got, want)
	}
	if other := cached(key(d, r, omega, math.Nextafter(sigma, 1), 16)); other == nil || other == rule {
		t.Error("a law one ulp apart did not get a rule of its own")
	}
	if got, _ := sphereRules.get(context.Background(), k16, nil); got != rule {
		t.Error("the first law's rule was replaced")
	}
}
