package spec

// Overlay returns s with every field that set names taken from o: a
// field by its name (the CLI flag's), a scenario parameter by its own.
// `dpso explore --preset P --n 20000` is the preset's Spec overlaid with
// the flags the user gave.
func (s Spec) Overlay(o Spec, set func(name string) bool) Spec {
	c := s.Clone()
	o = o.Clone()
	for _, f := range fields {
		switch {
		case f.Kind == ParamMap:
			for k, v := range o.Params {
				if set(k) {
					if c.Params == nil {
						c.Params = map[string]float64{}
					}
					c.Params[k] = v
				}
			}
		case !set(f.Name):
		case f.f64 != nil:
			*f.f64(&c) = *f.f64(&o)
		case f.i != nil:
			*f.i(&c) = *f.i(&o)
		case f.i64 != nil:
			*f.i64(&c) = *f.i64(&o)
		case f.u64 != nil:
			*f.u64(&c) = *f.u64(&o)
		case f.str != nil:
			*f.str(&c) = *f.str(&o)
		case f.bl != nil:
			*f.bl(&c) = *f.bl(&o)
		case f.opt != nil:
			*f.opt(&c) = *f.opt(&o)
		}
	}
	return c
}
