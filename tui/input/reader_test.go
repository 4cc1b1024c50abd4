package input

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"
)

// chunks is a stream that returns its chunks one per Read (each cut to
// the reader's buffer, the rest kept for the next Read); before a chunk
// whose wait is set it advances the clock by that much, as a sender's
// pause the reader waits through.
type chunks struct {
	c     [][]byte
	wait  map[int]time.Duration // by chunk index
	i     int
	clock *time.Time
}

func (s *chunks) Read(p []byte) (int, error) {
	if len(s.c) == 0 {
		return 0, io.EOF
	}
	if d := s.wait[s.i]; d > 0 && s.clock != nil {
		*s.clock = s.clock.Add(d)
		delete(s.wait, s.i)
	}
	n := copy(p, s.c[0])
	if s.c[0] = s.c[0][n:]; len(s.c[0]) == 0 {
		s.c = s.c[1:]
		s.i++
	}
	return n, nil
}

// TestReaderLimitsTypedBytesNotPastes: with a budget of typed bytes, a
// read of a flood of typed bytes passes at most the burst; the content of
// a bracketed paste is not counted, nor what the filter drops of an
// over-long one.
func TestReaderLimitsTypedBytesNotPastes(t *testing.T) {
	clock := t0
	now := func() time.Time { return clock } // no time passes: no refill
	typed := strings.Repeat("z", 10_000)
	r := NewReader(&chunks{c: [][]byte{[]byte(typed)}}, now)
	r.Limit(1000, 100)
	buf := make([]byte, 4096)
	if n, _ := r.Read(buf); n != 100 {
		t.Fatalf("the first read of a typed flood passed %d bytes, want the burst of 100", n)
	}

	paste := "\x1b[200~" + strings.Repeat("p", 3*MaxPaste) + "\x1b[201~"
	r = NewReader(&chunks{c: [][]byte{[]byte(paste)}}, now)
	r.Limit(1000, 100)
	var got bytes.Buffer
	for range 10_000 {
		n, err := r.Read(buf)
		got.Write(buf[:n])
		if err != nil {
			break
		}
	}
	if want := 6 + MaxPaste + 6; got.Len() != want || !strings.HasSuffix(got.String(), "\x1b[201~") {
		t.Fatalf("a paste of 3 MiB through a budget of 100 typed bytes passed %d bytes, want the capped paste (%d) at full speed", got.Len(), want)
	}
}

// TestReaderSeesNoGapInAContinuousPaste: a reader slower than its sender
// (a second passes between its reads, none while it waits) does not take
// its own delay for a pause in a paste: an over-long paste is capped and
// the rest dropped, then a pause of the sender (the reader waits a
// second for q) ends the dropping and q passes; the paste's start marker
// read on its own does not end the paste either.
func TestReaderSeesNoGapInAContinuousPaste(t *testing.T) {
	clock := t0
	now := func() time.Time { return clock }
	stream := &chunks{c: [][]byte{[]byte("\x1b[200~"), bytes.Repeat([]byte("z"), 2*MaxPaste), []byte("q")},
		wait: map[int]time.Duration{2: time.Second}, clock: &clock}
	r := NewReader(stream, now)
	buf := make([]byte, 4096+2*slack)
	var got bytes.Buffer
	for {
		n, err := r.Read(buf)
		got.Write(buf[:n])
		if err != nil {
			break
		}
		clock = clock.Add(time.Second) // the reader is slow
	}
	out := got.String()
	if strings.Count(out, "z") != MaxPaste {
		t.Fatalf("%d bytes of the paste passed, want MaxPaste = %d: the reader's own delays were taken for pauses in the paste", strings.Count(out, "z"), MaxPaste)
	}
	if !strings.HasSuffix(out, "\x1b[201~q") {
		t.Fatalf("the stream ends %q, want the inserted end and q (after the sender's pause)", out[len(out)-12:])
	}
}
