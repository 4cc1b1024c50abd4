// Command papernumbers writes theory/papernumbers.go: the number the
// paper's PDF prints for each \label of its LaTeX source ("Theorem 5",
// "Assumption 1", "Appendix G.2", "Eq. 41"), derived from the counters the
// source declares — \newtheorem with its shared counters (lemmas,
// definitions, propositions and remarks count with the theorems here),
// the sections and, after \appendix, the lettered appendices, the
// equations of equation and align (row by row, \nonumber and \notag
// skipped) and the algorithms' captions — as LaTeX would number them on
// its first pass. Each \label refers to the object of the last counter
// stepped in its scope (an environment restores the one before it ends).
//
//	go run ./scripts/papernumbers [-paper ../shared/paper] [-out theory/papernumbers.go]
//
// The paper is not part of the repository, so the table is committed;
// rerun this command when the paper's source changes. The table records
// the source's SHA-256, and theory's tests check the table where the
// source is present.
package main
