package shard

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/theory"
)

// FormatName and FormatVersion identify a shard file.
const (
	FormatName    = "dpso sweep shard"
	FormatVersion = 3
)

// Index is shard I of N, counted from 1 (what --shard I/N says).
type Index struct{ I, N int }

// String is "I/N".
func (x Index) String() string { return fmt.Sprintf("%d/%d", x.I, x.N) }

// ParseIndex reads "I/N" with 1 ≤ I ≤ N.
func ParseIndex(s string) (Index, error) {
	a, b, ok := strings.Cut(strings.TrimSpace(s), "/")
	i, err1 := strconv.Atoi(strings.TrimSpace(a))
	n, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil {
		return Index{}, fmt.Errorf("%s is not I/N (shard I of N, e.g. 1/3)", theory.Quote(s))
	}
	if n < 1 || i < 1 || i > n {
		return Index{}, fmt.Errorf("%s: want 1 ≤ I ≤ N (shards are counted from 1: 1/3, 2/3, 3/3)", theory.Quote(s))
	}
	return Index{I: i, N: n}, nil
}

// Definition is what makes two shards parts of one sweep: the run as the
// user gave it (the Spec before resolution, so that re-resolving it gives
// the same defaults and the same notes; Workers cleared, since it changes
// no result), the sweep as given, the dpso build and platform (a float
// operation may round differently on another architecture or build), and
// for user data the SHA-256 of the file's bytes (its path may differ from
// machine to machine).
type Definition struct {
	Spec  spec.Spec        `json:"spec"`
	Sweep engine.SweepSpec `json:"sweep"`
	// Build names the dpso binary (main's version line, and the
	// executable's SHA-256 when the build is not a clean VCS checkout).
	Build string `json:"build"`
	// Arch is GOOS/GOARCH.
	Arch string `json:"arch"`
	// DataSHA256 is the hex SHA-256 of user data's file ("" for a
	// scenario).
	DataSHA256 string `json:"data_sha256,omitempty"`
}

// NewDefinition is the definition of sweep sw of the user's Spec s on
// this build (data files are hashed: FileHash).
func NewDefinition(s spec.Spec, sw engine.SweepSpec, build string) (Definition, error) {
	d := Definition{Spec: s.Clone(), Sweep: sw, Build: build, Arch: runtime.GOOS + "/" + runtime.GOARCH}
	d.Spec.Workers = 0
	d.Sweep.Solvers = slices.Clone(sw.Solvers)
	if s.Data != "" {
		h, err := FileHash(s.Data)
		if err != nil {
			return d, err
		}
		d.DataSHA256 = h
	}
	return d, nil
}

// FileHash is the hex SHA-256 of the file's bytes: a data file's in a
// definition, the binary's in the CLI's build id.
func FileHash(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Fingerprint is the hex SHA-256 of the definition's canonical JSON (the
// data file's path left out: its content's hash stands for it), with the
// format's name and version.
func (d Definition) Fingerprint() string {
	c := d
	if c.DataSHA256 != "" {
		c.Spec.Data = ""
	}
	b, err := json.Marshal(struct {
		Format  string     `json:"format"`
		Version int        `json:"version"`
		Def     Definition `json:"definition"`
	}{FormatName, FormatVersion, c})
	if err != nil { // a Spec always marshals; be loud if not
		return "unmarshalable definition: " + err.Error()
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// File is one shard's results: the header that identifies its sweep and
// its place, and the results of its units.
type File struct {
	Format      string `json:"format"`
	Version     int    `json:"version"`
	Fingerprint string `json:"fingerprint"`
	Shard       int    `json:"shard"`
	Shards      int    `json:"shards"`
	Definition
	// Units are the shard's units in (point, trial) order.
	Units []Unit `json:"units"`
	// Name is the file's name (not written).
	Name string `json:"-"`
}

// Unit is one unit's results: X is the grid value (for a reader; checked
// when merged), Results one TrialResult per solver in the sweep's order,
// written exactly (marshalResults).
type Unit struct {
	engine.SweepUnit
	X       float64 `json:"x"`
	Results results `json:"results"`
}

// results are a unit's TrialResults, written exactly (marshalResults).
type results []engine.TrialResult

func (r results) MarshalJSON() ([]byte, error) { return marshalResults(r) }

func (r *results) UnmarshalJSON(b []byte) error {
	xs, err := unmarshalResults(b)
	if err != nil {
		return err
	}
	*r = xs
	return nil
}

// Index is the file's place.
func (f *File) Index() Index { return Index{I: f.Shard, N: f.Shards} }

// Plan deals the sweep's units to n shards, balancing their estimated
// work (engine.PreparedSweep.Cost): the longest-processing-time rule —
// units by decreasing cost (ties in (point, trial) order), each to the
// shard with the least work so far (ties to the lowest shard). The plan
// depends only on the prepared sweep, so every shard computes the same
// one; it changes no result, since every unit is deterministic in (seed,
// point, trial). plan[i] is shard i+1's units in (point, trial) order. It
// refuses more shards than units.
func Plan(p *engine.PreparedSweep, n int) ([][]engine.SweepUnit, error) {
	units := p.Units()
	if n < 1 || n > len(units) {
		return nil, fmt.Errorf("%s shards for %s units (a unit is one trial at one grid point: %d points × %s trials); use 1 to %s shards",
			theory.FormatCount(n), theory.FormatCount(len(units)), len(p.Grid()), theory.FormatCount(len(units)/max(1, len(p.Grid()))), theory.FormatCount(len(units)))
	}
	cost := make([]float64, len(units))
	for i, u := range units {
		cost[i] = p.Cost(u)
	}
	plan := make([][]engine.SweepUnit, n)
	for s, is := range assign(cost, n) {
		for _, i := range is {
			plan[s] = append(plan[s], units[i])
		}
	}
	return plan, nil // units and each bin's indices are in (point, trial) order
}

// assign deals items of the given costs to n bins by the
// longest-processing-time rule: items by decreasing cost (ties by index),
// each to the bin with the least cost so far (ties to the lowest bin).
// Its largest bin is at most (4/3 − 1/(3n)) times the best possible
// (Graham 1969, "Bounds on multiprocessing timing anomalies", Theorem 1).
// bins[b] lists bin b's items by index.
func assign(cost []float64, n int) [][]int {
	order := make([]int, len(cost))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return cost[order[a]] > cost[order[b]] })
	load := make([]float64, n)
	bins := make([][]int, n)
	for _, i := range order {
		best := 0
		for b := 1; b < n; b++ {
			if load[b] < load[best] {
				best = b
			}
		}
		load[best] += cost[i]
		bins[best] = append(bins[best], i)
	}
	for _, b := range bins {
		slices.Sort(b)
	}
	return bins
}

// Run runs shard idx of the prepared sweep p (defined by def) and returns
// its file.
func Run(ctx context.Context, p *engine.PreparedSweep, def Definition, idx Index, set *engine.Settings) (*File, error) {
	plan, err := Plan(p, idx.N)
	if err != nil {
		return nil, err
	}
	mine := plan[idx.I-1]
	if err := p.Run(ctx, mine, set); err != nil {
		return nil, err
	}
	res, err := p.Results(mine)
	if err != nil {
		return nil, err
	}
	grid := p.Grid()
	f := &File{Format: FormatName, Version: FormatVersion, Fingerprint: def.Fingerprint(), Shard: idx.I, Shards: idx.N, Definition: def}
	for _, r := range res {
		for i := range r.Results {
			// A trial's wall time is not a result: the same units give
			// the same bytes, on any machine, however often retried.
			r.Results[i].Elapsed = 0
		}
		f.Units = append(f.Units, Unit{SweepUnit: r.SweepUnit, X: grid[r.Point], Results: r.Results})
	}
	return f, nil
}

// Marshal writes the file: its header, then one unit per line.
func (f *File) Marshal() ([]byte, error) {
	h := *f
	h.Units = nil
	head, err := marshalPlain(h)
	if err != nil {
		return nil, err
	}
	// head ends with "units":null}: open the list instead.
	if !bytes.HasSuffix(head, []byte(`"units":null}`)) {
		return nil, errors.New("shard header: units are not its last field")
	}
	head = bytes.TrimSuffix(head, []byte(`"units":null}`))
	var b bytes.Buffer
	b.Write(head)
	b.WriteString("\"units\":[")
	for i, u := range f.Units {
		line, err := marshalPlain(u)
		if err != nil {
			return nil, fmt.Errorf("unit (point %d, trial %d): %w", u.Point, u.Trial, err)
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n")
		b.Write(line)
	}
	b.WriteString("\n]}\n")
	return b.Bytes(), nil
}

// Read reads a shard file and checks its format and that its fingerprint
// is its definition's (a file whose sweep definition was edited by hand, or
// damaged, is refused). The units' results are not authenticated: a shard
// is trusted as far as the machine that ran it, and a hand-edited result
// merges as written.
//
// Only a regular file of at most MaxFileBytes is read: a FIFO or a device
// (/dev/zero) made dpso sweep merge hang or grow without bound.
func Read(path string) (*File, error) {
	b, err := readRegular(path)
	if err != nil {
		return nil, err
	}
	var f File
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s is not a dpso sweep shard file: %v", q(path), err)
	}
	f.Name = path
	switch {
	case f.Format != FormatName:
		return nil, fmt.Errorf("%s is not a dpso sweep shard file (format %s)", q(path), q(f.Format))
	case f.Version != FormatVersion:
		return nil, fmt.Errorf("%s is a shard file of format version %d; this dpso reads version %d", q(path), f.Version, FormatVersion)
	case f.Shards < 1 || f.Shard < 1 || f.Shard > f.Shards:
		return nil, fmt.Errorf("%s: shard %d/%d is not a shard (want 1 ≤ I ≤ N)", q(path), f.Shard, f.Shards)
	case f.Fingerprint != f.Definition.Fingerprint():
		return nil, fmt.Errorf("%s: its fingerprint does not match its sweep definition (the file was edited or damaged)", q(path))
	}
	return &f, nil
}

// MaxFileBytes bounds a shard file Read reads (1 GiB; a shard of the
// largest sweep the flags allow is far below it).
const MaxFileBytes = 1 << 30

// readRegular reads path if it is a regular file of at most MaxFileBytes.
func readRegular(path string) ([]byte, error) {
	unwrap := func(err error) error {
		var pe *os.PathError
		if errors.As(err, &pe) {
			return pe.Err
		}
		return err
	}
	// Stat before Open: opening a FIFO blocks until a writer comes.
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", q(path), unwrap(err))
	}
	if !fi.Mode().IsRegular() {
		kind := "not a regular file"
		switch m := fi.Mode(); {
		case m.IsDir():
			kind = "a folder"
		case m&os.ModeNamedPipe != 0:
			kind = "a named pipe (FIFO)"
		case m&os.ModeCharDevice != 0:
			kind = "a character device"
		case m&os.ModeDevice != 0:
			kind = "a device"
		case m&os.ModeSocket != 0:
			kind = "a socket"
		}
		return nil, fmt.Errorf("%s is %s, not a regular file; give the shard files dpso sweep --shard I/N --out FILE wrote", q(path), kind)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", q(path), unwrap(err))
	}
	defer f.Close()
	if fi.Size() > MaxFileBytes {
		return nil, fmt.Errorf("%s has %d bytes, more than a shard file may (%d): it is not a dpso sweep shard file", q(path), fi.Size(), MaxFileBytes)
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", q(path), unwrap(err))
	}
	if len(b) > MaxFileBytes {
		return nil, fmt.Errorf("%s grew past %d bytes while being read: it is not a dpso sweep shard file", q(path), MaxFileBytes)
	}
	return b, nil
}

// Check checks that files are the N shards of one sweep, each once:
// the same fingerprint (else it names the file and what differs from
// the first), the same N, no shard twice, none missing.
func Check(files []*File) error {
	if len(files) == 0 {
		return errors.New("no shard files given")
	}
	f0 := files[0]
	for _, f := range files[1:] {
		if f.Fingerprint != f0.Fingerprint {
			return fmt.Errorf("%s is a shard of a different sweep than %s: %s", q(f.Name), q(f0.Name), differences(f0.Definition, f.Definition))
		}
		if f.Shards != f0.Shards {
			return fmt.Errorf("%s is shard %s, but %s is shard %s: the files were cut into different numbers of shards", q(f.Name), f.Index(), q(f0.Name), f0.Index())
		}
	}
	by := map[int]string{}
	for _, f := range files {
		if prev, ok := by[f.Shard]; ok {
			return fmt.Errorf("shard %s is given twice: %s and %s", f.Index(), q(prev), q(f.Name))
		}
		by[f.Shard] = f.Name
	}
	var missing []string
	for i := 1; i <= f0.Shards; i++ {
		if _, ok := by[i]; !ok {
			missing = append(missing, Index{I: i, N: f0.Shards}.String())
		}
	}
	switch {
	case len(missing) == 1:
		return fmt.Errorf("shard %s is missing (%d of %d shards given)", missing[0], len(files), f0.Shards)
	case len(missing) > 1:
		return fmt.Errorf("shards %s are missing (%d of %d shards given)", strings.Join(missing, ", "), len(files), f0.Shards)
	}
	return nil
}

// differences says what differs between two definitions.
func differences(a, b Definition) string {
	var out []string
	if a.Build != b.Build {
		out = append(out, fmt.Sprintf("written by another dpso build (%s; %s)", q(b.Build), q(a.Build)))
	}
	if a.Arch != b.Arch {
		out = append(out, fmt.Sprintf("run on %s, not %s", q(b.Arch), q(a.Arch)))
	}
	if a.DataSHA256 != b.DataSHA256 {
		out = append(out, "its data file's content differs")
	}
	if ks := diffKeys(a.Spec, b.Spec, a.DataSHA256 != ""); len(ks) > 0 {
		out = append(out, "its run differs in "+strings.Join(ks, ", "))
	}
	if ks := diffKeys(a.Sweep, b.Sweep, false); len(ks) > 0 {
		out = append(out, "its sweep differs in "+strings.Join(ks, ", "))
	}
	if len(out) == 0 {
		return "their definitions differ"
	}
	return strings.Join(out, "; ")
}

// diffKeys lists the JSON keys whose values differ between a and b (the
// data path is left out where the content's hash stands for it).
func diffKeys(a, b any, skipData bool) []string {
	ma, mb := map[string]json.RawMessage{}, map[string]json.RawMessage{}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	_ = json.Unmarshal(ja, &ma)
	_ = json.Unmarshal(jb, &mb)
	var keys []string
	for k, v := range ma {
		if w, ok := mb[k]; !ok || !bytes.Equal(v, w) {
			keys = append(keys, k)
		}
	}
	for k := range mb {
		if _, ok := ma[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	keys = slices.DeleteFunc(keys, func(k string) bool { return skipData && k == "data" })
	for i, k := range keys {
		switch k {
		case "sweep":
			keys[i] = "--vary"
		case "params":
			keys[i] = "the scenario's parameters"
		default:
			keys[i] = "--" + k
		}
	}
	return keys
}

// Merge gives the units of every file to the prepared sweep p (prepared
// from the files' definition), checking each unit's grid value.
func Merge(p *engine.PreparedSweep, files []*File) error {
	grid := p.Grid()
	for _, f := range files {
		var rs []engine.UnitResult
		for _, u := range f.Units {
			if u.Point < 0 || u.Point >= len(grid) || u.X != grid[u.Point] {
				return fmt.Errorf("%s: a unit at point %d, x = %s, is not on the sweep's grid", q(f.Name), u.Point, theory.FormatNumber(u.X))
			}
			rs = append(rs, engine.UnitResult{SweepUnit: u.SweepUnit, Results: u.Results})
		}
		if err := p.Merge(rs); err != nil {
			return fmt.Errorf("%s: %w", q(f.Name), err)
		}
	}
	return nil
}

// q quotes a name for a message (theory.Quote: escaped, cut to a line).
func q(s string) string { return theory.Quote(s) }
