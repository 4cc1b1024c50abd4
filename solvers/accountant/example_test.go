package accountant_test

import (
	"fmt"

	"dpso/solvers/accountant"
)

// ExampleEpsilon accounts T = 782 steps of DP-SGD (the Poisson-subsampled
// Gaussian mechanism) at sampling rate q = 0.0064 and noise multiplier
// σ = 1, at δ = 10⁻⁶ — the setting of TensorFlow Privacy's
// compute_dp_sgd_privacy_test.py, test_dp_sgd_privacy_statement_no_user_dp_with_pld,
// which states ε' = 1.199 under add/remove adjacency by its PLD
// accountant. Both accountants give an upper bound on the exact ε': the
// PLD one is the tighter, the RDP curve converted at its best order the
// looser. Under the paper's replace-one adjacency one record moves a
// step's sum by up to 2C, and ε' is larger.
func ExampleEpsilon() {
	m := accountant.Mechanism{Sigma: 1, Q: 0.0064, Steps: 782, Adjacency: accountant.AddRemove}
	for _, k := range []accountant.Kind{accountant.RDP, accountant.PLD} {
		eps, err := accountant.Epsilon(k, m, 1e-6)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%v, add/remove: ε' = %.3f\n", k, eps)
	}
	m.Adjacency = accountant.ReplaceOne
	eps, err := accountant.Epsilon(accountant.PLD, m, 1e-6)
	if err != nil {
		panic(err)
	}
	fmt.Printf("PLD, replace-one: ε' = %.3f\n", eps)
	// Output:
	// rdp, add/remove: ε' = 1.616
	// pld, add/remove: ε' = 1.199
	// PLD, replace-one: ε' = 1.742
}
