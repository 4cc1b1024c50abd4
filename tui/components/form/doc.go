// Package form is the explorer's parameter form: it edits a spec.Spec.
// ← → step the focused field through its grid or list (k ∈ {2, 2.5, 3,
// 4, 6, 8, 16, ∞}; ε and n on log grids; d and the tail parameter on
// grids inside the scenario's ranges); on a numeric field a digit starts
// typing a value in place (a bubbles textinput: 300000, 3e5 or 3·10⁵;
// enter sets it, esc cancels), checked as the CLI's flag of the same name
// (spec.FieldByName). Every candidate goes through backend.Resolve, the
// CLI's own check; a value that does not resolve is refused with the
// *spec.SpecError's message, the ✗ on the field it names, so the form's
// Spec is always valid. A field is shown only where it means something
// (dp-sgd's adaptive clipping, while the solver is dp-sgd). Its outcomes
// are a common.SpecMsg for every change and a common.StatusMsg for every
// refusal.
package form
