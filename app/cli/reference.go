package cli

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"dpso/internal/report"
	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/theory"
)

// referenceDetails are what a command's reference page (docs/cli, the man
// pages: GenDocs) says beyond its --help, in Markdown, by command path:
// the prose and tables that would make the help too long to read on one
// screen. They are built only when the reference is generated.
var referenceDetails = map[string]func() string{
	"dpso run": runDetails,
}

// runDetails is `dpso run`'s reference beyond its help: constants,
// defaults (with the per-scenario table), privacy, output, comparisons and
// the exit status.
func runDetails() string {
	return `#### Constants

The prescription reads the scenario's declared constants (r̃\_k, β, μ, L\_f),
computed from its distribution, which is public; ` + "`--r2`, `--rk`, `--r2k`, `--lf`, `--beta` and `--mu`" + `
override them, and the output then says that the prescription uses
user-given constants. With ` + "`--iters`, `--clip` and `--step`" + ` all given, no moment
constant is needed.

#### Defaults

Scenario ` + scenarios.DefaultScenario + `; class the scenario's first; solver the paper's algorithm for
the class; oracle clip-gaussian (klz-gd: coordinate); ε = 1; trials = ` + strconv.Itoa(spec.DefaultTrials) + `
(on ` + "`--data`" + ` ` + strconv.Itoa(spec.DefaultDataTrials) + `: every trial on the same rows spends the budget again); seed 0
with seeded randomness (on ` + "`--data`" + ` secure randomness: seeded noise on your rows is
NOT private, and ` + "`--rand seeded`" + ` says so in every output); the scenario's parameters
from its catalogue entry (` + "`dpso list`" + `); n, k, d and D as a run resolves them, per
class where they differ (a non-smooth class's n is the largest whose full
schedule fits the work budget; a run's notes say why a default moved):

` + "```\n" + scenarioDefaultsTable() + "```" + `

#### Privacy

Every statement is under the paper's replace-one adjacency (datasets of the
same size that differ in one record), and every run states its (ε', δ)-DP
equivalent at ` + "`--delta`" + ` (default 10⁻⁵): the exact ε' of ρ = ε²/2 zCDP (4.3772 at
ε = 1). dp-sgd, DP-SGD as practitioners run it, is calibrated by a privacy
accountant (` + "`--accountant pld`" + `, the default, or ` + "`rdp`" + `) to an accounted (ε', δ) at
most that under replace-one, so a comparison is on equal privacy;
` + "`--adjacency add-remove`" + ` (dp-sgd alone) accounts it as Opacus and TF Privacy do,
to reproduce their figures. Its
defaults: expected Poisson batch B = min(256, n) (` + "`--batch`, or `--sampling-rate`" + `
q = B/n), 5 epochs (` + "`--epochs`" + `; T = ⌈E/q⌉ steps), C = r̃\_k(B/(√d·z))^{1/k}
(` + "`--clip`" + `), step min{1/β, D/(G√T)} (` + "`--step`" + `), adaptive clipping off
(` + "`--adaptive-clip` with `--clip-quantile 0.5`, `--clip-rate 0.2`, `--clip-count-noise`" + `
B/20). klz-gd's number of groups and coordinate threshold are prescribed unless
` + "`--klz-groups`, `--klz-tau`" + ` are given. These settings are dp-sgd's and klz-gd's
alone: with another ` + "`--solver`" + ` they are refused; with ` + "`--solvers`" + ` they apply to
dp-sgd (klz-gd) only, and the list must include it.

On user data (` + "`--data`" + `) the rows are the private data. Trials (and the solvers
of a comparison, the points of a sweep) read the same rows and compose: the
"total" row and ` + "`privacy.total`" + ` state what everything released costs;
` + "`--split-budget`" + ` makes ` + "`--eps`" + ` that total. The excess risk measured on the rows is a
non-private diagnostic (` + "`\"private\": false`" + `), not part of the release. D is
never chosen from the rows: when their empirical risk minimizer lies outside W
the run says so with the two risks and how to choose ` + "`--diam`" + ` (` + "`geometry`" + `), and
` + "`--estimate-constants`" + ` prints every constant it estimated (` + "`estimated_constants`" + `),
both non-private.

Beside every run stands a non-private reference (` + "`nonprivate_reference`" + `, the
` + "`reference`" + ` row): F(ŵ) − F* of the empirical risk minimizer over W on each trial's
draw, which depends neither on ε nor on any solver (not computed on ` + "`--data`" + `).
The baseline nonprivate-schedule (former name sgd, still accepted) runs the
paper solver's schedule at this ε without clipping or noise: it moves with ε.

#### Output

An aligned table; ` + "`--json`" + ` the document whose fields are listed below, with null
for a value that is infinite or does not exist (k = ∞, ε = ∞, the standard
error of one trial, ` + "`\"seed\"`" + ` with secure randomness, which reads no seed). A
dp-sgd run's privacy block has ` + "`\"model\": \"accountant\"`, `\"accountant\"`" + ` (pld or rdp),
` + "`\"eps_delta\"`" + `, its accounted (ε', δ), and ` + "`\"target\"`" + `, what its noise was calibrated to;
its ` + "`\"rho\"`, `\"eps_exact\"`" + ` and total's ` + "`\"rho\"`" + ` are null (it claims no zCDP ρ), and its
` + "`\"oracle\"` is `\"noisy-sum\"`" + `, its own clipped noisy sum. Every mean has its median
and quartiles (type 7) beside it. ` + "`--csv`" + ` gives each trial's trace, one row per
checkpoint: ` + "`trial,grad_evals,excess_risk`" + `. Every JSON document and CSV carries its
citation: the version line, the command line, the randomness (and seed where
seeded) and, on ` + "`--data`" + `, the file's SHA-256 (JSON ` + "`\"citation\"`" + `; CSV columns
` + "`dpso_version,command,rand,seed,data_sha256`" + `). ` + "`--plot FILE.png|FILE.svg`" + `
draws the traces with the bounds into a new file (` + "`--force`" + ` replaces one). The
same ` + "`--seed`" + ` gives the same output, byte for byte (seeded randomness).

` + "`--solvers a,b,c`" + ` compares solvers on the same draws (each solver's numbers are
those of ` + "`--solver`" + ` alone): one table with each solver's paired difference from
the first; ` + "`--json`" + ` gives one document with each solver's run document in
` + "`\"runs\"`" + ` (` + "`\"refused\"`" + ` where a solver cannot run), the explorer's export of a
comparison; ` + "`--csv`" + ` adds a solver column; ` + "`--plot`" + ` draws every solver in one figure.

#### Exit status

0 ok; 2 invalid input (one line naming the flag and the allowed range),
including a solver's refusal (lipschitz-dpsgd when L\_f = ∞); 130 on Ctrl-C;
1 other failures.
`
}

// scenarioDefaultsTable lists each scenario's defaults for run's reference: those
// a run resolves to (report.List: spec.Spec.Resolve per class), so that
// the reference cannot disagree with a run; classes with other n or k than the
// default class's get a row of their own.
func scenarioDefaultsTable() string {
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  SCENARIO\tN\tK\tD\tDIAM\tTAIL\tCLASSES (first = default)")
	for _, s := range report.List().Scenarios {
		d := strconv.Itoa(s.D)
		if s.FixedD {
			d += " (fixed)"
		}
		diam := "from the proof"
		if s.Diam != nil {
			diam = theory.Sig6.Format(*s.Diam)
			if s.FixedDiam {
				diam += " (fixed)"
			}
		}
		tail := "—"
		if s.Tail != nil {
			tail = s.Tail.Symbol + " = " + theory.Sig6.Format(s.Tail.Default) + " in " + s.Tail.Range
		}
		// Group the classes by their (n, k), in order.
		type row struct {
			n, k    string
			classes []string
		}
		var rows []*row
		for _, c := range s.Defaults {
			n, k, cls := strconv.Itoa(c.N), theory.Sig6.Format(c.K), c.Class
			if c.Error != "" {
				n, k, cls = "—", "—", c.Class+" (needs --"+c.Flag+")"
			}
			if i := slices.IndexFunc(rows, func(r *row) bool { return r.n == n && r.k == k }); i >= 0 && c.Error == "" {
				rows[i].classes = append(rows[i].classes, cls)
				continue
			}
			rows = append(rows, &row{n, k, []string{cls}})
		}
		for i, r := range rows {
			if i == 0 {
				fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\t%s\n", s.Name, r.n, r.k, d, diam, tail, strings.Join(r.classes, ", "))
				continue
			}
			fmt.Fprintf(tw, "  \t%s\t%s\t\t\t\t%s\n", r.n, r.k, strings.Join(r.classes, ", "))
		}
	}
	tw.Flush()
	return b.String()
}
