package scenarios

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCSVDelimiterOutsideQuotes: the separator is detected outside
// quoted cells, so a quoted header cell holding a semicolon does not make
// the file semicolon-separated.
func TestCSVDelimiterOutsideQuotes(t *testing.T) {
	for _, c := range []struct {
		name, in, delim string
		cols            int
	}{
		{"semicolon inside quotes", "\"a;b\",c,y\n1,2,3\n4,5,6\n", "comma", 3},
		{"comma inside quotes", "\"a,b\";c;y\n1;2;3\n4;5;6\n", "semicolon", 3},
		{"escaped quote", "\"say \"\"hi\"\";x\",y\n1,2\n3,4\n", "comma", 2},
		{"tab outside", "a\tb\n1\t2\n3\t4\n", "tab", 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb, err := readCSV(context.Background(), "x.csv", strings.NewReader(c.in))
			if err != nil {
				t.Fatal(err)
			}
			if tb.Delimiter != c.delim || tb.Cols != c.cols || tb.Rows != 2 {
				t.Errorf("delimiter %s, %d columns, %d rows; want %s, %d, 2", tb.Delimiter, tb.Cols, tb.Rows, c.delim, c.cols)
			}
		})
	}
}

// TestCSVRefusals: inputs that are not one-record-per-line text are
// refused with what they are, not with a misleading column count.
func TestCSVRefusals(t *testing.T) {
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write([]byte("a,y\n1,2\n3,4\n"))
	w.Close()
	for _, c := range []struct {
		name, in, want string
	}{
		{"quoted header cell across lines", "\"feature\none\",y\n1,2\n3,4\n", "may not span lines"},
		{"quoted data cell across lines", "a,y\n\"1\n\",2\n3,4\n", "not closed on its line"},
		{"gzip", gz.String(), "gzip-compressed"},
		{"zip", "PK\x03\x04rest", "zip-compressed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := readCSV(context.Background(), "x.csv", strings.NewReader(c.in))
			var de *DataError
			if !errors.As(err, &de) || !strings.Contains(de.Msg, c.want) {
				t.Errorf("err = %v; want a DataError saying %q", err, c.want)
			}
		})
	}
}

// TestCSVChangedWhileRead: a file truncated or appended to after dpso
// opened it is refused (a cut file was read as 1,400,572 of 3,000,000
// rows, the last value cut): LoadCSV compares its size when opened, the
// bytes read and its size and modification time after.
func TestCSVChangedWhileRead(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "rows.csv")
	body := "a,y\n" + strings.Repeat("0.33452,1\n", 2000)
	for _, c := range []struct {
		name   string
		change func()
	}{
		{"truncated mid-value", func() { os.Truncate(path, 7001) }},
		{"appended to", func() {
			f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
			f.WriteString("1,2\n")
			f.Close()
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			os.WriteFile(path, []byte(body), 0o644)
			if tb, err := LoadCSV(context.Background(), path); err != nil || tb.Rows != 2000 {
				t.Fatalf("the file as it is: %v", err)
			}
			openedHook = func(string) { c.change() }
			defer func() { openedHook = nil }()
			_, err := LoadCSV(context.Background(), path)
			var de *DataError
			if !errors.As(err, &de) || !strings.Contains(de.Msg, "changed while it was read") {
				t.Errorf("err = %v; want the change refused", err)
			}
		})
	}
}

// TestCSVTooLargeRefusedUpFront: a file whose first 4 MiB of rows
// ("1,2", 4 bytes a row) project past 1.25 times MaxFloats numbers from
// its size is refused once they are read, with the projection, before
// its storage is sized; one that projects to 1.2 times the cap is not
// refused up front (it fails later, here on the sparse file's NUL bytes).
// The files are sparse: their size past the rows takes no disk.
func TestCSVTooLargeRefusedUpFront(t *testing.T) {
	rows := strings.Repeat("1,2\n", (4<<20)/4+1024)
	for _, c := range []struct {
		name    string
		size    int64
		upFront bool
	}{
		{"projects to 5 times the cap", 5 * 4 * MaxFloats / 2, true},
		{"projects to 1.2 times the cap", 12 * 4 * MaxFloats / 2 / 10, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "big.csv")
			if err := os.WriteFile(path, []byte(rows), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(path, c.size); err != nil {
				t.Skip("no sparse file here:", err)
			}
			_, err := LoadCSV(context.Background(), path)
			var de *DataError
			if !errors.As(err, &de) {
				t.Fatalf("LoadCSV: %v, want a DataError", err)
			}
			if got := strings.Contains(de.Msg, "give a sample of its rows"); got != c.upFront {
				t.Errorf("refused up front: %v, want %v (%v)", got, c.upFront, err)
			}
			if c.upFront && (de.Line != 0 || !strings.Contains(de.Msg, "about 10⁹ numbers")) {
				t.Errorf("message %q: want the projection, 10⁹ numbers (2·10⁹ bytes of 4-byte rows of 2), and no line", de.Msg)
			}
		})
	}
}
