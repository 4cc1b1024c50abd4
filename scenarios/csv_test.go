package scenarios

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestParseCSVDelimitersAndBOM: tab-, semicolon-, comma- and
// space-separated files all read as the same table, with the delimiter
// detected and said, and a UTF-8 byte-order mark removed.
func TestParseCSVDelimitersAndBOM(t *testing.T) {
	want := []float64{1, 2.5, -3, 4, 5, 6}
	cases := []struct{ name, in, delim string }{
		{"comma", "x1,x2,y\n1,2.5,-3\n4,5,6\n", "comma"},
		{"tab", "x1\tx2\ty\n1\t2.5\t-3\n4\t5\t6\n", "tab"},
		{"semicolon", "x1;x2;y\r\n1;2.5;-3\r\n4;5;6\r\n", "semicolon"},
		{"spaces", "x1  x2 y\n 1 2.5   -3\n4\t5 6\n", "whitespace"},
		{"BOM and comma", "\xef\xbb\xbfx1,x2,y\n1,2.5,-3\n4,5,6\n", "comma"},
		{"BOM, no header", "\xef\xbb\xbf1;2.5;-3\n4;5;6", "semicolon"},
		{"quoted header with the delimiter", "\"x1, first\",x2,y\n1,2.5,-3\n4,5,6\n", "comma"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tb, err := readCSV(context.Background(), "f.csv", strings.NewReader(c.in))
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
				return
			}
			if !slices.Equal(tb.Data, want) || tb.Cols != 3 || tb.Delimiter != c.delim {
				t.Errorf("%s: data %v cols %d delimiter %q, want %v 3 %q", c.name, tb.Data, tb.Cols, tb.Delimiter, want, c.delim)
			}
			if bom := strings.HasPrefix(c.in, "\xef\xbb\xbf"); tb.BOM != bom || strings.Contains(strings.Join(tb.Notes(), " "), "byte-order mark") != bom {
				t.Errorf("%s: BOM %v, notes %v", c.name, tb.BOM, tb.Notes())
			}
		})
	}
	if _, err := readCSV(context.Background(), "f.csv", strings.NewReader("\xff\xfex\x00,\x00y\x00")); err == nil || !strings.Contains(err.Error(), "UTF-16") {
		t.Errorf("UTF-16 file: %v", err)
	}
}

// TestParseCSVBoundsALine: a line past MaxLineBytes is refused at its
// line, saying the limit, after reading at most one buffer beyond it (not
// the whole line).
func TestParseCSVBoundsALine(t *testing.T) {
	r := &countingReader{line: "1,2\n", head: "x,y\n1,2\n", long: true}
	_, err := readCSV(context.Background(), "big.csv", r)
	var de *DataError
	if !errors.As(err, &de) || de.Line != 3 || !strings.Contains(de.Msg, "1048576 bytes") {
		t.Fatalf("err = %v, want a *DataError on line 3 saying the limit", err)
	}
	// bufio reads 64 KiB at a time: at most that much past the limit.
	if r.served > MaxLineBytes+3*(64<<10) {
		t.Errorf("read %d bytes of a line without end; the limit is %d", r.served, MaxLineBytes)
	}
}

// countingReader serves head, then either one endless line (long) or
// copies of line, one per Read call; it can cancel a context once it has
// served cancelAt lines and count the lines it serves after that.
type countingReader struct {
	head, line  string
	long        bool
	served      int
	lines       int
	cancelAt    int
	cancel      func()
	afterCancel int
}

func (r *countingReader) Read(p []byte) (int, error) {
	if r.head != "" {
		n := copy(p, r.head)
		r.head = r.head[n:]
		r.served += n
		return n, nil
	}
	if r.long {
		for i := range p {
			p[i] = '7'
		}
		r.served += len(p)
		return len(p), nil
	}
	r.lines++
	if r.cancel != nil {
		if r.lines == r.cancelAt {
			r.cancel()
		} else if r.lines > r.cancelAt {
			r.afterCancel++
		}
	}
	n := copy(p, r.line)
	r.served += n
	return n, nil
}

// TestParseCSVCancellation: parsing an endless file stops soon after its
// context is cancelled — counted in lines served after the cancellation
// (an event, not a clock): ParseCSV checks the context every 64 lines.
func TestParseCSVCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	r := &countingReader{head: "x,y\n", line: "1,2\n", cancelAt: 1000, cancel: cancel}
	_, err := readCSV(ctx, "endless.csv", r)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if r.afterCancel > 64 {
		t.Errorf("%d lines read after the cancellation; at most 64 (one check interval)", r.afterCancel)
	}
}

// repeatReader serves head, then line over and over, filling every Read.
type repeatReader struct {
	head, line string
	off        int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.head != "" {
		n := copy(p, r.head)
		r.head = r.head[n:]
		return n, nil
	}
	n := 0
	for n < len(p) {
		k := copy(p[n:], r.line[r.off:])
		n += k
		r.off = (r.off + k) % len(r.line)
	}
	return n, nil
}

// cancelAfterBytes reads src, cancels a context once it has served
// cancelAt bytes, and counts the bytes it serves after that.
type cancelAfterBytes struct {
	src         io.Reader
	cancelAt    int64
	cancel      func()
	read, after int64
}

func (r *cancelAfterBytes) Read(p []byte) (int, error) {
	n, err := r.src.Read(p)
	before := r.read
	r.read += int64(n)
	switch {
	case before >= r.cancelAt:
		r.after += int64(n)
	case r.read >= r.cancelAt:
		r.cancel()
		r.after += r.read - r.cancelAt // the part of this read past the mark
	}
	return n, err
}

// TestParseCSVCancellationByBytes: ParseCSV notices a cancellation by the
// bytes it reads, not only every 64 lines: after the context is cancelled
// it reads at most csvCheckBytes plus one buffer more — counted in bytes
// served (an event, not a clock) — on an endless file of short rows and
// on one of rows of almost MaxLineBytes (10⁴ features of 100 bytes each),
// where 64 lines would be 64 MiB.
func TestParseCSVCancellationByBytes(t *testing.T) {
	long := strings.Repeat("0."+strings.Repeat("0", 96)+"1,", MaxD) + "1\n"
	if len(long) > MaxLineBytes {
		t.Fatalf("the long row has %d bytes, more than a line may take", len(long))
	}
	for _, c := range []struct {
		name, line string
		cancelAt   int64
	}{
		{"many short rows", "1,2\n", 3<<20 + 123},
		{"few long rows", long, 5<<20 + 4567},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			r := &cancelAfterBytes{src: &repeatReader{line: c.line}, cancelAt: c.cancelAt, cancel: cancel}
			_, err := readCSV(ctx, "endless.csv", r)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("err = %v, want context.Canceled", err)
			}
			if r.read < c.cancelAt {
				t.Fatalf("stopped after %d bytes, before the cancellation at %d", r.read, c.cancelAt)
			}
			if limit := int64(csvCheckBytes + csvBufferBytes); r.after > limit {
				t.Errorf("%d bytes read after the cancellation; at most %d (one check interval and one buffer)", r.after, limit)
			}
		})
	}
}

// TestLoadCSVRefusesSpecialFiles: a FIFO, a character device and a folder
// are refused without reading (a FIFO would block, /dev/zero never ends),
// by CheckDataFile up front and by LoadCSV itself.
func TestLoadCSVRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.csv")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	paths := map[string]string{fifo: "named pipe", dir: "folder"}
	if _, err := os.Stat("/dev/zero"); err == nil {
		paths["/dev/zero"] = "character device"
	}
	for p, kind := range paths {
		t.Run(kind, func(t *testing.T) {
			if err := CheckDataFile(p); err == nil || !strings.Contains(err.Error(), kind) {
				t.Errorf("CheckDataFile(%s) = %v, want a refusal naming a %s", p, err, kind)
			}
			_, err := LoadCSV(context.Background(), p)
			var de *DataError
			if !errors.As(err, &de) || !strings.Contains(de.Msg, kind) {
				t.Errorf("LoadCSV(%s) = %v, want a *DataError naming a %s", p, err, kind)
			}
		})
	}
}

// TestHugeCellIsRefusedAtItsRow: a cell that makes the loss non-finite on
// W is refused naming its line and column, not deep inside the F*
// minimization.
func TestHugeCellIsRefusedAtItsRow(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big.csv")
	os.WriteFile(p, []byte("a,b,y\n1,2,3\n0.5,1e308,1\n2,1,0\n"), 0o644)
	for _, loss := range []Loss{Squared, Absolute} {
		t.Run(fmt.Sprint(loss), func(t *testing.T) {
			def := ProblemDef{Data: p, Loss: loss, Rk: 1, Beta: 1, Class: "smooth-convex"}
			if loss == Absolute {
				def.Class = "nonsmooth-convex"
				def.R2k = 2
			}
			if err := def.ResolveSource(); err != nil {
				t.Fatal(err)
			}
			if err := def.Resolve(nil); err != nil {
				t.Fatal(err)
			}
			_, err := Build(context.Background(), def)
			var de *DataError
			if !errors.As(err, &de) || de.Line != 3 || de.Col != 2 || !strings.Contains(de.Msg, "float64's range") {
				t.Errorf("%s: err = %v, want a *DataError at line 3, column 2", loss, err)
			}
		})
	}
}

// TestMeanHardDomainIsADiameter: mean-hard's domain comes from its proof,
// D = r̃p^{1−1/k}/μ; parameters that make it leave (0, MaxDiam] are
// refused on curvature (--r 1e6 --curvature 1e-300 would give an excess
// risk of NaN), and the D the rule computes is the instance's.
func TestMeanHardDomainIsADiameter(t *testing.T) {
	def := ProblemDef{Scenario: MeanHard, Eps: 1, Class: "smooth-sc", Params: map[string]float64{"r": 1e6, "curvature": 1e-300}}
	def.ResolveSource()
	err := def.Resolve(nil)
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Field != "curvature" || !strings.Contains(fe.Msg, "must lie in [10⁻¹⁰⁰, 10⁶]") {
		t.Errorf("err = %v, want a refusal on curvature", err)
	}
	def = ProblemDef{Scenario: MeanHard, Eps: 0.5, Class: "smooth-sc", Params: map[string]float64{"r": 3, "curvature": 2}}
	def.ResolveSource()
	if err := def.Resolve(nil); err != nil {
		t.Fatal(err)
	}
	in, err := Build(context.Background(), def)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := meanHardDiam(&def), in.Diam(); math.Abs(got-want) > 1e-12*want {
		t.Errorf("meanHardDiam = %g, the instance's D = %g", got, want)
	}
}

// csvRows is a comma-separated file of n rows of 20 numbers.
func csvRows(n int) string {
	var b strings.Builder
	b.WriteString("x1,x2,x3,x4,x5,x6,x7,x8,x9,x10,x11,x12,x13,x14,x15,x16,x17,x18,x19,y\n")
	for i := range n {
		for j := range 20 {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.FormatFloat(float64(i*20+j)*1.25e-3-3, 'f', 5, 64))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// TestParseCSVAllocatesPerFileNotPerCell: parsing allocates nothing per
// cell or per line (cells are parsed from the line's bytes): four times the
// rows cost only the allocations of the table's doubling (two more per
// slice, Data and Lines), not the 60 000 more cells' or 3000 more lines'.
func TestParseCSVAllocatesPerFileNotPerCell(t *testing.T) {
	count := func(s string) float64 {
		return testing.AllocsPerRun(3, func() {
			if _, err := readCSV(context.Background(), "x.csv", strings.NewReader(s)); err != nil {
				t.Fatal(err)
			}
		})
	}
	a, b := count(csvRows(1000)), count(csvRows(4000))
	if b-a > 16 {
		t.Errorf("%g allocations for 1000 rows, %g for 4000: want at most 16 more (the table's growth), not per line or cell", a, b)
	}
}

// TestLoadCSVSizesTheTableFromTheFile: read from a file, the table is
// allocated once, from the file's size and the bytes per row of its first
// rows (here within 15% of the rows read: its rows grow from 160 to 200
// bytes), not grown by doubling: a file five times longer costs no more
// allocations.
func TestLoadCSVSizesTheTableFromTheFile(t *testing.T) {
	load := func(rows int) (*Table, float64) {
		path := filepath.Join(t.TempDir(), "rows.csv")
		if err := os.WriteFile(path, []byte(csvRows(rows)), 0o600); err != nil {
			t.Fatal(err)
		}
		tab, err := LoadCSV(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		if tab.Rows != rows || len(tab.Data) != rows*20 {
			t.Fatalf("%d rows, %d numbers; want %d and %d", tab.Rows, len(tab.Data), rows, rows*20)
		}
		return tab, testing.AllocsPerRun(3, func() {
			if _, err := LoadCSV(context.Background(), path); err != nil {
				t.Fatal(err)
			}
		})
	}
	tab, big := load(5000)
	if c := cap(tab.Data); c > 5000*20*115/100 {
		t.Errorf("capacity %d numbers for 100000: not sized from the file", c)
	}
	if _, small := load(1000); big > small+2 {
		t.Errorf("%g allocations to load 1000 rows, %g for 5000: the table grew instead of being sized once", small, big)
	}
}

// BenchmarkParseCSV parses a 20 000-row, 20-column comma-separated file
// from memory (ns per row: /20 000).
func BenchmarkParseCSV(b *testing.B) {
	s := csvRows(20000)
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := readCSV(context.Background(), "x.csv", strings.NewReader(s)); err != nil {
			b.Fatal(err)
		}
	}
}

// TestGrowKeepsTheElements: grow gives at least the capacity asked for,
// the same elements and length, and the slice itself when it has room.
func TestGrowKeepsTheElements(t *testing.T) {
	for _, c := range []struct {
		name   string
		s      []float64
		capAsk int
	}{
		{"empty", nil, 10},
		{"with room", make([]float64, 3, 8), 5},
		{"full", []float64{1, 2, 3}, 1000},
	} {
		t.Run(c.name, func(t *testing.T) {
			for i := range c.s {
				c.s[i] = float64(i + 1)
			}
			g := grow(c.s, c.capAsk)
			if cap(g) < c.capAsk || len(g) != len(c.s) {
				t.Fatalf("len %d cap %d, want len %d cap ≥ %d", len(g), cap(g), len(c.s), c.capAsk)
			}
			for i := range g {
				if g[i] != float64(i+1) {
					t.Fatalf("element %d = %v, want %v", i, g[i], float64(i+1))
				}
			}
			if roomy := c.capAsk <= cap(c.s); roomy && len(g) > 0 && &g[0] != &c.s[0] {
				t.Error("grew a slice that had room")
			}
		})
	}
}

// readCSV parses a data file's text from r, its size unknown (as LoadCSV
// parses an opened file).
func readCSV(ctx context.Context, path string, r io.Reader) (*Table, error) {
	t, _, err := parseCSV(ctx, path, r, -1)
	return t, err
}
