package cli

import (
	"dpso/internal/plot"
	"dpso/internal/report"
	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/solvers"

	"github.com/spf13/cobra"
)

func newMomentsCmd(e *env) *cobra.Command {
	cmd, _ := newMomentsCommand(e)
	return cmd
}

// momentsOpts are the moments command's flags.
type momentsOpts struct {
	sf       *specFlags
	asJSON   bool
	plotPath string
	force    bool
	shape    plotShape
}

func newMomentsCommand(e *env) (*cobra.Command, *momentsOpts) {
	o := &momentsOpts{}
	cmd := &cobra.Command{
		Use:   "moments",
		Short: "Show a scenario's moment constants under the paper's three assumptions: r̃_k, r_k, γ_k, L_f, and how they compare",
		Long: `moments prints the moment constants of a scenario's gradients under the
paper's three bounded-moment assumptions, at k = 2, 2.5, 3, 4, 6, 8, 12, 16 (and
at --k and 2k):

  r̃_k = (E sup_{w∈W} ‖∇f(w, x)‖^k)^{1/k}      Assumption ass:tilde (r̃_∞ = L_f)
  r_k = sup_{w∈W} (E‖∇f(w, x)‖^k)^{1/k} ≤ r̃_k  Assumption ass:boundednoncentral
  γ_k = sup_{w∈W} max_j E|∂_j f(w, x) − ∂_j F(w)|^k
                                              Assumption ass:coordinatewise

with L = sup_w ‖∇F(w)‖, and checks the inequalities between them that
[lem: comparing assumptions], the definitions, Jensen and Lyapunov assert (at k = 2,
k and 2k; each side may move 3 standard errors). These are the scenario's
declared constants, computed from its distribution (public knowledge), never from
a run's sample: exact where a closed form exists, otherwise Monte Carlo means over
2²⁰ draws with their standard errors. The sup over W is located by convexity and
the scenario's symmetry (a point, or a certified search over an arc of W); where
‖∇f(·, x)‖ is not convex in w (logistic, hinge and absolute losses with an ℓ2
term) it is only bracketed, shown a…b. A moment that does not exist is ∞ (null in
JSON); a standard error is ∞ (null) when the estimator's variance is infinite.

--assumption noncentral|coordinatewise on dpso run makes a smooth class's
prescription read r_k (or the lemma's bound from γ_k) instead of r̃_k.

The profile depends on the problem's parameters (tail, d, D, the scenario's
parameters, and for the lower-bound instances n, ε and k), so those flags are
the same as dpso run's.

For the non-smooth classes it also shows the empirical moment of
[lem: empirical moments] that their localized theorem reads, at the resolved n:
R̃_{2k,n} (nonsmooth-convex) or R̃_{2k,n/4} (nonsmooth-sc, taken at
m = ⌊n/4⌋), exact where one point of W attains every sample's sup at once,
otherwise bracketed a…b (b = r̃_2k·√(1 − 2^{−l}), l = ⌊log₂ m⌋, is what the
bound reads). In JSON "empirical" is null for the other classes; its value,
lower and stderr are null where it is not computed (method says why).

A constant given by a flag (--lf, --rk, --r2, --r2k, --beta, --mu), which the
profile then shows in place of the scenario's, is flagged ⚠ where the scenario
contradicts it (e.g. --lf 1e6 for Student-t data, whose L_f is ∞): the bound it
declares is false for these data ("contradictions" in JSON).

--plot FILE.png|FILE.svg draws the profile: r̃_k and r_k against k (log-log),
an arrow for each order whose moment does not exist, L_f and the run's k.`,
		Example: `  dpso moments --scenario linreg-t --tail 5
  dpso moments --scenario example1 --json
  dpso moments --scenario mean-hard --k 4 --n 20000 --eps 0.5
  dpso moments --scenario linreg-t --tail 10 --lf 1e6 --plot moments.png`,
	}
	fs := cmd.Flags()
	o.sf = addSpecFlags(fs, spec.Problem|spec.Data)
	// The given constants (--lf, --rk, …) the profile shows and checks
	// against the scenario's; not --constants, which says where a run's
	// prescription reads them from (the profile runs nothing).
	for _, f := range spec.Fields() {
		if f.Group == spec.Constant && f.Name != "constants" {
			addFieldFlag(fs, f, &o.sf.spec)
		}
	}
	fs.BoolVar(&o.asJSON, "json", false, "print JSON (its fields below)")
	fs.StringVar(&o.plotPath, "plot", "", "write a figure of the profile to this new .png or .svg file (an existing file is refused unless --force)")
	fs.BoolVar(&o.force, "force", false, "let --plot replace an existing file (atomically; never through a symbolic link)")
	addPlotShape(fs, &o.shape, false, true)
	setFlagGroup(fs, headingOutput, "json", "plot", "force", "plot-size")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error { return o.run(e) }
	return cmd, o
}

// validated is the run whose profile is shown. Its solver is the
// baseline nonprivate-schedule, which has no class of its own and needs no r̃_2k, so that
// only the moments the profile itself needs are checked (the profile does
// not depend on the solver).
func (o *momentsOpts) validated() (spec.Resolved, error) {
	if o.sf.fs.Changed("plot") && o.plotPath == "" {
		return spec.Resolved{}, usageErrorf("--plot: an empty file name; give a .png or .svg file name")
	}
	if o.force && o.plotPath == "" {
		return spec.Resolved{}, usageErrorf("--force: lets --plot replace an existing file; give --plot FILE")
	}
	if o.plotPath != "" {
		if _, err := plot.FormatOf(o.plotPath); err != nil {
			return spec.Resolved{}, usageErrorf("--plot: %v", err)
		}
	}
	if err := o.shape.check(o.sf.fs, o.plotPath); err != nil {
		return spec.Resolved{}, err
	}
	o.sf.spec.Solver = solvers.NonPrivateScheduleName
	if o.sf.spec.Data != "" {
		// On user data the profile is the rows' own, computed from them:
		// the estimate that --estimate-constants makes (not private).
		o.sf.spec.EstimateConstants = true
	}
	r, _, err := resolveFlags(o.sf, nil, nil)
	return r, err
}

func (o *momentsOpts) run(e *env) error {
	r, err := o.validated()
	if err != nil {
		return err
	}
	if err := checkPlot(o.plotPath, o.force); err != nil {
		return err
	}
	ctx, stop := interruptContext()
	defer stop()
	in, err := scenarios.Build(ctx, r.Problem)
	if ctx.Err() != nil {
		return errInterrupted(ctx, "dpso moments")
	}
	if err != nil {
		return userError(err, nil)
	}
	m, err := report.NewMoments(ctx, r.Spec, in)
	if ctx.Err() != nil {
		return errInterrupted(ctx, "dpso moments")
	}
	if err != nil {
		return userError(err, nil)
	}
	if o.asJSON {
		err = report.WriteCitedJSON(e.stdout, m.JSON(), e.citation(r.Spec, false))
	} else {
		err = m.WriteTable(e.stdout)
	}
	if err != nil || o.plotPath == "" {
		return err
	}
	return savePlot(ctx, "dpso moments", o.plotPath, o.force, o.shape.figure(func(opt plot.Options) (*plot.Figure, error) {
		return plot.Moments(momentProfile(m), opt)
	}))
}

// momentProfile is the moment profile's figure input of a moments report
// (the CLI's --plot and the explorer's export draw the same figure).
func momentProfile(m report.Moments) plot.MomentProfile {
	return plot.MomentProfile{Spec: m.Spec, D: m.D, Finite: m.Finite, Lf: m.Lf, Noncentral: m.Noncentral, Contradictions: m.Contradictions}
}
