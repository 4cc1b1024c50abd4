package main

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Ref is what a \label names in the typeset paper: the kind of object its
// PDF prints before the number (cleveref's name: "Theorem", "Assumption",
// "Appendix", "Eq.") and the number ("3", "G.2", "(41)" for an equation is
// written "41").
type Ref struct {
	Label  string
	Kind   string
	Number string
	Line   int // the line of the \label in the source
}

// counter is a LaTeX counter: its value, the counter it is numbered
// within ("" for none), and how it prints.
type counter struct {
	value  int
	within string
	alpha  bool // printed as a capital letter (sections after \appendix)
}

// target is what a \label refers to: the object of the last
// \refstepcounter in scope.
type target struct {
	kind, number string
}

// env is an open environment and the label target at its \begin (LaTeX
// restores it at the \end: environments are groups).
type env struct {
	name  string
	saved target
	// rowNumbered: in a numbered multi-row display (align, gather,
	// eqnarray), whether the current row still takes a number.
	rowNumbered bool
	rowLabel    []pending
}

// pending is a \label in an align row, resolved at the row's end.
type pending struct {
	label string
	line  int
}

// parser walks a LaTeX source keeping the counters that article,
// amsthm's \newtheorem, amsmath and algorithm step, and records the target
// of every \label.
type parser struct {
	src      string
	pos      int
	line     int
	counters map[string]*counter
	// theorems maps an environment declared by \newtheorem to its counter
	// and printed name.
	theorems map[string][2]string
	appendix bool
	cur      target
	stack    []env
	refs     []Ref
	seen     map[string]int
}

// kindNames are cleveref's names of the counters that are not theorems.
var kindNames = map[string]string{
	"section": "Section", "subsection": "Section", "subsubsection": "Section",
	"equation": "Eq.", "algorithm": "Algorithm", "figure": "Fig.", "table": "Table",
}

// multiRow are the amsmath displays that number each row; singleRow the
// displays with one number; nested the environments whose \\ does not end
// a numbered row.
var (
	multiRow  = map[string]bool{"align": true, "gather": true, "eqnarray": true, "alignat": true, "flalign": true}
	singleRow = map[string]bool{"equation": true, "multline": true}
)

// Parse returns the targets of every \label of a LaTeX source, in the
// order of the source, or an error for a label defined twice or a
// \newtheorem that shares an undeclared counter.
func Parse(src string) ([]Ref, error) {
	p := &parser{src: stripComments(src), line: 1, theorems: map[string][2]string{}, seen: map[string]int{},
		counters: map[string]*counter{
			"section": {}, "subsection": {within: "section"}, "subsubsection": {within: "subsection"},
			"equation": {}, "algorithm": {}, "figure": {}, "table": {},
		}}
	if err := p.run(); err != nil {
		return nil, err
	}
	return p.refs, nil
}

// stripComments removes each % comment up to its line's end (keeping the
// newline, so that line numbers stay right), but not an escaped \%.
func stripComments(s string) string {
	var b strings.Builder
	lines := strings.SplitAfter(s, "\n")
	for _, l := range lines {
		cut := len(l)
		for i := 0; i < len(l); i++ {
			if l[i] == '\\' {
				i++
				continue
			}
			if l[i] == '%' {
				cut = i
				break
			}
		}
		b.WriteString(l[:cut])
		if cut < len(l) && strings.HasSuffix(l, "\n") {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// advance moves the position to i, counting lines.
func (p *parser) advance(i int) {
	p.line += strings.Count(p.src[p.pos:i], "\n")
	p.pos = i
}

// command reads the control word at the position (after its backslash).
func (p *parser) command() string {
	i := p.pos + 1
	if i < len(p.src) && !isLetter(p.src[i]) {
		p.advance(i + 1)
		return p.src[i : i+1]
	}
	j := i
	for j < len(p.src) && isLetter(p.src[j]) {
		j++
	}
	if j < len(p.src) && p.src[j] == '*' {
		j++
	}
	p.advance(j)
	return p.src[i:j]
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '@' }

// skipSpace skips white space.
func (p *parser) skipSpace() {
	i := p.pos
	for i < len(p.src) && strings.IndexByte(" \t\r\n", p.src[i]) >= 0 {
		i++
	}
	p.advance(i)
}

// group reads a balanced {…} or […] group after optional space; ok is
// false (and nothing is read) when the next character is not open.
func (p *parser) group(open, close byte) (string, bool) {
	save, saveLine := p.pos, p.line
	p.skipSpace()
	if p.pos >= len(p.src) || p.src[p.pos] != open {
		p.pos, p.line = save, saveLine
		return "", false
	}
	depth := 0
	for i := p.pos; i < len(p.src); i++ {
		switch p.src[i] {
		case '\\':
			i++
		case open:
			depth++
		case close:
			depth--
			if depth == 0 {
				s := p.src[p.pos+1 : i]
				p.advance(i + 1)
				return s, true
			}
		}
	}
	p.pos, p.line = save, saveLine
	return "", false
}

// step steps counter name and returns its printed number ("3", "G.2").
func (p *parser) step(name string) string {
	c := p.counters[name]
	c.value++
	for n, o := range p.counters {
		if o.within == name {
			p.counters[n].value = 0
		}
	}
	return p.format(name)
}

// format prints counter name with the counters it is numbered within.
func (p *parser) format(name string) string {
	c := p.counters[name]
	s := strconv.Itoa(c.value)
	if c.alpha {
		s = alpha(c.value)
	}
	if c.within != "" {
		return p.format(c.within) + "." + s
	}
	return s
}

// alpha is LaTeX's \Alph: 1 → A, 26 → Z.
func alpha(n int) string {
	if n < 1 || n > 26 {
		return "?" + strconv.Itoa(n)
	}
	return string(rune('A' + n - 1))
}

func (p *parser) top() *env {
	if len(p.stack) == 0 {
		return nil
	}
	return &p.stack[len(p.stack)-1]
}

// label records a \label for the current target (or, in an align row,
// at the row's end).
func (p *parser) label(name string) error {
	if e := p.top(); e != nil && multiRow[strings.TrimSuffix(e.name, "*")] && !strings.HasSuffix(e.name, "*") {
		e.rowLabel = append(e.rowLabel, pending{name, p.line})
		return nil
	}
	return p.record(name, p.cur, p.line)
}

func (p *parser) record(name string, t target, line int) error {
	if prev, ok := p.seen[name]; ok {
		return fmt.Errorf("line %d: label %q defined again (first on line %d)", line, name, prev)
	}
	p.seen[name] = line
	if t.kind == "" {
		return nil // a label with nothing numbered before it in scope
	}
	p.refs = append(p.refs, Ref{Label: name, Kind: t.kind, Number: t.number, Line: line})
	return nil
}

// endRow ends a row of a numbered multi-row display: the row takes the
// next equation number unless \nonumber or \notag said otherwise. As in
// amsmath, a row's labels refer to the first numbered row from it on (a
// label on an unnumbered row is carried to the next); last is the
// display's last row.
func (p *parser) endRow(e *env, last bool) error {
	if e.rowNumbered {
		t := target{kind: kindNames["equation"], number: p.step("equation")}
		p.cur = t
		for _, l := range e.rowLabel {
			if err := p.record(l.label, t, l.line); err != nil {
				return err
			}
		}
		e.rowLabel = nil
	} else if last && len(e.rowLabel) > 0 {
		return fmt.Errorf("line %d: label %q with no numbered row after it", e.rowLabel[0].line, e.rowLabel[0].label)
	}
	e.rowNumbered = true
	return nil
}

func (p *parser) run() error {
	for p.pos < len(p.src) {
		i := strings.IndexByte(p.src[p.pos:], '\\')
		if i < 0 {
			p.advance(len(p.src))
			break
		}
		p.advance(p.pos + i)
		cmd := p.command()
		if err := p.do(cmd); err != nil {
			return err
		}
	}
	if len(p.stack) > 0 {
		return fmt.Errorf("environment %q not closed", p.top().name)
	}
	return nil
}

// do acts on one command.
func (p *parser) do(cmd string) error {
	switch cmd {
	case "newtheorem":
		name, _ := p.group('{', '}')
		shared, hasShared := p.group('[', ']')
		title, _ := p.group('{', '}')
		within, hasWithin := p.group('[', ']')
		ctr := name
		if hasShared {
			if _, ok := p.counters[shared]; !ok {
				return fmt.Errorf("line %d: \\newtheorem{%s} shares the undeclared counter %q", p.line, name, shared)
			}
			ctr = shared
		} else {
			c := &counter{}
			if hasWithin {
				c.within = within
			}
			p.counters[name] = c
		}
		p.theorems[name] = [2]string{ctr, strings.TrimSpace(title)}
	case "appendix":
		p.appendix = true
		p.counters["section"].value = 0
		p.counters["section"].alpha = true
		p.counters["subsection"].value = 0
	case "section", "subsection", "subsubsection":
		p.group('[', ']')
		p.group('{', '}')
		kind := kindNames[cmd]
		if p.appendix {
			kind = "Appendix"
		}
		p.cur = target{kind: kind, number: p.step(cmd)}
	case "section*", "subsection*", "subsubsection*":
		p.group('{', '}')
	case "caption":
		// The caption of a float steps its counter (the innermost float).
		for i := len(p.stack) - 1; i >= 0; i-- {
			if n := strings.TrimSuffix(p.stack[i].name, "*"); n == "algorithm" || n == "figure" || n == "table" {
				p.cur = target{kind: kindNames[n], number: p.step(n)}
				break
			}
		}
	case "label":
		name, ok := p.group('{', '}')
		if !ok {
			return fmt.Errorf("line %d: \\label without its {name}", p.line)
		}
		return p.label(name)
	case "nonumber", "notag":
		if e := p.top(); e != nil {
			e.rowNumbered = false
		}
	case "\\":
		if e := p.top(); e != nil && multiRow[e.name] {
			p.group('[', ']')
			return p.endRow(e, false)
		}
	case "begin":
		name, _ := p.group('{', '}')
		e := env{name: name, saved: p.cur, rowNumbered: true}
		if th, ok := p.theorems[name]; ok {
			p.cur = target{kind: th[1], number: p.step(th[0])}
		}
		if singleRow[name] {
			p.cur = target{kind: kindNames["equation"], number: p.step("equation")}
		}
		p.stack = append(p.stack, e)
	case "end":
		name, _ := p.group('{', '}')
		e := p.top()
		if e == nil || e.name != name {
			return fmt.Errorf("line %d: \\end{%s} closes nothing open", p.line, name)
		}
		if multiRow[name] {
			if err := p.endRow(e, true); err != nil {
				return err
			}
		}
		p.cur = e.saved
		p.stack = p.stack[:len(p.stack)-1]
	}
	return nil
}

// sortRefs orders refs by label, for a stable table.
func sortRefs(refs []Ref) {
	sort.Slice(refs, func(i, j int) bool { return refs[i].Label < refs[j].Label })
}
