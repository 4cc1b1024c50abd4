package plot

import (
	"dpso/internal/spec"
)

// sweepSymbol is how a figure writes the swept parameter: "ε" for eps,
// "C" for clip, the parameter's name otherwise.
func sweepSymbol(param string) string {
	switch param {
	case spec.SweepEps:
		return "ε"
	case spec.SweepClip:
		return "C"
	}
	return param
}
