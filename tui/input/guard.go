package input

import (
	"io"
	"sync"
	"time"
)

const (
	// MaxParams is the most parameters a CSI sequence keeps: the
	// decoder's array holds 32 (parser.MaxParamsSize).
	MaxParams = 32
	// MaxDCSParams is the most parameters a DCS sequence keeps: the
	// decoder reads 16 (ultraviolet's parseDcs) and would deliver the
	// rest of a longer one as typed keys.
	MaxDCSParams = 16
	// MaxPaste is the most bytes a bracketed paste passes on; the rest of
	// it, up to the terminal's end marker, is dropped.
	MaxPaste = 1 << 20
	// PasteTimeout is how long a bracketed paste may go without a byte
	// before the guard ends it (terminals send a paste in one burst).
	PasteTimeout = 500 * time.Millisecond
)

const (
	esc   = 0x1b
	c1CSI = 0x9b
	c1DCS = 0x90
)

// pasteEnd is the bracketed paste's end marker.
var pasteEnd = []byte("\x1b[201~")

// File is a terminal: what Bubble Tea and its cancelable reader need of
// the input (an *os.File satisfies it).
type File interface {
	io.ReadWriteCloser
	Fd() uintptr
	Name() string
}

// Guard is a terminal whose reads pass through a [Filter]. Write, Close,
// Fd and Name are the terminal's.
type Guard struct {
	File
	in *Reader
}

// NewGuard wraps the terminal f; now is the clock of the paste timeout
// (nil: time.Now). A terminal's reader waits for its bytes before it
// reads (Bubble Tea's cancelable reader polls the descriptor), so a read
// returns at once and the time it waited is not the sender's pause: the
// paste timeout reads now itself.
func NewGuard(f File, now func() time.Time) *Guard {
	r := NewReader(f, now)
	r.wall = true
	return &Guard{File: f, in: r}
}

// Read reads from the terminal and returns the filtered bytes (see
// [Reader.Read]).
func (g *Guard) Read(p []byte) (int, error) { return g.in.Read(p) }

// Reader is an input stream that is not a file (an SSH channel's) read
// through a [Filter], optionally at a bounded rate of typed bytes
// ([Reader.Limit]).
type Reader struct {
	r       io.Reader
	mu      sync.Mutex
	f       Filter
	now     func() time.Time
	scratch []byte
	pending []byte

	rate, burst float64 // typed bytes a second, and the most saved up (0: no limit)
	tokens      float64
	last        time.Time
	typed       int // f.typed when the budget last took its bytes

	// clock is the time the filter reads: it moves only while a read
	// waits for the stream, so that the pauses the filter sees are the
	// sender's, not the reader's (a loaded server that comes back late to
	// a paste sent in one go sees no pause in it). With wall, the filter
	// reads now instead (a terminal polled before it is read: NewGuard).
	clock time.Time
	wall  bool
}

// Limit bounds the bytes the Reader passes outside a bracketed paste to
// rate a second, with bursts of burst: once they are spent, a read waits
// (the sender's flow control then holds the rest) and reads no more than
// the budget allows. A paste's content is not counted (it is one event,
// and the filter caps it). Every typed byte is a key event the program
// decodes and handles: a flood of them is a CPU the caller does not
// otherwise bound.
func (g *Reader) Limit(rate, burst float64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.rate, g.burst, g.tokens = rate, burst, burst
}

// budget waits, outside a paste, until the typed-byte budget holds at
// least a few bytes and returns how many may be read (want when
// unlimited or in a paste).
func (g *Reader) budget(want int) int {
	if g.rate <= 0 || g.f.inPaste || g.f.discard {
		return want
	}
	refill := func() {
		now := g.now()
		if !g.last.IsZero() {
			g.tokens = min(g.burst, g.tokens+now.Sub(g.last).Seconds()*g.rate)
		}
		g.last = now
	}
	refill()
	if g.tokens < 1 {
		// Wait for a batch, not one byte at a time.
		batch := min(g.burst, max(1, g.rate/100))
		time.Sleep(time.Duration((batch - g.tokens) / g.rate * float64(time.Second)))
		refill()
	}
	return max(1, min(want, int(g.tokens)))
}

// NewReader wraps r; now is the clock of the paste timeout (nil:
// time.Now).
func NewReader(r io.Reader, now func() time.Time) *Reader {
	if now == nil {
		now = time.Now
	}
	return &Reader{r: r, now: now}
}

// slack is what a filtered chunk may grow by: one inserted end marker.
const slack = 8

// Read reads from the stream and returns the filtered bytes. It may
// return 0 bytes and no error when everything read was dropped.
func (g *Reader) Read(p []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.pending) > 0 {
		n := copy(p, g.pending)
		g.pending = g.pending[n:]
		return n, nil
	}
	want := len(p)
	if want > 2*slack {
		want -= slack
	}
	want = g.budget(want)
	if cap(g.scratch) < want {
		g.scratch = make([]byte, want)
	}
	start := g.now()
	n, err := g.r.Read(g.scratch[:want])
	waited := g.now().Sub(start)
	if g.clock.IsZero() {
		g.clock = start
	}
	g.clock = g.clock.Add(waited)
	if n == 0 {
		return 0, err
	}
	at := g.clock
	if g.wall {
		at = g.now()
	}
	out := g.f.Filter(p[:0], g.scratch[:n], at)
	if g.rate > 0 {
		g.tokens -= float64(g.f.typed - g.typed)
		g.typed = g.f.typed
	}
	if len(out) > len(p) {
		// out grew past p's backing array: keep the rest for the next Read.
		n := copy(p, out)
		g.pending = append(g.pending[:0], out[n:]...)
		return n, err
	}
	return len(out), err
}

// state is where the filter is in the byte stream.
type state uint8

const (
	ground   state = iota
	escape         // after ESC
	params         // in a CSI or DCS, before its intermediates and final byte
	intermed       // in a CSI or DCS, after an intermediate byte
)

// Filter is the guard's rewriting of the input stream (see the package
// doc); its zero value is ready. Filter keeps its state between calls, so
// a sequence may be cut anywhere between two chunks.
type Filter struct {
	st    state
	csi   bool    // the sequence is a CSI (not a DCS)
	seps  int     // parameter separators seen in the sequence
	head  [4]byte // its first parameter bytes (for the paste markers)
	nhead int
	long  bool // the parameter bytes are being dropped

	inPaste   bool
	pasted    int
	typed     int // bytes passed outside a paste, ever (Reader's budget)
	lastPaste time.Time
	discard   bool // dropping the rest of an over-long paste
	match     int  // bytes of pasteEnd matched while discarding
}

// Filter appends to dst the bytes of src that pass, at time now (of the
// chunk's arrival), and returns dst.
func (f *Filter) Filter(dst, src []byte, now time.Time) []byte {
	if f.inPaste && !f.discard && len(src) > 0 && now.Sub(f.lastPaste) > PasteTimeout {
		dst = f.endPaste(dst)
	}
	if f.discard && now.Sub(f.lastPaste) > PasteTimeout {
		f.discard, f.match = false, 0
	}
	for _, c := range src {
		if f.discard {
			f.lastPaste = now
			f.skip(c)
			continue
		}
		var keep bool
		dst, keep = f.step(dst, c)
		if !keep {
			continue
		}
		dst = append(dst, c)
		if !f.inPaste && !f.discard {
			f.typed++
		}
		if f.inPaste {
			f.lastPaste = now
			if f.pasted++; f.pasted > MaxPaste {
				dst = f.endPaste(dst)
				f.discard, f.match = true, 0
				f.st = ground
			}
		}
	}
	return dst
}

// endPaste ends the paste under way with the end marker.
func (f *Filter) endPaste(dst []byte) []byte {
	f.inPaste, f.pasted = false, 0
	// A sequence cut short by the marker is invalid to the decoder, which
	// then reads the marker (it starts with ESC) on its own.
	f.st = ground
	return append(dst, pasteEnd...)
}

// skip consumes one byte of a discarded paste, watching for its end
// marker.
func (f *Filter) skip(c byte) {
	switch {
	case c == pasteEnd[f.match]:
		f.match++
		if f.match == len(pasteEnd) {
			f.discard, f.match = false, 0
		}
	case c == esc:
		f.match = 1
	default:
		f.match = 0
	}
}

// step advances the state machine over c and reports whether c passes.
func (f *Filter) step(dst []byte, c byte) ([]byte, bool) {
	for {
		switch f.st {
		case ground:
			switch c {
			case esc:
				f.st = escape
			case c1CSI, c1DCS:
				f.begin(c == c1CSI)
			}
			return dst, true
		case escape:
			switch {
			case c == '[' || c == 'P':
				f.begin(c == '[')
				return dst, true
			case c == esc || (c >= 0x20 && c <= 0x2f):
				return dst, true
			}
			f.st = ground
			if c == c1CSI || c == c1DCS {
				continue
			}
			return dst, true
		case params:
			switch {
			case c >= 0x30 && c <= 0x3f:
				if c == ';' || c == ':' {
					f.seps++
					if f.seps >= f.maxParams() {
						f.long = true
					}
				}
				if f.nhead < len(f.head) {
					f.head[f.nhead] = c
				}
				f.nhead++
				return dst, !f.long
			case c >= 0x20 && c <= 0x2f:
				f.st = intermed
				return dst, true
			case c >= 0x40 && c <= 0x7e:
				f.final(c)
				return dst, true
			}
			f.st = ground
			continue
		case intermed:
			switch {
			case c >= 0x20 && c <= 0x2f:
				return dst, true
			case c >= 0x40 && c <= 0x7e:
				f.st = ground
				return dst, true
			}
			f.st = ground
			continue
		}
	}
}

// maxParams is the most parameters the sequence under way keeps.
func (f *Filter) maxParams() int {
	if f.csi {
		return MaxParams
	}
	return MaxDCSParams
}

// begin starts a CSI (csi) or DCS sequence's parameters.
func (f *Filter) begin(csi bool) {
	f.st, f.csi, f.seps, f.nhead, f.long = params, csi, 0, 0, false
}

// final ends a sequence at its final byte c, noting the paste markers.
func (f *Filter) final(c byte) {
	f.st = ground
	if !f.csi || c != '~' || f.nhead != 3 || f.head[0] != '2' || f.head[1] != '0' {
		return
	}
	switch f.head[2] {
	case '0':
		f.inPaste, f.pasted = true, 0
	case '1':
		f.inPaste, f.pasted = false, 0
	}
}
