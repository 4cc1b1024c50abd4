// Package backend is the explorer's one way into the engine: Runner, the
// interface every computation of the explorer goes through (a
// prescription, and a Call: a comparison, a sweep, a search or an oracle
// audit), Local, the Runner that calls packages internal/engine and
// internal/audit in this process, and Resolve, the explorer's one
// spec.Spec.Resolve. No other package of the explorer calls the engine,
// the audit or Resolve; they hold the engine's types, its reports, only.
//
// A new kind of engine call is a Kind, its arguments in Call and its
// result in Result (and Result.Empty), and its case in Local.Run (and in
// Call.Check, when it has rules of its own to check before it starts): the run lifecycle
// (tui/runs) starts, pauses, cancels and delivers every kind alike, and a
// Runner that wraps Local (dpso serve's pool) admits every call by its
// Spec and workers.
package backend
