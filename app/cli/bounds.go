package cli

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"dpso/internal/report"
	"dpso/internal/spec"
	"dpso/theory"

	"github.com/spf13/cobra"
)

// maxCount bounds integer counts (n, d): every integer up to it is exact
// in float64.
const maxCount = min(1<<53, math.MaxInt)

// boundsFloatFlags are the float inputs of `dpso bounds`, in help order;
// their ranges are theory.Params' own (theory.ParamInterval).
var boundsFloatFlags = []struct {
	name  string
	field func(*theory.Params) *float64
	usage string
}{
	{"eps", func(p *theory.Params) *float64 { return &p.Eps }, "zCDP ε (ρ = ε²/2)"},
	{"k", func(p *theory.Params) *float64 { return &p.K }, "moment order k of Assumption 1 (inf: uniformly Lipschitz)"},
	{"diam", func(p *theory.Params) *float64 { return &p.Diam }, "diameter D of the domain W"},
	{"r2", func(p *theory.Params) *float64 { return &p.R2 }, "second moment r̃₂ of the gradient norms (inf: does not exist)"},
	{"rk", func(p *theory.Params) *float64 { return &p.Rk }, "k-th moment r̃_k (inf: does not exist; at --k inf defaults to --lf)"},
	{"r2k", func(p *theory.Params) *float64 { return &p.R2k }, "2k-th moment r̃_2k (inf: does not exist; at --k inf defaults to --lf)"},
	{"beta", func(p *theory.Params) *float64 { return &p.Beta }, "smoothness β of F (0: affine)"},
	{"mu", func(p *theory.Params) *float64 { return &p.Mu }, "strong convexity (or proximal-PL) parameter μ"},
	{"lf", func(p *theory.Params) *float64 { return &p.Lf }, "worst-case Lipschitz parameter L_f (inf: unbounded gradients; at --k inf defaults to --rk)"},
	{"kappa-f", func(p *theory.Params) *float64 { return &p.KappaF }, "worst-case condition number κ_f = β_f/μ of f(·, x) (inf: not uniformly smooth)"},
	{"r2-nc", func(p *theory.Params) *float64 { return &p.R2NC }, "r₂ = sup_w (E‖∇f‖²)^(1/2) of Assumption 2 (non-central; the *-nc bounds)"},
	{"rk-nc", func(p *theory.Params) *float64 { return &p.RkNC }, "r_k = sup_w (E‖∇f‖^k)^(1/k) of Assumption 2"},
	{"r2k-nc", func(p *theory.Params) *float64 { return &p.R2kNC }, "r_2k of Assumption 2 (the asymptotic bounds)"},
	{"g2", func(p *theory.Params) *float64 { return &p.G2 }, "γ₂^(1/2) of Assumption 3 (coordinate-wise; the *-coord bounds)"},
	{"gk", func(p *theory.Params) *float64 { return &p.Gk }, "γ_k^(1/k) of Assumption 3"},
	{"g2k", func(p *theory.Params) *float64 { return &p.G2k }, "γ_2k^(1/(2k)) of Assumption 3"},
	{"r2k-emp", func(p *theory.Params) *float64 { return &p.R2kEmp }, "weighted expected empirical moment R̃_{2k,n} (the *-emp bounds)"},
	{"r2k-emp4", func(p *theory.Params) *float64 { return &p.R2kEmp4 }, "R̃_{2k,n/4} (strongly convex localized, precise statement)"},
	{"delta", func(p *theory.Params) *float64 { return &p.Delta }, "δ of (ε, δ)-shuffle DP (the *-shuffle bounds read --eps as the shuffle ε)"},
}

func newBoundsCmd(e *env) *cobra.Command {
	var (
		class  string
		n, d   int
		p      = theory.NewParams()
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "bounds",
		Short: "Evaluate the paper's upper and lower bounds, and prior work's, at given parameters",
		Long: `bounds evaluates the excess-risk bounds of Lowy & Razaviyayn and of the prior
work they compare with, at the parameters given by the flags. Without --class it
prints every bound whose inputs are all given; with --class, the bounds that
belong on that class's chart (its upper bound, the lower bound that applies,
prior work).

Hidden constants are 1 and log factors are as each theorem states them (natural
log), so the values are rates: compare their shapes and slopes ("rate n" is
d log(bound)/d log n), not one upper bound with one lower bound at one point.
Each theorem's conditions are checked and reported; the value is computed
either way. A moment that does not exist (inf) makes a bound infinite (∞, or
null in JSON).

--map x,y (two of n, eps, d, k) draws a rate map of a class (--class, default
smooth-convex) over log grids of the two: which upper bound is smaller, the
paper's or prior work's; how far it is above the lower bound; and for
smooth-convex the regimes of Remark rem: affine optimal (optimal if d ≳ n or
d^(3/2) ≳ εn, otherwise suboptimal by min{(n/d)^(1/16), (εn/d^(3/2))^(1/18)} at
k = 2, β = D = 1, r̃ = √d), for your own k, d, β, D. Inputs not given are fixed
at the paper's Figure-1 setting: n = 10⁴, d = 100, ε = 1, k = 2, D = 1, β = 1,
μ = 1, L_f = ∞, and r̃₂ = r̃_k = r̃_2k = √d at each cell unless a moment is given.`,
		Example: `  dpso bounds --n 10000 --d 100 --eps 1 --k 4 --diam 1 --r2 1 --rk 2 --beta 1
  dpso bounds --class smooth-sc --n 100000 --d 20 --eps 0.5 --k inf --r2 1 --lf 3 --beta 2 --mu 1 --kappa-f 10 --json
  dpso bounds --map n,d --map-size 48x16
  dpso bounds --map n,eps --d 1000 --k 4 --layer regime`,
	}
	fs := cmd.Flags()
	fs.SortFlags = false
	fs.StringVar(&class, "class", "", "loss class: smooth-convex, smooth-sc, nonsmooth-convex, nonsmooth-sc or ppl (default: every bound whose inputs are given)")
	nf := newIntFlag(fs, &n, "n", 0, 1, maxCount, "sample size n")
	df := newIntFlag(fs, &d, "d", 0, 1, maxCount, "dimension d")
	for _, f := range boundsFloatFlags {
		iv, _ := theory.ParamInterval(f.name)
		newFloatFlag(fs, f.field(&p), f.name, math.NaN(), iv, f.usage)
		fs.Lookup(f.name).DefValue = "" // "not given", not a default value
	}
	mf := addMapFlags(fs)
	fs.BoolVar(&asJSON, "json", false, "print JSON (its fields below)")

	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		if nf.set {
			p.N = float64(n)
		}
		if df.set {
			p.Dim = float64(d)
		}
		if mf.axes != "" {
			return mf.run(e, class, p, asJSON)
		}
		for _, f := range []string{"map-x", "map-y", "map-size", "layer"} {
			if cmd.Flags().Changed(f) {
				return usageErrorf("--%s: draws a rate map; give --map too (e.g. --map n,eps)", f)
			}
		}
		ids := theory.IDs()
		explicit := class != ""
		if explicit {
			c, err := theory.ParseClass(class)
			if err != nil {
				return usageErrorf("--class: %v", err)
			}
			ids = theory.ForClass(c)
		}
		var (
			bounds  []theory.Bound
			missing []*theory.MissingError
		)
		for _, id := range ids {
			b, err := theory.Evaluate(id, p)
			if me, ok := err.(*theory.MissingError); ok {
				missing = append(missing, me)
				continue
			}
			if err != nil {
				// Unreachable: the flags validate every input on Set.
				return usageErrorf("%v", err)
			}
			bounds = append(bounds, b)
		}
		if len(bounds) == 0 {
			return usageErrorf("%s", noBoundMessage(missing, explicit, class))
		}
		if explicit && len(missing) > 0 {
			var parts []string
			for _, me := range missing {
				parts = append(parts, me.ID+" needs "+flagList(me.Missing))
			}
			fmt.Fprintf(e.stderr, "dpso bounds: not evaluated, inputs not given: %s\n", strings.Join(parts, "; "))
		}
		if asJSON {
			return report.WriteCitedJSON(e.stdout, report.BoundsJSON{Bounds: bounds}, e.citation(spec.Spec{}, false))
		}
		return report.WriteBoundsTable(e.stdout, bounds)
	}
	return cmd
}

// noBoundMessage says, in one line, which flags would make a bound
// evaluable: those of the bound that lacks the fewest.
func noBoundMessage(missing []*theory.MissingError, explicit bool, class string) string {
	best := slices.MinFunc(missing, func(a, b *theory.MissingError) int { return len(a.Missing) - len(b.Missing) })
	scope := "no bound"
	if explicit {
		scope = "no bound of --class " + class
	}
	return fmt.Sprintf("%s has all its inputs given; e.g. %s also needs %s (see dpso bounds --help)",
		scope, best.ID, flagList(best.Missing))
}

func flagList(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = "--" + n
	}
	return strings.Join(out, ", ")
}
