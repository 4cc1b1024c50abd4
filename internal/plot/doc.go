// Package plot draws dpso's result figures with gonum/plot, for the CLI's
// --plot flag and the explorer's export key: a run's excess risk against
// per-sample gradient evaluations with the levels that are claims at its
// parameters ([Run], [Comparison]); a sweep's mean excess risk against the
// swept parameter with the theory's rates as slope guides, or for a clip
// or k sweep the trade-off: noise-off curves, the clipping bias F(w_C) − F*,
// clipped fractions, the prescribed and the best point ([Sweep]); a
// private tuning call's prescribed, tuned and oracle-tuned bars beside
// the start line ([Tune]); and a scenario's moment profile r̃_k against k
// ([Moments]).
//
// Figures are made for slides: 16:9 at 1920×1080 pixels by default
// ([Options]: any size, the same proportions; an SVG opens at the PNG's
// size), the title across the top and under it, at 32 pixels, the
// screen's verdicts in the screen's words (a sweep's "not yet in force at
// any point …" or "in force at every point", report.SweepVerdict; a
// tuning's ratios with dpso tune's paired test and "no better than doing
// nothing", report.TuneSolverVerdict and report.W0TuneVerdict; words
// where the screen has ⚠ and ✓, which the
// font lacks); the axes on the left and the legend in a column on the
// right, a quarter of the width, its text at 32 pixels at 1920×1080
// (never smaller: its entries' short forms, with the solvers named in a
// note, when the full ones would not fit); the notes under the legend
// where they fit there, the others across the bottom, a short note on
// the line of the one before it where it fits whole. Every solver, the
// start line and every certificate has a colour and a marker of its own
// (certificates in hues no solver takes; a reference beyond the axes is
// an arrow). Both axes are logarithmic (the tuning figure's x axis names
// its procedures); their labels are real values at decades, 1-2-5 steps
// or every multiple, in one form per axis (plain, or m·10^e with the
// exponent raised), never 0.
//
// The y range is the measured data's (the means with their error bars,
// the noise-off curves, the moments), so that the data fill the height.
// The references — the start line F(w₀) − F* (doing nothing) and each
// certificate (the paper's explicit constants at the run's own
// parameters), lines or curves — are drawn where they are when they widen
// that range by little; otherwise each is an arrow at the edge it lies
// beyond, labelled with its value. Nothing is clamped or moved.
//
// A line drawn at a height is a claim about that height: a run's figure
// draws levels only for what is measured or proved at its parameters. The
// theory's bounds, whose hidden constants are set to 1, are rates: a
// sweep draws the paper's upper and lower bounds as slope guides (a k
// sweep as shape guides, without a slope): the bound's values over the
// grid scaled to pass through the first solver's mean at one point, the
// same for every guide ([GuideAnchor]: so that no lower bound's shape is
// drawn above an upper one's; "slope only: its height is not a claim"),
// with the theory's slope beside the fitted one in the legend;
// prior work's slopes are in a note ([Options.Hide] leaves out the
// guides, the certificates or the single trials' traces).
//
// Every series has a colour and a dash pattern of its own and a human name
// in the legend ([SolverLabel], [BoundLabel]); the results the legends cite
// are numbered as in the paper's PDF (theory.Cite). A figure's [Series]
// are its model, and [Figure.Layout] where its parts landed, which the
// tests check beside the image. Figures are written as PNG or SVG
// ([Format], chosen by file extension in [FormatOf]).
package plot
