package cli

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"dpso/internal/report"
	"dpso/internal/spec"
	"dpso/theory"

	"github.com/spf13/pflag"
)

// mapFlags are `dpso bounds --map`'s own flags.
type mapFlags struct {
	axes, xr, yr, size, layer string
}

func addMapFlags(fs *pflag.FlagSet) *mapFlags {
	m := &mapFlags{}
	fs.StringVar(&m.axes, "map", "", "draw a rate map over two of n, eps, d, k (e.g. n,eps): which upper bound is smallest, its gap to the lower bound, the remark's regimes; the other inputs from the flags (defaults below)")
	fs.StringVar(&m.xr, "map-x", "", "range lo:hi of the map's first axis (default n 1e2:1e8, eps 1e-2:1e2, d 1:1e4, k 2:64)")
	fs.StringVar(&m.yr, "map-y", "", "range lo:hi of the map's second axis (defaults as --map-x)")
	fs.StringVar(&m.size, "map-size", "60x18", "cells of the map, columns x rows, each in [2, 400]")
	fs.StringVar(&m.layer, "layer", "all", "what the map shades: best (which upper bound is smaller), gap (best upper / lower), regime (rem: affine optimal; smooth-convex) or all")
	return m
}

// mapDefaults are the inputs a rate map fixes when their flags are not
// given: the paper's Figure-1 setting (k = 2, β = D = 1, ε = 1) at n = 10⁴,
// d = 100, μ = 1, L_f = ∞; the moments follow r̃₂ = r̃_k = r̃_2k = √d at
// each cell unless one of them is given.
var mapDefaults = []struct {
	name string
	get  func(*theory.Params) *float64
	v    float64
}{
	{"n", func(p *theory.Params) *float64 { return &p.N }, 1e4},
	{"d", func(p *theory.Params) *float64 { return &p.Dim }, 100},
	{"eps", func(p *theory.Params) *float64 { return &p.Eps }, 1},
	{"k", func(p *theory.Params) *float64 { return &p.K }, 2},
	{"diam", func(p *theory.Params) *float64 { return &p.Diam }, 1},
	{"beta", func(p *theory.Params) *float64 { return &p.Beta }, 1},
	{"mu", func(p *theory.Params) *float64 { return &p.Mu }, 1},
	{"lf", func(p *theory.Params) *float64 { return &p.Lf }, math.Inf(1)},
}

// run draws the map: class (default smooth-convex) over the two axes,
// every other input from p or mapDefaults.
func (m *mapFlags) run(e *env, class string, p theory.Params, asJSON bool) error {
	x, y, err := theory.ParseMapAxes(m.axes)
	if err != nil {
		return usageErrorf("--map: %v", err)
	}
	c := theory.SmoothConvex
	if class != "" {
		if c, err = theory.ParseClass(class); err != nil {
			return usageErrorf("--class: %v", err)
		}
	}
	xlo, xhi, err := parseMapRange(m.xr, x)
	if err != nil {
		return usageErrorf("--map-x: %v", err)
	}
	ylo, yhi, err := parseMapRange(m.yr, y)
	if err != nil {
		return usageErrorf("--map-y: %v", err)
	}
	nx, ny, err := parseMapSize(m.size)
	if err != nil {
		return usageErrorf("--map-size: %v", err)
	}
	var layers []theory.MapLayer
	switch m.layer {
	case "all":
		layers = []theory.MapLayer{theory.LayerBest, theory.LayerGap}
		if c == theory.SmoothConvex {
			layers = append(layers, theory.LayerRegime)
		}
	case "best", "gap", "regime":
		layers = []theory.MapLayer{theory.MapLayer(m.layer)}
		if m.layer == "regime" && c != theory.SmoothConvex {
			return usageErrorf("--layer: regime is Remark rem: affine optimal's, about smooth-convex-acsa; class %s has none (use best or gap)", c)
		}
	default:
		return usageErrorf("--layer: %q is not one of best, gap, regime, all", m.layer)
	}

	axis := map[string]bool{string(x): true, string(y): true}
	var fixed []string
	for _, f := range mapDefaults {
		if axis[f.name] {
			continue
		}
		v := f.get(&p)
		if math.IsNaN(*v) {
			*v = f.v
		}
		fixed = append(fixed, f.name+" = "+theory.FormatNumber(*v))
	}
	norm := math.IsNaN(p.R2) && math.IsNaN(p.Rk) && math.IsNaN(p.R2k)
	var adjust func(*theory.Params)
	if norm {
		adjust = func(q *theory.Params) {
			r := math.Sqrt(q.Dim)
			q.R2, q.Rk, q.R2k = r, r, r
		}
		fixed = append(fixed, "r̃₂ = r̃_k = r̃_2k = √d at each cell (the paper's Figure-1 normalization; give --r2, --rk, --r2k to fix them instead)")
	} else {
		for _, f := range []struct {
			name string
			v    float64
		}{{"r2", p.R2}, {"rk", p.Rk}, {"r2k", p.R2k}} {
			if !math.IsNaN(f.v) {
				fixed = append(fixed, f.name+" = "+theory.FormatNumber(f.v))
			}
		}
		if axis["k"] {
			fixed = append(fixed, "the moments held fixed while k varies")
		}
	}
	rm, err := theory.NewRateMap(theory.MapSpec{Class: c, Base: p, X: x, Y: y, XMin: xlo, XMax: xhi, NX: nx,
		YMin: ylo, YMax: yhi, NY: ny, Adjust: adjust})
	if err != nil {
		if me := missingOf(err); me != nil {
			return usageErrorf("--map: %s needs %s", me.ID, flagList(me.Missing))
		}
		return usageErrorf("--map: %v", err)
	}
	fixedText := "fixed " + strings.Join(fixed, ", ")
	if asJSON {
		return report.WriteCitedJSON(e.stdout, report.RateMap(rm, fixedText), e.citation(spec.Spec{}, false))
	}
	return report.WriteRateMap(e.stdout, rm, layers, fixedText)
}

// missingOf finds a *theory.MissingError in err's chain.
func missingOf(err error) *theory.MissingError {
	for err != nil {
		if me, ok := err.(*theory.MissingError); ok {
			return me
		}
		u, ok := err.(interface{ Unwrap() error })
		if !ok {
			return nil
		}
		err = u.Unwrap()
	}
	return nil
}

// parseMapRange parses "lo:hi" (empty: the axis's default range).
func parseMapRange(s string, a theory.MapAxis) (lo, hi float64, err error) {
	if s == "" {
		lo, hi = report.MapAxisDefault(a)
		return lo, hi, nil
	}
	parts := strings.Split(s, ":")
	if len(parts) != 2 {
		return 0, 0, fmt.Errorf("%q is not lo:hi (e.g. 100:1e8)", s)
	}
	if lo, err = theory.ParseNumber(parts[0]); err == nil {
		hi, err = theory.ParseNumber(parts[1])
	}
	min := map[theory.MapAxis]float64{theory.AxisN: 1, theory.AxisD: 1, theory.AxisK: 2}[a]
	if err != nil || !(lo > 0 && lo >= min && hi > lo) || math.IsInf(hi, 1) {
		return 0, 0, fmt.Errorf("%q is not lo:hi with %s ≤ lo < hi < ∞ for axis %s", s, theory.FormatNumber(math.Max(min, 0)), a)
	}
	return lo, hi, nil
}

// parseMapSize parses "WxH".
func parseMapSize(s string) (nx, ny int, err error) {
	parts := strings.Split(strings.ToLower(s), "x")
	if len(parts) == 2 {
		nx, err = strconv.Atoi(parts[0])
		if err == nil {
			ny, err = strconv.Atoi(parts[1])
		}
	}
	if len(parts) != 2 || err != nil || nx < 2 || nx > 400 || ny < 2 || ny > 400 {
		return 0, 0, fmt.Errorf("%q is not columns x rows, each in [2, 400] (e.g. 60x18)", s)
	}
	return nx, ny, nil
}
