// Command dpsgdtable prints the table of docs/dpsgd.md, "Compared with DP-SGD":
// the paper's solver, dp-sgd (DP-SGD as practitioners run it, its noise
// calibrated by the PLD accountant), klz-gd and lipschitz-dpsgd on two
// scenarios, every solver of a scenario on the same draws (engine.Compare:
// common random numbers), at equal privacy — each row states its (ε', δ),
// the exact ε' of ρ = ε²/2 zCDP for the zCDP solvers and the accounted ε'
// for dp-sgd, calibrated to at most that.
//
//	go run ./scripts/dpsgdtable
//
// Every number depends on the synthetic data stream (seed 0), so the table
// changes with the random number generator: rerun this command and paste
// its output into docs/dpsgd.md when the stream changes.
package main
