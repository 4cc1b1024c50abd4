package scenarios

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"syscall"

	"dpso/theory"
)

// The reader is written here rather than on encoding/csv, which serves a
// different contract. With encoding/csv:
//
//   - A quoted field may span lines, so a quote left open reads the rest of
//     the file into one record (up to the 1.6 GB a file may hold) before it
//     fails; dpso refuses it at the line where it opens, having read that
//     line only. Bounding a record's memory from outside would take a
//     scanner that tracks the quotes and fields — this parser.
//   - A record is read whole, however long: there is no limit like
//     MaxLineBytes, and a line of one 10 GB cell is read into memory.
//   - Columns are separated by one rune; "runs of spaces" (the whitespace
//     mode detected below) cannot be expressed: two spaces make an empty
//     field.
//   - An error's column is a byte offset, not the cell's number, and its
//     quote errors do not say which rule failed (an unclosed quote and text
//     after a closing quote are both ErrQuote): the messages naming the
//     line and column the user sees would have to be recomputed by
//     re-scanning the line.
//   - Spaces after a closing quote ("1" ,2) are an error, and with
//     LazyQuotes the quote is read as part of the cell, which then runs to
//     the end of the file; LazyQuotes also accepts a bare quote inside an
//     unquoted cell (1"2). dpso accepts the first and refuses the second,
//     which no setting gives. (Checked with Go 1.26's encoding/csv.)
//   - It allocates a string per record (ReuseRecord keeps the slice only):
//     on 20 000 rows of 20 cells, 20 054 allocations against this reader's
//     148, for about the same instructions (callgrind: 1.04·10⁹ against
//     1.02·10⁹ for the same rows, strconv.ParseFloat included), and the
//     10⁶ × 20 target of docs/performance.md leaves no room for a slower
//     reader.
//
// What it would give — quoted cells with "" — is splitCells' quoted
// branch, about 30 lines.

// DataError is a problem with a user data file: Line and Col (1-based; Col
// counts fields, 0 when the whole line or file is at fault) locate it.
type DataError struct {
	Path string
	Line int
	Col  int
	Msg  string
}

func (e *DataError) Error() string { return "data: " + e.Detail() }

// Detail is the error without the "data: " prefix: the file (quoted by
// theory.Quote), the line and column where known, and the message (the CLI
// prints it after --data).
func (e *DataError) Detail() string {
	path := theory.Quote(e.Path)
	switch {
	case e.Line == 0:
		return fmt.Sprintf("%s: %s", path, e.Msg)
	case e.Col == 0:
		return fmt.Sprintf("%s line %d: %s", path, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s line %d, column %d: %s", path, e.Line, e.Col, e.Msg)
}

// MaxLineBytes bounds one line (one record) of a data file: 1 MiB holds
// MaxD = 10⁴ features of up to ~100 characters each; a longer line is
// refused before it is read into memory.
const MaxLineBytes = 1 << 20

// Table is a parsed data file: Rows × Cols finite numbers, the last column
// being the label.
type Table struct {
	Header []string // nil when the file has none
	Rows   int
	Cols   int
	Data   []float64 // row-major
	// Lines[i] is the file line of row i (for messages about labels);
	// int32, half an int's memory for the 10⁸ rows a file may have.
	Lines []int32
	// Delimiter names the column separator detected: "comma", "tab",
	// "semicolon" or "whitespace".
	Delimiter string
	// BOM: a UTF-8 byte-order mark began the file and was removed.
	BOM bool
}

// Notes describe how the file was read, for a run's notes.
func (t *Table) Notes() []string {
	n := "columns separated by " + map[string]string{"comma": "commas", "tab": "tabs", "semicolon": "semicolons", "whitespace": "spaces"}[t.Delimiter] + " (detected from the first line)"
	if t.BOM {
		n += "; a UTF-8 byte-order mark at the start was removed"
	}
	return []string{n}
}

// delimiters in the order detection tries them.
var delimiters = []struct {
	b    byte
	name string
}{{'\t', "tab"}, {';', "semicolon"}, {',', "comma"}}

// parseCSV reads a data file's text from r, an input of size bytes (-1:
// unknown), as LoadCSV documents, and returns also the bytes it read. It allocates no memory per cell or per line: the
// cells are parsed from the line's own bytes. With the size known, the
// table's slices are sized by a sizer from the rows read so far, so that a
// file is read without the copies and the slack of growing slices (a CSV
// at the cap peaked at 4.5 times its numbers' size).
func parseCSV(ctx context.Context, path string, r io.Reader, size int64) (*Table, int64, error) {
	cr := &ctxReader{ctx: ctx, r: r}
	t, err := parseTable(ctx, path, cr, size)
	return t, cr.read, err
}

func parseTable(ctx context.Context, path string, cr *ctxReader, size int64) (*Table, error) {
	br := bufio.NewReaderSize(cr, csvBufferBytes)
	if head, _ := br.Peek(6); compressed(head) != "" {
		return nil, &DataError{Path: path, Msg: "the file is " + compressed(head) + "-compressed; decompress it first (dpso reads plain-text CSV)"}
	}
	t := &Table{}
	var line []byte
	var cells [][]byte
	firstLine := 0
	var delim byte // 0: whitespace
	sz := sizer{size: size}
	for lineNo := 1; ; lineNo++ {
		if lineNo%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		var err error
		line, err = readLine(br, line[:0])
		if errors.Is(err, errLineTooLong) {
			return nil, &DataError{Path: path, Line: lineNo, Msg: fmt.Sprintf("the line is longer than %d bytes (1 MiB), the most one record may take (d ≤ %d features); is this a data file with one sample per line?", MaxLineBytes, MaxD)}
		}
		if err != nil && !errors.Is(err, io.EOF) {
			if cerr := ctx.Err(); cerr != nil && errors.Is(err, cerr) {
				return nil, cerr // ctxReader's check: cancelled, not a read error
			}
			return nil, &DataError{Path: path, Line: lineNo, Msg: "cannot read: " + unwrapOS(err).Error()}
		}
		if len(line) == 0 && errors.Is(err, io.EOF) {
			break
		}
		sz.consumed += int64(len(line)) + 1
		if lineNo == 1 {
			if rest, ok := bytes.CutPrefix(line, []byte("\xef\xbb\xbf")); ok {
				line, t.BOM = rest, true
			} else if bytes.HasPrefix(line, []byte("\xff\xfe")) || bytes.HasPrefix(line, []byte("\xfe\xff")) {
				return nil, &DataError{Path: path, Line: 1, Msg: "the file is UTF-16 (it starts with a UTF-16 byte-order mark); save it as UTF-8 or plain ASCII"}
			}
		}
		if lineNo > math.MaxInt32 {
			return nil, &DataError{Path: path, Line: lineNo, Msg: "the file has more than 2³¹ − 1 lines"}
		}
		if len(bytes.TrimSpace(line)) == 0 {
			if errors.Is(err, io.EOF) {
				break
			}
			continue
		}
		if t.Delimiter == "" {
			var derr error
			delim, t.Delimiter, derr = detectDelimiter(string(line))
			if derr != nil {
				return nil, &DataError{Path: path, Line: lineNo, Msg: derr.Error()}
			}
		}
		var col int
		cells, col, err = splitCells(cells[:0], line, delim)
		if err != nil {
			return nil, &DataError{Path: path, Line: lineNo, Col: col, Msg: err.Error()}
		}
		if t.Cols == 0 && t.Header == nil {
			if h, err := header(path, lineNo, cells); err != nil || h != nil {
				if err != nil {
					return nil, err
				}
				t.Header, t.Cols, firstLine = h, len(h), lineNo
				continue
			}
		}
		if t.Cols == 0 {
			if len(cells) < 2 {
				return nil, &DataError{Path: path, Line: lineNo, Msg: "1 column; want features and a label (at least 2 columns, the label last)" + delimHint(t.Delimiter)}
			}
			t.Cols, firstLine = len(cells), lineNo
		}
		if len(cells) != t.Cols {
			return nil, &DataError{Path: path, Line: lineNo, Msg: fmt.Sprintf("%d columns, but line %d has %d", len(cells), firstLine, t.Cols)}
		}
		if t.Cols-1 > MaxD {
			return nil, &DataError{Path: path, Line: lineNo, Msg: fmt.Sprintf("%s feature columns exceed the maximum dimension %s", theory.FormatCount(t.Cols-1), theory.FormatCount(MaxD))}
		}
		if int64(t.Rows+1)*int64(t.Cols) > MaxFloats {
			return nil, &DataError{Path: path, Line: lineNo, Msg: fmt.Sprintf("the data exceed %s numbers (1.6 GB)", theory.FormatCount(int64(MaxFloats)))}
		}
		if err := sz.checkUpFront(path, t, len(line)); err != nil {
			return nil, err
		}
		sz.reserve(t, len(line))
		for i, cell := range cells {
			v, err := parseCell(cell)
			if err != nil {
				return nil, &DataError{Path: path, Line: lineNo, Col: i + 1, Msg: err.Error()}
			}
			t.Data = append(t.Data, v)
		}
		t.Lines = append(t.Lines, int32(lineNo))
		t.Rows++
	}
	if t.Rows == 0 {
		if t.Header != nil {
			return nil, &DataError{Path: path, Msg: "the file has a header but no data rows"}
		}
		return nil, &DataError{Path: path, Msg: "the file has no data rows"}
	}
	if t.Rows < 2 {
		return nil, &DataError{Path: path, Msg: "the file has 1 data row; a run needs at least 2"}
	}
	return t, nil
}

// header returns the cells of a header line (none of them a number), nil
// for a data line.
func header(path string, lineNo int, cells [][]byte) ([]string, error) {
	for _, c := range cells {
		if _, err := strconv.ParseFloat(string(c), 64); err == nil || isRangeErr(err) {
			return nil, nil
		}
	}
	if len(cells) < 2 {
		return nil, &DataError{Path: path, Line: lineNo, Msg: "the header has 1 column; want features and a label (at least 2 columns, the label last)"}
	}
	h := make([]string, len(cells))
	for i, c := range cells {
		h[i] = string(c)
	}
	return h, nil
}

// detectDelimiter is the column separator of a file from its first
// non-blank line: the first of tab, semicolon and comma found outside
// double quotes (a quoted cell may hold any of them), else runs of
// spaces. A quote left open at the line's end is refused: a record is one
// line, and a cell across lines is not read as one.
func detectDelimiter(line string) (byte, string, error) {
	inQuote := false
	found := [3]bool{}
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c == '"' {
			inQuote = !inQuote // "" inside quotes toggles twice
			continue
		}
		if inQuote {
			continue
		}
		for j, d := range delimiters {
			if c == d.b {
				found[j] = true
			}
		}
	}
	if inQuote {
		return 0, "", errors.New("a quoted cell is not closed on its line: dpso reads one record per line, and a cell may not span lines")
	}
	for j, d := range delimiters {
		if found[j] {
			return d.b, d.name, nil
		}
	}
	return 0, "whitespace", nil
}

// compressed names the compression whose signature begins a file's first
// line ("" for none): such a file is not text.
func compressed(line []byte) string {
	for _, m := range []struct {
		magic, name string
	}{{"\x1f\x8b", "gzip"}, {"PK\x03\x04", "zip"}, {"BZh", "bzip2"}, {"\xfd7zXZ\x00", "xz"}, {"\x28\xb5\x2f\xfd", "zstd"}} {
		if bytes.HasPrefix(line, []byte(m.magic)) {
			if m.name == "bzip2" && (len(line) < 4 || line[3] < '1' || line[3] > '9') {
				continue // "BZh" alone could begin a header cell
			}
			return m.name
		}
	}
	return ""
}

// delimHint suggests why a line has one column.
func delimHint(delim string) string {
	if delim == "whitespace" {
		return " (no tab, semicolon or comma was found on the first line, and it has no spaces between values either)"
	}
	return ""
}

// parseCell is one cell's finite number, or why it is not one. A valid
// cell allocates nothing (strconv.ParseFloat does not keep its argument,
// so the conversion of a short cell stays on the stack).
func parseCell(cell []byte) (float64, error) {
	v, err := strconv.ParseFloat(string(cell), 64)
	switch {
	case err == nil && !math.IsNaN(v) && !math.IsInf(v, 0):
		return v, nil
	case isRangeErr(err):
		return 0, fmt.Errorf("%s is outside the float64 range", theory.Quote(string(cell)))
	case err != nil:
		return 0, fmt.Errorf("%s is not a number", theory.Quote(string(cell)))
	case math.IsNaN(v):
		return 0, fmt.Errorf("%s: NaN is not allowed (every cell must be a finite number)", theory.Quote(string(cell)))
	}
	return 0, fmt.Errorf("%s: infinity is not allowed (every cell must be a finite number)", theory.Quote(string(cell)))
}

// sizer sizes a Table's storage from the input's size: when the next row
// would not fit, room for the rows the rest of the input holds at the
// data rows' bytes per row so far, plus 10% (and at least a quarter more
// than it holds, so that a low estimate costs few copies; at most
// MaxFloats numbers; before checkUpFront has projected the file, at most
// its first csvEstimateBytes of rows). With the size unknown append grows
// the storage as usual.
type sizer struct {
	size     int64 // the input's size in bytes (≤ 0: unknown)
	consumed int64 // bytes of the lines read so far
	data     int64 // bytes of the data rows among them
	checked  bool  // checkUpFront has projected the file's numbers
}

// csvEstimateBytes is how much of a file's data rows checkUpFront reads
// before it projects the file's size in numbers.
const csvEstimateBytes = 4 << 20

// checkUpFront refuses, once csvEstimateBytes of data rows are read, a
// file whose rows at their length so far would hold more than 1.25 times
// MaxFloats numbers (the margin covers rows that get shorter further on;
// a file between is refused at the row that passes the cap, its storage
// never sized past it): it is refused in a few milliseconds instead of
// after reading 1.6 GB of numbers. n is the length of the row about to
// be added.
func (s *sizer) checkUpFront(path string, t *Table, n int) error {
	if s.checked || s.size <= 0 || s.data+int64(n)+1 < csvEstimateBytes {
		return nil
	}
	s.checked = true
	perRow := float64(s.data+int64(n)+1) / float64(t.Rows+1)
	rows := float64(t.Rows+1) + float64(max(s.size-s.consumed, 0))/perRow
	if nums := rows * float64(t.Cols); nums > 1.25*MaxFloats {
		return &DataError{Path: path, Msg: fmt.Sprintf("its %s bytes, at the %s bytes a row of its first %s rows, hold about %s numbers (%s a row), more than the %s (1.6 GB) a file may hold; give a sample of its rows",
			theory.Sig4.Format(float64(s.size)), theory.Sig4.Format(perRow), theory.Sig4.Format(float64(t.Rows+1)), theory.Sig4.Format(nums), theory.FormatCount(t.Cols), theory.FormatCount(int64(MaxFloats)))}
	}
	return nil
}

// reserve makes room in t for the data row of n bytes about to be added,
// and for the rows expected to follow it when that row would not fit.
func (s *sizer) reserve(t *Table, n int) {
	s.data += int64(n) + 1
	if s.size <= 0 || len(t.Data)+t.Cols <= cap(t.Data) {
		return
	}
	perRow := float64(s.data) / float64(t.Rows+1)
	more := int(float64(max(s.size-s.consumed, 0))/perRow*1.1) + 64
	if !s.checked {
		// Until checkUpFront has projected the file, room for its first
		// csvEstimateBytes of rows only (all of a smaller file).
		more = min(more, int(csvEstimateBytes/perRow*1.1)+64)
	}
	rows := min(max(t.Rows+1+more, t.Rows+t.Rows/4), MaxFloats/t.Cols)
	t.Data = grow(t.Data, rows*t.Cols)
	t.Lines = grow(t.Lines, rows)
}

// grow is s with capacity c (at least), its elements copied. It is not
// slices.Grow, which clears the new capacity in one call that the
// scheduler cannot preempt: for a table of 160 MB that is a second or
// more of page faults on a virtual machine, during which a collection
// that starts waits, spinning, to stop this goroutine (a 10⁶ × 20 file:
// 6.9 s of CPU with slices.Grow, 2.9 s with grow). A new slice's memory,
// fresh from the system, needs no clearing, and any other is cleared in
// preemptible chunks.
func grow[E any](s []E, c int) []E {
	if c <= cap(s) {
		return s
	}
	g := make([]E, len(s), c)
	copy(g, s)
	return g
}

// csvBufferBytes is parseCSV's read buffer; csvCheckBytes is how much it
// reads between two checks of its context (ctxReader).
const (
	csvBufferBytes = 64 << 10
	csvCheckBytes  = 1 << 20
)

// ctxReader reads r and checks ctx before a read once csvCheckBytes have
// been read since its last check (and before the first read), returning
// ctx's error when it is done: cancellation is noticed by bytes consumed,
// whatever the length of the lines.
type ctxReader struct {
	ctx        context.Context
	r          io.Reader
	read, next int64
}

func (c *ctxReader) Read(p []byte) (int, error) {
	if c.read >= c.next {
		if err := c.ctx.Err(); err != nil {
			return 0, err
		}
		c.next = c.read + csvCheckBytes
	}
	n, err := c.r.Read(p)
	c.read += int64(n)
	return n, err
}

var errLineTooLong = errors.New("line too long")

// readLine appends the next line of br to buf, without its "\n" or
// "\r\n"; it stops with errLineTooLong once the line passes MaxLineBytes
// (the rest is never read) and returns io.EOF with the last line when the
// input ends.
func readLine(br *bufio.Reader, buf []byte) ([]byte, error) {
	for {
		frag, err := br.ReadSlice('\n')
		if len(buf)+len(frag) > MaxLineBytes+2 {
			return buf, errLineTooLong
		}
		buf = append(buf, frag...)
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err != nil:
			return bytes.TrimSuffix(buf, []byte("\r")), err
		}
		buf = bytes.TrimSuffix(buf[:len(buf)-1], []byte("\r"))
		if len(buf) > MaxLineBytes {
			return buf, errLineTooLong
		}
		return buf, nil
	}
}

// splitCells splits a line into trimmed cells at delim (0: at runs of
// spaces and tabs), as sub-slices of line (a quoted cell with "" inside is
// unescaped into a copy). A cell may be in double quotes, with "" for a
// quote inside; a quote in an unquoted cell, text after a closing quote or
// a quote left open are errors at that cell (its 1-based column).
func splitCells(cells [][]byte, line []byte, delim byte) ([][]byte, int, error) {
	if delim == 0 {
		if !isASCII(line) { // a Unicode space separates too
			return append(cells, bytes.Fields(line)...), 0, nil
		}
		for i := 0; ; {
			for i < len(line) && isSpace(line[i]) {
				i++
			}
			if i == len(line) {
				return cells, 0, nil
			}
			j := i
			for j < len(line) && !isSpace(line[j]) {
				j++
			}
			cells = append(cells, line[i:j])
			i = j
		}
	}
	i := 0
	for col := 1; ; col++ {
		// Leading spaces.
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') && line[i] != delim {
			i++
		}
		var cell []byte
		if i < len(line) && line[i] == '"' {
			i++
			start, escaped, closed := i, false, false
			for i < len(line) {
				if line[i] == '"' {
					if i+1 < len(line) && line[i+1] == '"' {
						escaped = true
						i += 2
						continue
					}
					closed = true
					break
				}
				i++
			}
			if !closed {
				return cells, col, errors.New("a quoted cell is not closed on its line (a cell may not span lines)")
			}
			cell = line[start:i]
			if escaped {
				cell = bytes.ReplaceAll(cell, []byte(`""`), []byte(`"`))
			}
			i++ // the closing quote
			for i < len(line) && (line[i] == ' ' || line[i] == '\t') && line[i] != delim {
				i++
			}
			if i < len(line) && line[i] != delim {
				return cells, col, errors.New("text after a quoted cell's closing quote")
			}
			cell = bytes.TrimSpace(cell)
		} else {
			j := bytes.IndexByte(line[i:], delim)
			if j < 0 {
				j = len(line) - i
			}
			cell = bytes.TrimSpace(line[i : i+j])
			if bytes.IndexByte(cell, '"') >= 0 {
				return cells, col, errors.New(`bare " in a cell that is not quoted`)
			}
			i += j
		}
		cells = append(cells, cell)
		if i >= len(line) {
			return cells, 0, nil
		}
		i++ // the delimiter
	}
}

// isSpace reports an ASCII space, as unicode.IsSpace does (bytes.Fields'
// separators in ASCII text).
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

func isRangeErr(err error) bool {
	var ne *strconv.NumError
	return errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange)
}

// LoadCSV reads and parses a data file: numeric data with an optional
// header line (recognised when none of its cells is a number): the
// columns are separated by tabs,
// semicolons, commas (the first of these found on the first non-blank
// line) or, when none is, by runs of spaces; a UTF-8 byte-order mark is
// removed; a cell may be in double quotes ("" inside them is one quote);
// blank lines are ignored; every other line has the same number of cells
// (at least 2: features and a label, the last column), every cell a finite
// number. Errors are *DataError naming the line and column; NaN and ±Inf
// cells are rejected with their position, as are numbers outside the
// float64 range, a line longer than MaxLineBytes (never read whole) and
// more than MaxFloats numbers. It checks ctx every 64 lines and every
// csvCheckBytes (1 MiB) read from r, so that a cancellation stops it after
// at most that much more input (plus one 64 KiB buffer) whether the file
// has many short lines or few long ones, and then returns ctx's error.
// It opens the file without blocking (a FIFO swapped in after
// CheckDataFile would otherwise wait for a writer), refuses anything but
// a regular file, and refuses a file that changed while it was read.
func LoadCSV(ctx context.Context, path string) (*Table, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, &DataError{Path: path, Msg: "cannot open: " + unwrapOS(err).Error()}
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, &DataError{Path: path, Msg: "cannot read: " + unwrapOS(err).Error()}
	}
	if !fi.Mode().IsRegular() {
		return nil, &DataError{Path: path, Msg: "is " + fileKind(fi.Mode()) + ", not a regular file; give a CSV file"}
	}
	if openedHook != nil {
		openedHook(path)
	}
	t, read, err := parseCSV(ctx, path, f, fi.Size())
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	// A file written while it was read (truncated, appended to, replaced
	// in place) gives rows of two versions, or a last value cut short: it
	// is refused, before any error its rows gave. Its size when opened,
	// the bytes read (when it was read to its end) and its size and
	// modification time now must agree.
	now, serr := f.Stat()
	switch {
	case serr != nil:
		return nil, &DataError{Path: path, Msg: "cannot read: " + unwrapOS(serr).Error()}
	case (err == nil && read != fi.Size()) || now.Size() != fi.Size() || !now.ModTime().Equal(fi.ModTime()):
		return nil, &DataError{Path: path, Msg: fmt.Sprintf("the file changed while it was read (%s bytes when opened, %s now); run again once nothing writes to it", theory.FormatCount(fi.Size()), theory.FormatCount(now.Size()))}
	}
	return t, err
}

// openedHook, if set (tests), is called by LoadCSV once it has opened the
// file and taken its size, before it reads it.
var openedHook func(path string)

func unwrapOS(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// tableCache keeps parsed files keyed by path, size and modification time.
var tableCache = lazyCache[*Table]{max: 4, what: "the table of the data file"}

func loadCached(ctx context.Context, path string) (*Table, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, &DataError{Path: path, Msg: "cannot open: " + unwrapOS(err).Error()}
	}
	key := fmt.Sprintf("%s/%d/%d", path, st.Size(), st.ModTime().UnixNano())
	return tableCache.get(ctx, key, func(ctx context.Context) (*Table, error) { return LoadCSV(ctx, path) })
}
