package theory

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestPaperNumbersConsistent checks the generated table on its own (the
// paper's source is not in the repository; scripts/papernumbers' tests
// check the parser, and TestPaperNumbersRegenerate the table where the
// source is present): every reference has a kind the PDF prints and a
// number of that kind's form; the theorem-like objects, which share one
// counter in the source (lemmas, definitions, propositions and remarks
// count with the theorems), never share a number; each other counter's
// numbers are distinct too; and numbers grow with the line of the label
// within a counter.
func TestPaperNumbersConsistent(t *testing.T) {
	counterOf := map[string]string{"Theorem": "theorem", "Lemma": "theorem", "Definition": "theorem", "Proposition": "theorem",
		"Remark": "theorem", "Assumption": "assumption", "Example": "example", "Section": "section", "Appendix": "appendix",
		"Eq.": "equation", "Algorithm": "algorithm", "Fig.": "figure"}
	form := map[string]*regexp.Regexp{
		"theorem": regexp.MustCompile(`^[1-9][0-9]*$`), "assumption": regexp.MustCompile(`^[1-9][0-9]*$`), "example": regexp.MustCompile(`^[1-9][0-9]*$`),
		"equation": regexp.MustCompile(`^[1-9][0-9]*$`), "algorithm": regexp.MustCompile(`^[1-9][0-9]*$`), "figure": regexp.MustCompile(`^[1-9][0-9]*$`),
		"section": regexp.MustCompile(`^[1-9][0-9]*(\.[1-9][0-9]*)*$`), "appendix": regexp.MustCompile(`^[A-Z](\.[1-9][0-9]*)*$`),
	}
	type seen struct {
		label string
		line  int
	}
	byNumber := map[string]map[string]seen{}
	for label, r := range paperNumbers {
		c, ok := counterOf[r.Kind]
		if !ok {
			t.Errorf("%q: kind %q is not one the PDF prints", label, r.Kind)
			continue
		}
		if !form[c].MatchString(r.Number) {
			t.Errorf("%q: %s number %q is not of its counter's form", label, r.Kind, r.Number)
		}
		if byNumber[c] == nil {
			byNumber[c] = map[string]seen{}
		}
		if o, dup := byNumber[c][r.Number]; dup && c != "section" && c != "appendix" {
			t.Errorf("%q and %q share %s number %s", label, o.label, c, r.Number)
		}
		byNumber[c][r.Number] = seen{label, r.Line}
	}
	for c, nums := range byNumber {
		if c == "section" || c == "appendix" {
			continue
		}
		for n, a := range nums {
			for m, b := range nums {
				x, _ := strconv.Atoi(n)
				y, _ := strconv.Atoi(m)
				if x < y && a.line > b.line {
					t.Errorf("%s %d (%q, line %d) comes after %d (%q, line %d) in the source", c, x, a.label, a.line, y, b.label, b.line)
				}
			}
		}
	}
	// The three assumptions are the paper's Assumptions 1–3 in order.
	for label, want := range map[string]string{"ass:tilde": "Assumption 1", "ass:boundednoncentral": "Assumption 2", "ass:coordinatewise": "Assumption 3"} {
		t.Run(label, func(t *testing.T) {
			if r, ok := Paper(label); !ok || r.String() != want {
				t.Errorf("Paper(%q) = %v, %v; want %s", label, r, ok, want)
			}
		})
	}
}

// TestCite: a label, bare or in brackets, with or without the word of its
// kind before it, becomes what the PDF prints; a text without labels, or a
// label glued inside a word, is left alone.
func TestCite(t *testing.T) {
	thm := paperNumbers["thm: convex ACSA one pass"].Number
	lem := paperNumbers["lem: comparing assumptions"].Number
	app := paperNumbers["app: lower bounds"].Number
	eq := paperNumbers["eq:iuj"].Number
	for in, want := range map[string]string{
		"Theorem [thm: convex ACSA one pass] (complete version in [app: convex accel])": "Theorem " + thm + " (complete version in Appendix " + paperNumbers["app: convex accel"].Number + ")",
		"thm: convex ACSA one pass":                     "Theorem " + thm,
		"(precise statement, app: lower bounds; d = 1)": "(precise statement, Appendix " + app + "; d = 1)",
		"Lemma\nlem: comparing assumptions (proof)":     "Lemma\n" + lem + " (proof)",
		"ass:tilde: r̃_4 ≤ L_f":                         "Assumption 1: r̃_4 ≤ L_f",
		"eq. [eq:iuj]":                                  "Eq. (" + eq + ")",
		"Lemma [cor: reg ERM excess risk]":              "Proposition " + paperNumbers["cor: reg ERM excess risk"].Number,
		"no label here: thm: none":                      "no label here: thm: none",
		"xass:tilde and ass:tildes":                     "xass:tilde and ass:tildes",
		"[lem:4.1":                                      "[Lemma " + paperNumbers["lem:4.1"].Number,
	} {
		t.Run(in, func(t *testing.T) {
			if got := Cite(in); got != want {
				t.Errorf("Cite(%q) = %q, want %q", in, got, want)
			}
		})
	}
	if got := CiteFirst("Lowy & Razaviyayn, Proposition [prop: ACSA generic] (first claim), with B from Lemma [lem: bias and variance of bd14]"); got != "Proposition "+paperNumbers["prop: ACSA generic"].Number {
		t.Errorf("CiteFirst = %q", got)
	}
	if got := CiteFirst("Kamath, Liu & Zhang 2022, Theorem 5.4"); got != "" {
		t.Errorf("CiteFirst of a text without labels = %q", got)
	}
}

// labelHead is how each of the paper's labels begins in its source: a
// word and a colon (thm:, lem:, app:, ass:, …).
var labelHead = regexp.MustCompile(`\b(thm|lem|lemma|prop|cor|rem|def|ass|app|sec|subsec|subsub|alg|eq|example):`)

// TestEveryCitedLabelIsThePapers: every label that dpso's code writes in
// a string — a Source, a condition, a note, a help text — is one the
// paper's source defines, so that Cite turns it into the PDF's number.
// It reads every Go file of the module outside tests and generated code
// and checks each string literal at every place a label begins.
func TestEveryCitedLabelIsThePapers(t *testing.T) {
	labels := paperLabels()
	fset := token.NewFileSet()
	root := ".."
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || strings.HasSuffix(path, "papernumbers.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			for _, loc := range labelHead.FindAllStringIndex(s, -1) {
				rest := s[loc[0]:]
				known := false
				for _, l := range labels {
					if strings.HasPrefix(rest, l) {
						known = true
						break
					}
				}
				checked++
				if !known {
					end := min(len(rest), 40)
					t.Errorf("%s: %q cites no label of the paper", fset.Position(lit.Pos()), rest[:end])
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Errorf("only %d labels found in the code: the scan is broken", checked)
	}
}

// paperLabels lists every label of the paper's source, sorted.
func paperLabels() []string {
	out := make([]string, 0, len(paperNumbers))
	for l := range paperNumbers {
		out = append(out, l)
	}
	slices.Sort(out)
	return out
}
