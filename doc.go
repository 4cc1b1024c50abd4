// Command dpso explores differentially private stochastic optimization with
// heavy-tailed gradients, after Lowy & Razaviyayn, "Private Stochastic
// Optimization with Large Worst-Case Lipschitz Parameter".
//
// With no arguments in a terminal it opens the interactive explorer; the
// subcommands (run, sweep, bounds, privacy, moments, list, audit) are the
// same engine, headless, with JSON and CSV output for scripts.
//
// Exit status: 0 on success, 2 for invalid input (one line on stderr naming
// the flag and its allowed range), 130 when interrupted (Ctrl-C), 1 for any
// other failure.
package main
