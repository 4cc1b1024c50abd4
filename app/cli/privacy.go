package cli

import (
	"errors"
	"fmt"
	"math"

	"dpso/internal/report"
	"dpso/internal/spec"
	"dpso/solvers/accountant"
	"dpso/theory"

	"github.com/spf13/cobra"
)

// maxAccountedSteps caps --steps: beyond 10⁸ compositions the PLD grid and
// the RDP orders lose the precision the output claims.
const maxAccountedSteps = 100_000_000

func newPrivacyCmd(e *env) *cobra.Command {
	var (
		eps, delta, target float64
		asJSON             bool
		acct, adjName      string
		sigma, q           float64
		steps              int
	)
	cmd := &cobra.Command{
		Use:   "privacy",
		Short: "Convert the zCDP ε to ρ, Gaussian DP and (ε', δ)-DP, find the ε for a target (ε', δ), or account DP-SGD",
		Long: `privacy converts dpso's privacy parameter, the zCDP ε (the paper's solvers
with a Gaussian oracle, every oracle but the shuffle ones, are ρ-zCDP with
ρ = ε²/2), into Gaussian DP (μ = ε: those runs are compositions of Gaussian
mechanisms) and into (ε', δ)-DP three ways: Bun–Steinke
ε' = ρ + 2√(ρ ln(1/δ)); Canonne–Kamath–Steinke 2020 (valid for any ρ-zCDP
mechanism); and exactly, from the privacy curve of a μ-GDP mechanism,
δ(ε') = Φ(−ε'/μ + μ/2) − e^{ε'}·Φ(−ε'/μ − μ/2), solved for ε'. The shuffle
oracles (shuffle-clip, shuffle-coordinate) are (ε, δ)-shuffle DP instead, as
their runs say: none of these conversions applies to them. dp-sgd is
calibrated to the exact (ε', δ) of ρ = ε²/2 and accounted as below.

With --target-eps instead of --eps it answers the inverse question: which zCDP ε
gives (ε', δ)-DP, exactly and by Bun–Steinke.

With --accountant rdp|pld it accounts DP-SGD's mechanism instead (the one the
dp-sgd solver runs): --steps T steps of the Poisson-subsampled Gaussian mechanism
with --sampling-rate q and --noise-multiplier σ under --adjacency (replace-one,
the paper's relation and dpso's default, or add-remove, the relation of Opacus's
and TF Privacy's published figures), composed by the RDP accountant
(Mironov–Talwar–Zhang, improved conversion) or the PLD accountant (privacy loss
distributions, pessimistic connect-the-dots discretisation composed by FFT; it
also proves a lower bound, so the exact ε' lies in [eps_lower, eps]). With
--target-eps in place of --noise-multiplier it gives the smallest noise
multiplier whose accounted ε' meets the target (PLD: to within ` + accountant.PredictMarginWords() + `).`,
		Example: `  dpso privacy --eps 1
  dpso privacy --eps 0.5 --delta 1e-6 --json
  dpso privacy --target-eps 1 --delta 1e-5
  dpso privacy --accountant pld --noise-multiplier 1.1 --sampling-rate 0.004 --steps 15000 --delta 1e-5
  dpso privacy --accountant pld --adjacency add-remove --noise-multiplier 1.5 --sampling-rate 0.04 --steps 2250 --delta 1e-5
  dpso privacy --accountant rdp --sampling-rate 0.01 --steps 500 --target-eps 4.3772 --json`,
	}
	fs := cmd.Flags()
	fs.SortFlags = false
	ef := newFloatFlag(fs, &eps, "eps", math.NaN(), theory.Interval{Lo: spec.MinEps, Hi: spec.MaxEps}, "zCDP ε (ρ = ε²/2; beyond this range ρ leaves float64's)")
	fs.Lookup("eps").DefValue = ""
	newFloatFlag(fs, &delta, "delta", spec.DefaultConversionDelta, theory.Interval{Lo: spec.MinDelta, Hi: 1, HiOpen: true}, "δ of the (ε', δ)-DP conversions and of the accountant")
	tf := newFloatFlag(fs, &target, "target-eps", math.NaN(), theory.Interval{Lo: 0, Hi: math.Inf(1), HiOpen: true}, "target ε' of (ε', δ)-DP: print the zCDP ε that meets it (with --accountant: the noise multiplier)")
	fs.Lookup("target-eps").DefValue = ""
	fs.StringVar(&acct, "accountant", "", "account DP-SGD's Poisson-subsampled Gaussian mechanism with this accountant: rdp or pld")
	fs.StringVar(&adjName, "adjacency", "replace-one", "--accountant: the neighbouring relation, replace-one (the paper's: one record replaced, which moves a sampled step's sum by up to 2C) or add-remove (Opacus's and TF Privacy's: one record added or removed, C)")
	sf := newFloatFlag(fs, &sigma, "noise-multiplier", math.NaN(), theory.Interval{Lo: 0, Hi: 1e6, LoOpen: true}, "--accountant: noise multiplier σ (noise standard deviation over the sensitivity)")
	fs.Lookup("noise-multiplier").DefValue = ""
	qf := newFloatFlag(fs, &q, "sampling-rate", math.NaN(), theory.Interval{Lo: 0, Hi: 1, LoOpen: true}, "--accountant: Poisson sampling rate q")
	fs.Lookup("sampling-rate").DefValue = ""
	tsf := newIntFlag(fs, &steps, "steps", 0, 1, maxAccountedSteps, "--accountant: number of steps T")
	fs.Lookup("steps").DefValue = ""
	fs.BoolVar(&asJSON, "json", false, "print JSON, its inputs first (its fields below; with --accountant, noise_multiplier is the given one or the one calibrated to target_eps)")

	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		if fs.Changed("accountant") {
			k, err := accountant.ParseKind(acct)
			if err != nil {
				return usageErrorf("--accountant: %q is not rdp or pld", acct)
			}
			switch {
			case ef.set:
				return usageErrorf("--eps: not with --accountant, which accounts a noise multiplier (--noise-multiplier) or calibrates one (--target-eps)")
			case !qf.set:
				return usageErrorf("--sampling-rate: required with --accountant, the Poisson rate q in (0, 1]")
			case !tsf.set:
				return usageErrorf("--steps: required with --accountant, the number of steps T in [1, %s]", theory.FormatCount(maxAccountedSteps))
			case sf.set && tf.set:
				return usageErrorf("--noise-multiplier and --target-eps exclude each other: give σ to account, or the target ε' to calibrate σ")
			case !sf.set && !tf.set:
				return usageErrorf("--noise-multiplier: required with --accountant (or give --target-eps to calibrate it)")
			case tf.set && target == 0:
				return usageErrorf("--target-eps: ε' = 0 cannot be met by any finite noise; want ε' in (0, ∞)")
			}
			if !tf.set {
				target = math.NaN()
			}
			adj, err := accountant.ParseAdjacency(adjName)
			if err != nil {
				return usageErrorf("--adjacency: %s is not replace-one or add-remove", theory.Quote(adjName))
			}
			ctx, stop := interruptContext()
			defer stop()
			a, err := report.NewAccounted(ctx, k, accountant.Mechanism{Sigma: sigma, Q: q, Steps: steps, Adjacency: adj}, delta, target)
			if ctx.Err() != nil {
				return errInterrupted(ctx, "dpso privacy")
			}
			if errors.Is(err, accountant.ErrGridTooLarge) {
				// The PLD grid's caps bound one computation's memory and
				// time; at these parameters its privacy loss passes them.
				where := fmt.Sprintf("q = %s, T = %s", theory.FormatNumber(q), theory.FormatCount(steps))
				if tf.set {
					return usageErrorf("--target-eps: the PLD accountant cannot calibrate ε' = %s at %s: its privacy loss grid passes its cap of %s points where the noise multiplier would have to be (a small σ or a large T widens it); use --accountant rdp", theory.FormatNumber(target), where, theory.Sig4.Format(accountant.MaxGridPoints))
				}
				return usageErrorf("--accountant pld: at σ = %s, %s the privacy loss grid passes the PLD accountant's cap of %s points (a small σ or a large T widens it); use --accountant rdp", theory.FormatNumber(sigma), where, theory.Sig4.Format(accountant.MaxGridPoints))
			}
			if err != nil {
				return usageErrorf("--accountant %s: %v", k, err)
			}
			if asJSON {
				return report.WriteCitedJSON(e.stdout, a.JSON(), e.citation(spec.Spec{}, false))
			}
			return a.WriteTable(e.stdout)
		}
		for _, name := range []string{"noise-multiplier", "sampling-rate", "steps", "adjacency"} {
			if fs.Changed(name) {
				return usageErrorf("--%s: needs --accountant rdp|pld (it describes DP-SGD's mechanism)", name)
			}
		}
		switch {
		case ef.set && tf.set:
			return usageErrorf("--eps and --target-eps exclude each other: give the zCDP ε in %s to convert, or the target ε' in [0, ∞) to solve for it", epsRange)
		case tf.set:
			return privacyTarget(e, target, delta, asJSON)
		case !ef.set:
			return usageErrorf("--eps: required, the zCDP ε, a number in %s (or give --target-eps to solve for it, or --accountant to account DP-SGD)", epsRange)
		}
		pr, err := theory.Convert(eps, delta)
		if err != nil {
			return usageErrorf("%v", err) // unreachable: the flags validate on Set
		}
		if asJSON {
			return report.WriteCitedJSON(e.stdout, report.Privacy(pr), e.citation(spec.Spec{}, false))
		}
		return report.WritePrivacyTable(e.stdout, pr)
	}
	return cmd
}

// epsRange is the range of privacy's --eps.
var epsRange = theory.Interval{Lo: spec.MinEps, Hi: spec.MaxEps}.String()

func privacyTarget(e *env, target, delta float64, asJSON bool) error {
	t := report.NewPrivacyTarget(target, delta)
	if t.ExactEps > spec.MaxEps {
		// The answer would be an ε no run accepts.
		return usageErrorf("--target-eps: ε' = %s at δ = %s needs zCDP ε = %s, past the ε a run accepts (%s); want ε' at most %s", theory.FormatNumber(target), theory.FormatNumber(delta), theory.Sig6.Format(t.ExactEps), epsRange, theory.Sig6.Format(theory.EpsExact(spec.MaxEps, delta)))
	}
	if asJSON {
		return report.WriteCitedJSON(e.stdout, t.JSON(), e.citation(spec.Spec{}, false))
	}
	return t.WriteTable(e.stdout)
}
