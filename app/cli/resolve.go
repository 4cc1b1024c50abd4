package cli

import (
	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/solvers"
)

// resolveFlags resolves the Spec of a command's flags: a data file is
// checked first (so that a missing file is named before anything the data
// would need), then the Spec is resolved, once, and a setting of a solver
// the command does not run (names: --solvers; none: the --solver) is
// refused (Spec.CheckSolverFields). Errors are usage errors naming the
// flag (renamed by rename).
func resolveFlags(sf *specFlags, rename map[string]string, names []string) (spec.Resolved, float64, error) {
	s, conv, err := sf.Spec()
	if err != nil {
		return spec.Resolved{}, conv, userError(err, rename)
	}
	if s.Data != "" && s.Scenario == "" {
		if err := scenarios.CheckDataFile(s.Data); err != nil {
			return spec.Resolved{}, conv, userError(err, rename)
		}
	}
	r, err := s.Resolve()
	if err == nil {
		err = s.CheckSolverFields(names)
	}
	if err != nil {
		return spec.Resolved{}, conv, userError(err, rename)
	}
	if sf.fs.Changed("seed") && r.Rand == solvers.Secure {
		// A typed seed promises a reproducible run; secure randomness
		// reads none (on --data it is the default).
		return spec.Resolved{}, conv, usageErrorf("--seed: secure randomness reads no seed, so the run would not be reproducible from it; leave --seed out, or give --rand seeded (on --data that makes every output say it is NOT private)")
	}
	return r, conv, nil
}
