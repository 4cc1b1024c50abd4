// Package sweepfix builds the small sweep reports that the tests of the
// report, the figures and the explorer's sweep screen read where a real
// sweep could not reach a case: an n sweep whose runs the work budget cut
// (budget-capped, whose certificates cover no run).
//
// It is test support: only tests import it (arch_test.go checks that no
// package does), so deadcode, which counts no test as a root, lists it.
package sweepfix
