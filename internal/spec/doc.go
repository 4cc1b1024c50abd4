// Package spec is the description of a run: [Spec], what a user chooses
// (the CLI's flags and the explorer's form fill it in; it is serializable,
// and [Spec.Args] / [Spec.Command] render it as the `dpso run` line that
// reproduces it), and [Resolved], the same run with every default made
// explicit and every value parsed into its type — the scenario's
// definition (scenarios.ProblemDef), the solver's descriptor, the oracle,
// the privacy budget computed once ([Privacy]: ρ = ε²/2 with the run's δ
// and the exact (ε', δ) it implies, (ε, δ) for the shuffle oracles, or an
// accountant's (ε', δ) target for dp-sgd; [Resolved.PrivacyOf] gives each
// solver of a comparison its own), the randomness mode — which the engine
// (internal/engine) and the reports take. Nothing downstream of
// [Spec.Resolve] resolves or parses the Spec again.
//
// One table, [Fields], lists the Spec's fields with their types, fixed
// ranges and help texts: Resolve checks the ranges from it, Args and the
// Spec's JSON are written from it, and the CLI builds its flags from it
// ([Field.Set] parses a flag's text), so that a flag and the Spec cannot
// disagree. Errors are [*SpecError] (the problem library's
// scenarios.FieldError) whose Field is the flag the user typed;
// [FlagName] maps the few other names errors carry.
package spec
