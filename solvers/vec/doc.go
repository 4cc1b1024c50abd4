// Package vec holds the few vector kernels the solvers' hot loops need that
// gonum does not provide in the form they need (allocation-free, and
// well-defined on non-finite input).
//
// On amd64 the kernels are SSE2 assembly, and the row kernels (DotRows,
// DotSqRows, AxpyRows) AVX assembly where the processor has AVX
// (rows_avx_amd64.s: the same operations on the same lanes, no fused
// multiply-add, so the same bits); the Go loops named *Generic are
// their platform fallbacks (what other architectures run) and the
// reference the tests hold the assembly to, bit for bit, so on amd64 only
// tests call them and deadcode lists them (dot.go says how they sum).
package vec
