// Package plotcheck reads a figure file that package plot wrote — a PNG
// or an SVG — and reports what the file alone shows: its size, and for a
// PNG the axes (found from the axis lines) and the rows its measured data
// span (the pixels of plot.MeasuredColors inside the axes). Tests of the
// commands and of the explorer check with it that every figure they write
// is 16:9 and that its data fill at least half its height, on the written
// image rather than on the figure's model.
//
// It is test support: only tests import it (TestImportRules checks that no
// package does), so deadcode, which counts no test as a root, lists it.
package plotcheck
