// Package theorem is the explorer's theorem panel, the chart's and the
// moment profile's companion: the class's theorem, each term's value and
// the dominant one, its conditions, the lower bound and prior work at the
// same parameters, the solver's parameters, and the notes dpso run
// prints; what does not fit scrolls, the most important lines first.
package theorem
