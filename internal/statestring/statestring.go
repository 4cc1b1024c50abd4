package statestring

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"dpso/internal/spec"
	"dpso/scenarios"
	"dpso/theory"
)

// State is what a state string holds: the form's Spec, as the user set it
// (defaults left unset), the screen shown, by its name (the kind of the
// explorer's screen registry; "": the home screen, chart), the preset
// loaded, by its title ("": none) — its caption, its comparison and what
// the form changed since loading it come back with it — and the run the
// screen drew, by the key that starts it (Run: RunKey, its r, or
// CompareKey, c's comparison with every baseline; "": none), which the
// explorer that opens the state starts again on the same Spec.
type State struct {
	Spec   spec.Spec
	Screen string
	Preset string
	Run    string
}

// The runs a state names (State.Run): the screen's own (r) and the
// comparison with every baseline (c).
const (
	RunKey     = "r"
	CompareKey = "c"
)

// Version is the format this dpso writes; it reads it, format 2 (a token
// without a run) and format 1 (without a preset either).
const Version = 3

// prefix is the token's start before its version digit.
const prefix = "dpso"

// MaxLen bounds a token (and 4× that its payload), so that a hostile
// string cannot make the decoder inflate without end.
const MaxLen = 4096

// dictionary primes DEFLATE with what payloads repeat: the keys and the
// common values. It is part of format 1: changing it changes the version;
// format 2's adds the preset's key, format 3's the run's (dictionaryOf).
const dictionary = "screen=chart&screen=sweep&screen=moments&screen=clip&screen=audit&screen=sweep-eps" +
	"&accountant=pld&adaptive-clip=true&assumption=coordinatewise&assumption=noncentral&batch=" +
	"&checkpoints=&class=nonsmooth-convex&class=nonsmooth-sc&class=smooth-convex&class=smooth-sc&class=ppl" +
	"&clip=&d=&data=&delta=&diam=&epochs=&eps=inf&eps=0.5&estimate-constants=true&iters=&k=inf" +
	"&klz-groups=&klz-tau=&lambda1=&lambda2=&lf=&loss=&mu=&n=100000&n=10000&n=1000000" +
	"&oracle=clip-gaussian&oracle=coordinate&r2=&r2k=&rand=secure&rand=seeded&rk=" +
	"&scenario=example1&scenario=linreg-t&scenario=mean-hard&scenario=affine-hard&scenario=hinge-t&scenario=lasso-t" +
	"&seed=&solver=dp-sgd&solver=klz-gd&solver=lipschitz-dpsgd&solver=sgd&split-budget=true&step=&tail=&trials=&work-budget=&workers="

// dictionaryOf is the dictionary of a format.
func dictionaryOf(version int) []byte {
	switch {
	case version >= 3:
		return []byte(dictionary + "&preset=&run=c&run=r")
	case version >= 2:
		return []byte(dictionary + "&preset=")
	}
	return []byte(dictionary)
}

// Error is a state string refused: Msg is a sentence that says why.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

func errorf(format string, a ...any) error { return &Error{Msg: fmt.Sprintf(format, a...)} }

// String is the state's token (see the package doc).
func (s State) String() string { return encode(Version, s.payload()) }

// encode is the token of a payload under a version's prefix.
func encode(version int, payload string) string {
	var buf bytes.Buffer
	w, _ := flate.NewWriterDict(&buf, flate.BestCompression, dictionaryOf(version))
	w.Write([]byte(payload))
	w.Close()
	buf.Write(binary.BigEndian.AppendUint32(nil, crc32.ChecksumIEEE([]byte(payload))))
	return prefix + strconv.Itoa(version) + "." + base64.RawURLEncoding.EncodeToString(buf.Bytes())
}

// payload is the query the token compresses: the screen and every set
// field of the Spec.
func (s State) payload() string {
	v := url.Values{}
	v.Set("screen", s.screen())
	if s.Preset != "" {
		v.Set("preset", s.Preset)
	}
	if s.Run != "" {
		v.Set("run", s.Run)
	}
	sp := s.Spec
	for _, f := range spec.Fields() {
		if f.Kind == spec.ParamMap {
			for name, x := range sp.Params {
				v.Set(name, spec.FormatArg(x))
			}
			continue
		}
		if t := f.Text(&sp); t != "" {
			v.Set(f.Name, t)
		}
	}
	return v.Encode()
}

// home is the screen a State without one shows: the explorer's first,
// the chart (format 1 writes its name).
const home = "chart"

// screen is s.Screen, the home screen when unset.
func (s State) screen() string {
	if s.Screen == "" {
		return home
	}
	return s.Screen
}

// Parse reads a token whose screen is one of screens (the explorer's
// screen names, its registry's kinds: tui.ScreenNames). It refuses, with
// a sentence, what is not a dpso state string, a version this dpso does
// not read, a token whose checksum fails (cut or changed in copying), a
// screen not among screens, and a field this dpso does not know or whose
// value its flag would refuse; the Spec it returns is checked by Resolve
// where it is used, as a flag's would be. White space inside token is
// dropped: a token copied from a terminal that wrapped it across lines
// reads as the token (a token has none of its own).
func Parse(token string, screens []string) (State, error) {
	t := strings.Join(strings.Fields(token), "")
	if len(t) > MaxLen {
		return State{}, errorf("a state string is at most %d characters; this one has %d", MaxLen, len(t))
	}
	head, body, ok := strings.Cut(t, ".")
	ver, isDpso := strings.CutPrefix(head, prefix)
	n, err := strconv.Atoi(ver)
	if !ok || !isDpso || err != nil || n < 0 {
		return State{}, errorf("%s is not a dpso state string (one starts with %s%d.; the explorer's y shows it)", theory.Quote(t), prefix, Version)
	}
	switch {
	case n > Version:
		return State{}, errorf("this state string is of format %d, written by a newer dpso; this one reads format %d: update dpso, or open the configuration from its reproduce line", n, Version)
	case n < 1:
		return State{}, errorf("this state string is of format %d, which this dpso no longer reads (it reads formats 1 to %d); open the configuration from its reproduce line", n, Version)
	}
	raw, err := base64.RawURLEncoding.DecodeString(body)
	if err != nil || len(raw) < 5 {
		return State{}, damaged()
	}
	data, sum := raw[:len(raw)-4], binary.BigEndian.Uint32(raw[len(raw)-4:])
	r := flate.NewReaderDict(bytes.NewReader(data), dictionaryOf(n))
	payload, err := io.ReadAll(io.LimitReader(r, 4*MaxLen+1))
	switch {
	case err == nil && len(payload) > 4*MaxLen:
		return State{}, errorf("this state string holds more than %d characters, far more than a dpso writes; it was not written by dpso", 4*MaxLen)
	case err != nil || crc32.ChecksumIEEE(payload) != sum:
		return State{}, damaged()
	}
	return fromPayload(string(payload), screens, n)
}

func damaged() error {
	return errorf("this state string is damaged (its checksum does not match what it holds): it was cut or changed when copied; copy it whole again")
}

// fromPayload reads the query of a token of format version.
func fromPayload(p string, screens []string, version int) (State, error) {
	v, err := url.ParseQuery(p)
	if err != nil {
		return State{}, damaged()
	}
	var st State
	for _, key := range slices.Sorted(func(yield func(string) bool) {
		for k := range v {
			if !yield(k) {
				return
			}
		}
	}) {
		vals := v[key]
		if len(vals) != 1 {
			return State{}, errorf("this state string sets %s %d times; a dpso wrote it once", theory.Quote(key), len(vals))
		}
		val := vals[0]
		if key == "preset" && version >= 2 {
			st.Preset = val
			continue
		}
		if key == "run" && version >= 3 {
			if val != RunKey && val != CompareKey {
				return State{}, errorf("this state string's run is %s; a dpso writes %s (the screen's run) or %s (the comparison)", theory.Quote(val), RunKey, CompareKey)
			}
			st.Run = val
			continue
		}
		if key == "screen" {
			if !slices.Contains(screens, val) {
				return State{}, errorf("this state string shows the screen %s, which this dpso does not have (it has %s)", theory.Quote(val), strings.Join(screens, ", "))
			}
			st.Screen = val
			continue
		}
		if f, ok := spec.FieldByName(key); ok && f.Kind != spec.ParamMap {
			if err := f.Set(&st.Spec, val); err != nil {
				return State{}, errorf("this state string's --%s: %v", key, err)
			}
			continue
		}
		if !paramName(key) {
			return State{}, errorf("this state string sets %s, which is no field of this dpso (was it written by another version?)", theory.Quote(key))
		}
		x, err := theory.ParseNumber(val)
		if err != nil {
			return State{}, errorf("this state string's --%s: %s is not a number", key, theory.Quote(val))
		}
		if st.Spec.Params == nil {
			st.Spec.Params = map[string]float64{}
		}
		st.Spec.Params[key] = x
	}
	if st.Screen == "" {
		return State{}, errorf("this state string names no screen; a dpso always writes one, so it was not written by dpso")
	}
	return st, nil
}

// paramName reports whether name is a parameter of some scenario of the
// catalogue (Resolve then checks that the Spec's scenario has it).
func paramName(name string) bool {
	for _, in := range scenarios.List() {
		for _, p := range in.Params {
			if p.Name == name {
				return true
			}
		}
	}
	return false
}
