// Command quantiletable prints the table of docs/privacy.md, "Its failure
// law, exactly": the exact output law of the private quantile
// (solvers/estimate.QuantileLaw) on the seeded data sets of
// solvers/estimate/testdata/quantile_golden.json — P(release > 10·x₍ᵣ₎),
// P(release < x₍ᵣ₎/10) and the median release in units of x₍ᵣ₎, at
// ρ = 0.025, q = ½ and 0.9, n = 20, 150, 1500 — and the data-free bounds
// HighFail and LowFail quoted beside it.
//
//	go run ./scripts/quantiletable
//
// The laws are exact (enumerated, no Monte Carlo); the golden file's
// script computes the same laws independently and the estimate package's
// tests compare the two. Rerun this command and paste its output into
// docs/privacy.md when the mechanism changes (TestTableInDocs says when).
package main
