package noise

import "testing"

// BenchmarkAdd is one draw of noise on a value: floating point (the
// ziggurat) against exact (Karney's normal rounded to the lattice).
func BenchmarkAdd(b *testing.B) {
	for _, exact := range []bool{false, true} {
		name := "float"
		if exact {
			name = "exact"
		}
		b.Run(name, func(b *testing.B) {
			var s Sampler
			s.SetExact(exact)
			r := newRand(1)
			v := 0.0
			for b.Loop() {
				v = s.Add(0.25, 0.731, r)
			}
			_ = v
		})
	}
}
