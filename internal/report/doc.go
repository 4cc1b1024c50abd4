// Package report is the shape of every output of dpso: the JSON documents,
// CSV files and aligned tables of `dpso run` (and its --dry-run), `sweep`,
// `bounds`, `privacy`, `moments`, `list` and `audit` (package
// internal/audit's results: [Audit], [AuditOneRun], [WriteAuditTable]),
// built from the engine's reports. The CLI writes them, and the explorer's
// export writes the same documents (the run's [Run], a sweep's [Sweep]), so a file exported from
// the explorer is what the CLI prints for that result.
//
// Numbers: JSON holds the exact float64, null where a value is infinite or
// does not exist ([theory.JSONNum]; the docs' convention); tables use
// theory.Sig6 (6 significant digits), theory.Sig4 for bound values and
// theory.Rate for exponents; CSV theory.CSV (exact, "inf", an empty cell
// where no value exists). The explorer writes theory.Human. These are the
// presets of the one formatter, theory.NumberFormat.
package report
