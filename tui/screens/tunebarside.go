package screens

// barEnd is the last column of a bar ending at column n on the tuning
// screen's log axis, kept on its side of the start line's column w0Col:
// a mean above w₀ ends past the ┊ (it did worse than doing nothing), a
// mean below it ends before — where rounding to the nearest column put
// both in w₀'s, the ┊ drawn over the bar's end made a run worse than w₀
// read as no worse (preset 9's prescribed 0.313 beside w₀ 0.187, 80
// columns).
func barEnd(n, w0Col, barW int, mean, w0 float64) int {
	switch {
	case n < 0 || w0Col < 0:
		return n
	case mean > w0 && n <= w0Col && w0Col+1 < barW:
		return w0Col + 1
	case mean < w0 && n >= w0Col:
		return w0Col - 1
	}
	return n
}
