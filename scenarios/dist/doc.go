// Package dist holds the heavy-tailed distributions dpso's scenarios draw
// from, with allocation-free samplers (they run inside the solvers' sample
// readers, which must not allocate) and their analytic absolute moments.
//
// gonum's stat/distuv is the reference for densities, CDFs and moments and
// the tests check these samplers against it; the samplers are written here
// because distuv's Gamma (hence ChiSquared and StudentsT) allocates a
// *rand.Rand per draw when given a Src.
//
// Conventions follow distuv: a moment that does not exist is +Inf (never a
// large sentinel), a quantity that is undefined is NaN.
//
// Rand.Normals' fast path (the ziggurat's inner rectangles) is assembly on
// amd64; the Go loop normalsFastGeneric is its platform fallback (what
// other architectures run) and the reference its tests hold the assembly
// to, so on amd64 only tests call it and deadcode lists it.
package dist
