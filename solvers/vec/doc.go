// Package vec holds the few vector kernels the solvers' hot loops need that
// gonum does not provide in the form they need (allocation-free, and
// well-defined on non-finite input).
package vec
