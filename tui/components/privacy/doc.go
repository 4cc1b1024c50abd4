// Package privacy is the explorer's privacy panel: the budget as ρ-zCDP
// and its (ε', δ) conversions, the ledger's spent budget during a run,
// each solver's (ε', δ) after a comparison, a search's whole cost, and on
// the user's rows what every release spent, composed over the session
// (SessionLedger).
package privacy
