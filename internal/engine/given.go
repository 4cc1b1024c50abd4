package engine

import (
	"math"

	"dpso/scenarios"
	"dpso/solvers"
)

// prescriptionReads names the constants the prescription of solver d at
// moment order k reads (scenarios.Instance.GivenNote's names): β and μ
// (the schedules' step sizes), r̃_2, and at finite order r̃_k (and r̃_2k
// for a localized method, Descriptor.Moments), at k = ∞ L_f in their
// place. A baseline calibrated to the worst case (CertScheduleLipschitz:
// lipschitz-dpsgd) prescribes at k = ∞ whatever the run's k, and is the
// only one at finite k that reads L_f.
func prescriptionReads(d solvers.Descriptor, k float64) []string {
	reads := []string{"beta", "mu", "r2"}
	switch {
	case math.IsInf(k, 1) || d.Certificate == solvers.CertScheduleLipschitz:
		reads = append(reads, "lf")
	case d.Moments == solvers.Moment2K:
		reads = append(reads, "rk", "r2k")
	default:
		reads = append(reads, "rk")
	}
	return reads
}

// givenNote is in.GivenNote for what solver d's prescription at order k
// reads: "" when it reads no user-given constant.
func givenNote(in *scenarios.Instance, d solvers.Descriptor, k float64) string {
	return in.GivenNote(prescriptionReads(d, k)...)
}

// givenNotes are the givenNote of each of ds, once: a note every solver
// has as it is, one only some have prefixed with each one's name.
func givenNotes(in *scenarios.Instance, ds []solvers.Descriptor, k float64) []string {
	var out []string
	notes := make([]string, len(ds))
	same := true
	for i, d := range ds {
		notes[i] = givenNote(in, d, k)
		same = same && notes[i] == notes[0]
	}
	if same {
		if len(ds) > 0 && notes[0] != "" {
			out = append(out, notes[0])
		}
		return out
	}
	for i, d := range ds {
		if notes[i] != "" {
			out = append(out, d.Name()+": "+notes[i])
		}
	}
	return out
}
