// Package userrows writes the small CSV files of user data that the
// tests of the commands and of the explorer run on (--data, the form's
// data field): a header a1, …, a_d, y and one row of d features and a
// label per line, every value in the shortest form that reads back
// exactly, in a fresh temporary folder of the test.
//
// It is test support: only tests import it (arch_test.go checks that no
// package does), so deadcode, which counts no test as a root, lists it.
package userrows
