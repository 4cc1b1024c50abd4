package vec

// The kernels below fuse two of gonum's passes into one and give its
// results to the bit: their dot products are summed as floats.Dot sums
// them on amd64 (its SSE2 kernel DotUnitary): four partial sums
// s_{i mod 4} over the largest multiple of 4 entries, the remaining
// entries added to s₀, and (s₀ + s₂) + (s₁ + s₃), every product rounded
// before it is added. On amd64 they are SSE2 assembly (dot_amd64.s) with
// the same two-lane accumulators, and the row kernels, where the
// processor has AVX, AVX assembly (rows_avx_amd64.s) with one four-lane
// accumulator s₀…s₃, its high half taken out before the last entries go
// to s₀. The Go loops named *Generic are their
// platform fallbacks: what dot_other.go runs on every other architecture
// (the products converted with float64(·), so that the compiler never
// fuses a multiply-add), and the reference TestKernelsMatchGonum and
// TestRowKernelsMatchGonum hold the assembly to, bit for bit. On amd64
// nothing but the tests calls them (deadcode lists them: they are these
// documented fallbacks).

// Axpy adds c·x to y: y_i += c·x_i, each product rounded before the sum,
// as floats.AddScaled does (element by element, so to the bit); len(y) ≥
// len(x). At d = 10 it costs half of gonum's call, whose kernel
// AxpyUnitaryTo first aligns the destination and writes a third slice.
func Axpy(c float64, x, y []float64) {
	y = y[:len(x)]
	if len(x) < 4 {
		axpyGeneric(c, x, y) // without the call
		return
	}
	axpy(c, x, y)
}

func axpyGeneric(c float64, x, y []float64) {
	y = y[:len(x)]
	for i, v := range x {
		y[i] += float64(c * v)
	}
}

// ScaleDot scales a by c in place and returns ⟨w, c·a⟩: floats.Scale(c, a)
// then floats.Dot(w, a), in one pass; len(w) ≥ len(a).
func ScaleDot(c float64, a, w []float64) float64 {
	w = w[:len(a)]
	return scaleDot(c, a, w)
}

func dotSqGeneric(w, a []float64) (wa, aa float64) {
	n := len(a)
	w = w[:n]
	var s0, s1, s2, s3, q0, q1, q2, q3 float64
	i := 0
	for ; i+4 <= n; i += 4 {
		x := a[i : i+4 : i+4]
		y := w[i : i+4 : i+4]
		s0 += float64(y[0] * x[0])
		s1 += float64(y[1] * x[1])
		s2 += float64(y[2] * x[2])
		s3 += float64(y[3] * x[3])
		q0 += float64(x[0] * x[0])
		q1 += float64(x[1] * x[1])
		q2 += float64(x[2] * x[2])
		q3 += float64(x[3] * x[3])
	}
	for ; i < n; i++ {
		s0 += float64(w[i] * a[i])
		q0 += float64(a[i] * a[i])
	}
	return (s0 + s2) + (s1 + s3), (q0 + q2) + (q1 + q3)
}

func scaleDotGeneric(c float64, a, w []float64) float64 {
	n := len(a)
	w = w[:n]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= n; i += 4 {
		x := a[i : i+4 : i+4]
		y := w[i : i+4 : i+4]
		x[0], x[1], x[2], x[3] = c*x[0], c*x[1], c*x[2], c*x[3]
		s0 += float64(y[0] * x[0])
		s1 += float64(y[1] * x[1])
		s2 += float64(y[2] * x[2])
		s3 += float64(y[3] * x[3])
	}
	for ; i < n; i++ {
		a[i] *= c
		s0 += float64(w[i] * a[i])
	}
	return (s0 + s2) + (s1 + s3)
}

// The row kernels apply a kernel to each of a block's rows: row i is
// xs[i·stride : i·stride + len(w)] (resp. len(y)), one call for the block.

// DotRows sets dst[i] = ⟨w, row i⟩, summed as floats.Dot sums it, for
// i < len(dst).
func DotRows(dst, w, xs []float64, stride int) {
	checkRows(len(dst), len(w), len(xs), stride)
	rowsDot(dst, w, xs, stride)
}

// DotSqRows sets dst[i], sq[i] = ⟨w, row i⟩, ‖row i‖² for i < len(dst) (sq as
// long as dst).
func DotSqRows(dst, sq, w, xs []float64, stride int) {
	checkRows(len(dst), len(w), len(xs), stride)
	sq = sq[:len(dst)]
	rowsDotSq(dst, sq, w, xs, stride)
}

// AxpyRows adds coef[i]·(row i) to y for i = 0, 1, … < len(coef), in that
// order, each as Axpy adds it.
func AxpyRows(y, coef, xs []float64, stride int) {
	checkRows(len(coef), len(y), len(xs), stride)
	rowsAxpy(y, coef, xs, stride)
}

// checkRows panics unless k rows of length d with the given stride lie in
// n floats.
func checkRows(k, d, n, stride int) {
	if k > 0 && (stride < d || (k-1)*stride+d > n) {
		panic("vec: rows out of range")
	}
}

func dotRowsGeneric(dst, w, xs []float64, stride int) {
	d := len(w)
	for i := range dst {
		dst[i], _ = dotSqGeneric(w, xs[i*stride:i*stride+d])
	}
}

func dotSqRowsGeneric(dst, sq, w, xs []float64, stride int) {
	d := len(w)
	for i := range dst {
		dst[i], sq[i] = dotSqGeneric(w, xs[i*stride:i*stride+d])
	}
}

func axpyRowsGeneric(y, coef, xs []float64, stride int) {
	d := len(y)
	for i, c := range coef {
		axpyGeneric(c, xs[i*stride:i*stride+d], y)
	}
}
