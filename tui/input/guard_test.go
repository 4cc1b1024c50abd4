package input

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	uv "github.com/charmbracelet/ultraviolet"
)

// csiParams is a CSI with n parameters "1;2;…;n" and final byte m (a mouse
// report's shape when n = 3).
func csiParams(n int) string {
	var b strings.Builder
	b.WriteString("\x1b[<")
	for i := range n {
		if i > 0 {
			b.WriteByte(';')
		}
		b.WriteString("1")
	}
	b.WriteString("m")
	return b.String()
}

var t0 = time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)

func TestFilterKeepsParams(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{"plain keys", "abc q\x03", "abc q\x03"},
		{"arrow", "\x1b[A", "\x1b[A"},
		{"mouse report", "\x1b[<0;10;20M", "\x1b[<0;10;20M"},
		{"32 parameters kept", csiParams(32), csiParams(32)},
		{"33 parameters cut to 32", csiParams(33), csiParams(32)},
		{"1000 parameters cut to 32", csiParams(1000), csiParams(32)},
		{"colon separators count", "\x1b[" + strings.Repeat("1:", 40) + "1m", "\x1b[" + strings.Repeat("1:", 31) + "1m"},
		{"8-bit CSI", "\x9b" + strings.Repeat("1;", 40) + "1m", "\x9b" + strings.Repeat("1;", 31) + "1m"},
		{"DCS cut to 16", "\x1bP" + strings.Repeat("1;", 40) + "1q", "\x1bP" + strings.Repeat("1;", 15) + "1q"},
		{"DCS of 16 kept", "\x1bP" + strings.Repeat("1;", 15) + "1q", "\x1bP" + strings.Repeat("1;", 15) + "1q"},
		{"8-bit DCS", "\x90" + strings.Repeat("1;", 40) + "1q", "\x90" + strings.Repeat("1;", 15) + "1q"},
		{"text after a cut sequence", csiParams(40) + "xy", csiParams(32) + "xy"},
		{"two sequences", csiParams(40) + csiParams(40), csiParams(32) + csiParams(32)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var f Filter
			got := string(f.Filter(nil, []byte(tc.in), t0))
			if got != tc.want {
				t.Errorf("Filter(%q) = %q, want %q", tc.in, got, tc.want)
			}
			// The same bytes one at a time: the state carries across chunks.
			var g Filter
			var out []byte
			for i := range len(tc.in) {
				out = g.Filter(out, []byte(tc.in[i:i+1]), t0)
			}
			if string(out) != tc.want {
				t.Errorf("byte by byte: %q, want %q", out, tc.want)
			}
		})
	}
}

func TestFilterEndsUnterminatedPaste(t *testing.T) {
	var f Filter
	out := f.Filter(nil, []byte("\x1b[200~abc"), t0)
	if string(out) != "\x1b[200~abc" {
		t.Fatalf("paste start: %q", out)
	}
	// A key within the timeout is part of the paste (a paste's burst).
	out = f.Filter(nil, []byte("d"), t0.Add(PasteTimeout/2))
	if string(out) != "d" {
		t.Fatalf("paste continued: %q", out)
	}
	// A key after the timeout: the guard ends the paste first.
	out = f.Filter(nil, []byte("q"), t0.Add(PasteTimeout/2+PasteTimeout+time.Millisecond))
	if string(out) != "\x1b[201~q" {
		t.Fatalf("after the timeout: %q, want the end marker then q", out)
	}
	// A terminated paste is not touched.
	var g Filter
	in := "\x1b[200~abc\x1b[201~q"
	if out := g.Filter(nil, []byte(in), t0); string(out) != in {
		t.Errorf("terminated paste: %q", out)
	}
	if out := g.Filter(nil, []byte("x"), t0.Add(time.Hour)); string(out) != "x" {
		t.Errorf("after a terminated paste: %q", out)
	}
}

func TestFilterCapsPaste(t *testing.T) {
	var f Filter
	body := bytes.Repeat([]byte("x"), MaxPaste+100)
	in := append(append([]byte("\x1b[200~"), body...), "\x1b[201~q"...)
	out := f.Filter(nil, in, t0)
	if !bytes.HasSuffix(out, []byte("\x1b[201~q")) || bytes.Count(out, []byte("\x1b[201~")) != 1 {
		t.Fatalf("capped paste ends %q", out[max(0, len(out)-20):])
	}
	if n := len(out) - len("\x1b[200~") - len("\x1b[201~q"); n > MaxPaste {
		t.Errorf("paste passed %d bytes, more than MaxPaste = %d", n, MaxPaste)
	}
}

// decode runs data through a Guard (over a pipe, as the explorer's
// terminal) and the explorer's decoder (ultraviolet's TerminalReader,
// which calls charmbracelet/x/ansi's DecodeSequence) and returns the
// events. A panic of the decoder fails the test (it would kill the
// explorer with the terminal raw).
func decode(t testing.TB, data []byte, now func() time.Time) []uv.Event {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	go func() {
		w.Write(data)
		w.Close()
	}()
	tr := uv.NewTerminalReader(NewGuard(r, now), "xterm-256color")
	events := make(chan uv.Event, 1024)
	var got []uv.Event
	collected := make(chan struct{})
	go func() {
		for e := range events {
			got = append(got, e)
		}
		close(collected)
	}()
	if err := tr.StreamEvents(context.Background(), events); err != nil {
		t.Fatal(err)
	}
	close(events)
	<-collected
	return got
}

// hostileInputs are the seeds of FuzzInput and the cases of
// TestDecoderSurvives: inputs that would crash or deafen an unguarded
// explorer.
var hostileInputs = []string{
	csiParams(33),
	csiParams(34) + "q",
	"\x1b[" + strings.Repeat("1;", 5000) + "1m",
	"\x1b[<" + strings.Repeat(";", 40) + "M",
	"\x9b" + strings.Repeat("9:", 64) + "~",
	"\x1bP" + strings.Repeat("0;", 64) + "q\x1b\\",
	"\x1b[200~" + csiParams(40) + "\x1b[201~",
	"\x1b[200~never ends q\x03",
	"\x1b]0;" + strings.Repeat(";", 100) + "\x07",
	"\x1b[" + strings.Repeat("1;", 40),
}

func TestDecoderSurvives(t *testing.T) {
	for _, in := range hostileInputs {
		t.Run(strings.NewReplacer("\x1b", "ESC").Replace(in[:min(len(in), 24)]), func(t *testing.T) {
			events := decode(t, []byte(in+"q"), func() time.Time { return t0 })
			if len(events) == 0 {
				t.Fatal("no events")
			}
		})
	}
}

// TestLongSequencesTypeNoKeys: a long control sequence reaches the
// explorer as one event, or none, never as keys: the parameters the
// decoder could not hold would otherwise arrive as typed digits and
// semicolons (a DCS past 16 parameters did: "0", ";", … "q" went into
// the form's fields and the next q was typed, not obeyed). The q after
// each is the only key.
func TestLongSequencesTypeNoKeys(t *testing.T) {
	for _, in := range []string{
		csiParams(33),
		csiParams(1000),
		"\x1b[<" + strings.Repeat(";", 40) + "M",
		"\x9b" + strings.Repeat("9:", 64) + "~",
		"\x1bP" + strings.Repeat("0;", 17) + "q\x1b\\",
		"\x1bP" + strings.Repeat("0;", 100) + "q\x1b\\",
		"\x90" + strings.Repeat("0;", 100) + "q\x9c",
	} {
		t.Run(strings.NewReplacer("\x1b", "ESC", "\x90", "DCS", "\x9b", "CSI").Replace(in[:min(len(in), 24)]), func(t *testing.T) {
			var keys []string
			for _, e := range decode(t, []byte(in+"q"), func() time.Time { return t0 }) {
				if k, ok := e.(uv.KeyPressEvent); ok {
					keys = append(keys, k.String())
				}
			}
			if len(keys) != 1 || keys[0] != "q" {
				t.Errorf("keys %q, want the q alone", keys)
			}
		})
	}
}

// TestUnterminatedPasteLetsKeysThrough: an unterminated paste start
// followed, later, by q: the decoder sees the paste end and q as a key.
func TestUnterminatedPasteLetsKeysThrough(t *testing.T) {
	clock := t0
	now := func() time.Time {
		clock = clock.Add(PasteTimeout + time.Millisecond) // every read is later than the timeout
		return clock
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	g := NewGuard(r, now)
	buf := make([]byte, 4096)
	w.Write([]byte("\x1b[200~abc"))
	n, _ := g.Read(buf)
	first := string(buf[:n])
	w.Write([]byte("q"))
	w.Close()
	n, _ = g.Read(buf)
	second := string(buf[:n])
	if first != "\x1b[200~abc" || second != "\x1b[201~q" {
		t.Fatalf("reads %q, %q; want the paste, then its end and q", first, second)
	}
	events := decode(t, []byte(first+second), func() time.Time { return t0 })
	var pasted, quit bool
	for _, e := range events {
		switch e := e.(type) {
		case uv.PasteEvent:
			pasted = e.Content == "abc"
		case uv.KeyPressEvent:
			quit = quit || e.Text == "q"
		}
	}
	if !pasted || !quit {
		t.Errorf("events %v: want the paste \"abc\" and the key q", events)
	}
}

// TestGuardPauseOutsideTheRead: a terminal's reader waits for its bytes
// before it reads (Bubble Tea polls the descriptor), so the pause after
// an unterminated paste passes between two reads that each return at
// once: the guard still ends the paste, and q is a key.
func TestGuardPauseOutsideTheRead(t *testing.T) {
	clock := t0
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	g := NewGuard(r, func() time.Time { return clock })
	buf := make([]byte, 4096)
	w.Write([]byte("\x1b[200~abc"))
	n, _ := g.Read(buf)
	first := string(buf[:n])
	clock = clock.Add(PasteTimeout + time.Millisecond) // the user's pause, while the poller waits
	w.Write([]byte("q"))
	w.Close()
	n, _ = g.Read(buf)
	if second := string(buf[:n]); first != "\x1b[200~abc" || second != "\x1b[201~q" {
		t.Fatalf("reads %q, %q; want the paste, then its end and q", first, second)
	}
}

// FuzzInput: no input makes the explorer's decoder panic once guarded.
// CI runs the seed corpus (testdata/fuzz/FuzzInput and hostileInputs);
// `go test -fuzz FuzzInput ./tui/input` searches further.
func FuzzInput(f *testing.F) {
	for _, in := range hostileInputs {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		decode(t, data, func() time.Time { return t0 })
	})
}
