package main

import (
	"os"
	"path/filepath"
	"testing"
)

// snippet is a small LaTeX source with what the paper's numbering depends
// on: theorem-like environments sharing the theorem counter, an
// assumption with its own, a label a few lines after its \begin, an
// equation inside a theorem (its label is the equation's, the theorem's
// after it), an align with \nonumber rows (a label on an unnumbered row
// goes to the next numbered one), sections and subsections, \appendix's
// lettered sections, an algorithm's caption, comments and a starred
// section.
const snippet = `\newtheorem{theorem}{Theorem}
\newtheorem{lemma}[theorem]{Lemma}
\newtheorem{assumption}
{Assumption}
\begin{document}
\section{Intro}
\label{sec: intro}
% \label{commented: out}
\begin{assumption}
\label{ass:a}
\end{assumption}
\subsection{More}\label{sec: more}
\begin{theorem}[Informal]
Some text
\label{thm: one}
\end{theorem}
\begin{lemma}
\begin{equation}
\label{eq: in lemma}
x = 1
\end{equation}
\label{lem: two}
\end{lemma}
\begin{align}
\label{eq: carried}
a &= b \nonumber \\
c &= d \\
e &= f \notag
\end{align}
\begin{align*}
g &= h \\
\end{align*}
\section*{Acknowledgements}
\begin{algorithm}
\caption{An algorithm}
\label{alg: one}
\end{algorithm}
\appendix
\section{First}
\label{app: first}
\subsection{Inner}
\label{app: inner}
\begin{theorem}[Precise]
\label{thm: three}
\end{theorem}
\begin{assumption}\label{ass:b}\end{assumption}
\end{document}
`

// TestParse checks the numbers of every label of snippet by hand, as
// LaTeX (article, amsthm, amsmath, algorithm) prints them.
func TestParse(t *testing.T) {
	refs, err := Parse(snippet)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"sec: intro": "Section 1", "ass:a": "Assumption 1", "sec: more": "Section 1.1", "thm: one": "Theorem 1",
		"eq: in lemma": "Eq. 1", "lem: two": "Lemma 2", "eq: carried": "Eq. 2", "alg: one": "Algorithm 1",
		"app: first": "Appendix A", "app: inner": "Appendix A.1", "thm: three": "Theorem 3", "ass:b": "Assumption 2",
	}
	got := map[string]string{}
	for _, r := range refs {
		got[r.Label] = r.Kind + " " + r.Number
	}
	for l, w := range want {
		if got[l] != w {
			t.Errorf("%s: %q, want %q", l, got[l], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("labels %v, want %v", got, want)
	}
}

// TestParseRefuses: a label defined twice, an unclosed environment and a
// counter shared with one not declared are errors, not a wrong table.
func TestParseRefuses(t *testing.T) {
	for name, src := range map[string]string{
		"twice":    `\section{A}\label{x}\section{B}\label{x}`,
		"unclosed": `\begin{theorem}`,
		"shared":   `\newtheorem{lemma}[nothing]{Lemma}`,
		"stray":    `\end{theorem}`,
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := Parse(src); err == nil {
				t.Errorf("%s: no error", name)
			}
		})
	}
}

// TestTableIsGenerated: where the paper's source is present (beside the
// repository, or at $DPSO_PAPER), regenerating theory/papernumbers.go
// gives the committed file byte for byte. The repository does not hold
// the paper, so a checkout without it skips this (theory's tests check
// the committed table on its own).
func TestTableIsGenerated(t *testing.T) {
	root := filepath.Join("..", "..")
	dir := os.Getenv("DPSO_PAPER")
	if dir == "" {
		for _, d := range []string{filepath.Join(root, "..", "shared", "paper"), filepath.Join(root, "..", "..", "shared", "paper")} {
			if _, err := os.Stat(d); err == nil {
				dir = d
				break
			}
		}
	}
	if dir == "" {
		t.Skip("the paper's source is not beside the repository")
	}
	name, src, err := ReadPaper(dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Generate(filepath.Base(name), src)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(root, "theory", "papernumbers.go"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Error("theory/papernumbers.go is not what go run ./scripts/papernumbers generates from the paper: rerun it")
	}
}
