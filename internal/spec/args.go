package spec

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"dpso/scenarios"
	"dpso/solvers"
)

// Args renders s as the arguments of the equivalent `dpso run` command:
// `--scenario NAME` (or `--data FILE`) always, then only the fields that
// change the run, each as `--name value` with its Field name, in the
// table's (the Spec's) order, scenario parameters (Params) by their own
// names in alphabetical order. Numbers are written exactly (FormatArg:
// shortest round-trip form; ∞ as "inf").
//
// A field is left out when dropping it leaves the resolved Spec unchanged
// (it equals the default Resolve would fill in), and --seed is left out
// with secure randomness (no stream reads it), so `dpso run` given Args
// runs exactly s: flags → Spec → Args → flags gives a Spec with the same
// Resolve. An invalid Spec (Resolve fails) is rendered with every non-zero
// field, so that running it reproduces the error.
//
// The elements are argv entries, not shell words: pass them to exec as
// they are; [Spec.Command] quotes them for a shell.
func (s Spec) Args() []string {
	m := s.minimal()
	var out []string
	add := func(name, v string) { out = append(out, flagArg(name, v)...) }
	if m.Data == "" && m.Scenario == "" {
		m.Scenario = scenarios.DefaultScenario
	}
	for _, f := range fields {
		switch {
		case f.Kind == ParamMap:
			for _, k := range slices.Sorted(mapKeys(m.Params)) {
				add(k, FormatArg(m.Params[k]))
			}
		case f.Kind == Bool:
			if *f.bl(&m) {
				out = append(out, "--"+f.Name)
			}
		case f.Name == "scenario" && m.Data != "":
		default:
			if v := f.Text(&m); v != "" {
				add(f.Name, v)
			}
		}
	}
	return out
}

// RunSpec is r.Spec with what the run does not read cleared: the seed
// under secure randomness, where every stream is keyed from crypto/rand.
// Two Resolved with equal RunSpecs run the same way; it is what Args
// keeps.
func (r Resolved) RunSpec() Spec {
	s := r.Spec
	if r.Rand == solvers.Secure {
		s.Seed = 0
	}
	return s
}

// SeedText names a resolved Spec's randomness in a title or a line:
// "seed S" when seeded, "secure randomness" when secure (no stream reads
// the seed there, so none is stated).
func (s Spec) SeedText() string {
	if s.Rand == solvers.Secure.String() {
		return "secure randomness"
	}
	return fmt.Sprintf("seed %d", s.Seed)
}

func mapKeys(m map[string]float64) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// Command is the shell command line that reproduces s: "dpso run" and
// [Spec.Args], each quoted for a POSIX shell where needed. The explorer
// shows it as its reproduce line.
func (s Spec) Command() string {
	args := s.Args()
	words := make([]string, 0, len(args)+2)
	words = append(words, "dpso", "run")
	for _, a := range args {
		words = append(words, ShellQuote(a))
	}
	return strings.Join(words, " ")
}

// ShellQuote returns a as one shell word: unchanged when it consists
// only of characters no shell interprets (letters, digits and @%+=:,./_-);
// in single quotes, with each ' written as '\”, when every character is
// graphic; otherwise (a control character, an escape sequence, an
// invisible format character, an invalid UTF-8 byte) in ANSI-C quotes,
// $'…', each such byte written \xHH (bash, zsh, ksh and POSIX.1-2024 sh
// read it back as the same bytes), so that the word names the same file
// and puts nothing raw on a terminal.
func ShellQuote(a string) string {
	if a == "" {
		return "''"
	}
	safe, graphic := true, true
	for _, r := range a {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("@%+=:,./_-", r)) {
			safe = false
		}
		if r == utf8.RuneError || !strconv.IsGraphic(r) {
			graphic = false
		}
	}
	switch {
	case safe:
		return a
	case graphic:
		return "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(a); {
		r, size := utf8.DecodeRuneInString(a[i:])
		switch {
		case r == '\\' || r == '\'':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == utf8.RuneError || !strconv.IsGraphic(r):
			for _, c := range []byte(a[i : i+size]) {
				fmt.Fprintf(&b, `\x%02x`, c)
			}
		default:
			b.WriteString(a[i : i+size])
		}
		i += size
	}
	b.WriteByte('\'')
	return b.String()
}

// flagArg renders one flag with its value; a value that begins with '-'
// is attached with '=' so that no parser can take it for a flag.
func flagArg(name, v string) []string {
	if strings.HasPrefix(v, "-") || v == "" {
		return []string{"--" + name + "=" + v}
	}
	return []string{"--" + name, v}
}

// minimal returns s with every field cleared whose clearing leaves the
// resolved Spec unchanged (a default given explicitly). Fields are tried
// in the table's order, each against the Spec with the ones before it
// already cleared, scenario parameters one by one in alphabetical order.
// The scenario and the data file are kept: they name the problem. With
// secure randomness the seed is cleared and never compared: no stream
// reads it, and a --seed on a reproduce line would suggest a
// reproducibility the run does not have. When s does not resolve, s is
// returned unchanged.
func (s Spec) minimal() Spec {
	want, err := s.Resolve()
	if err != nil {
		return s
	}
	cur := s.Clone()
	if want.Rand == solvers.Secure {
		cur.Seed = 0
	}
	try := func(clear func(*Spec)) {
		c := cur.Clone()
		clear(&c)
		if r, err := c.Resolve(); err == nil && reflect.DeepEqual(r.RunSpec(), want.RunSpec()) {
			cur = c
		}
	}
	for _, f := range fields {
		switch {
		case f.Name == "scenario" || f.Name == "data":
		case f.Kind == ParamMap:
			for _, k := range slices.Sorted(mapKeys(cur.Params)) {
				try(func(c *Spec) {
					delete(c.Params, k)
					if len(c.Params) == 0 {
						c.Params = nil
					}
				})
			}
		default:
			try(f.clear)
		}
	}
	return cur
}
