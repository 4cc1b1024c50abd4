// Package plot draws dpso's result figures with gonum/plot, for the CLI's
// --plot flag and the explorer's export key: a run's excess risk against
// gradient evaluations + 1 (so that the start, at 0, shows) with the
// reference lines ([Run], [Comparison]), and a sweep's mean excess risk
// against the swept parameter with the reference curves and the fitted
// log-log slopes, or for a clip or k sweep the trade-off: bias-only
// curves, clipped fractions, the prescribed and the best point ([Sweep]).
//
// Every figure shows the four kinds of number apart: measured means (each
// solver in its own colour, dash pattern and marker, with markers at every
// checkpoint of a short trace), the certificate at the run's own
// parameters (the solver's colour darkened), the theorems' rates with
// constants set to 1 ("rate ·" in the legend), and the start line
// F(w₀) − F* (black dots: doing nothing). No two series share a colour or
// a dash pattern; legends use human names ([SolverLabel], [BoundLabel]);
// nothing is written over the data. A figure's [Series] are its model,
// which the tests check in place of the image.
//
// Both axes of every figure are logarithmic, so only positive values can be
// drawn: an excess risk ≤ 0 (possible within F*'s certified accuracy or an
// evaluation sample's error) and an infinite bound (a moment that does not
// exist) are left out, and the legend says how many and which. A bound more
// than 10⁴ times beyond the excess risks drawn (Lipschitz DP-SGD's bound
// with L_f = 2·10²⁰ next to a curve at 10⁻²) would flatten the curve into
// one pixel row; it is not drawn, and the legend gives its value. Nothing
// is clamped or invented.
//
// The legend is drawn below the axes, never over the data. Figures are
// written as PNG or SVG ([Format], chosen by file extension in [FormatOf]);
// [Figure] is open for callers that want to restyle a figure before
// writing it.
package plot
