package serve

import (
	"io"
	"strings"
	"sync"
	"time"
)

// The limits every session has, whatever carries it (terminal.go): what
// it draws, what it reads of its client's environment and keys, how long
// a write to its client may wait. A transport bounds only what it alone
// holds (SSH: its connections, channels and requests; a browser: its
// messages).

// The largest terminal a session draws, whatever its client asks for (an
// SSH pty-req of 2³²−1 × 2³²−1, a page's size message): a larger size is
// drawn at this one and the rest of the client's terminal stays blank.
// What the explorer draws, its memory and the time it takes grow with the
// size (65535×65535 is 4.3·10⁹ cells); a 4K screen at a small font shows
// about 400×150.
const (
	MaxCols = 400
	MaxRows = 150
)

// clampSize holds a client's size to the largest a session draws (and a
// zero or negative one to 1×1).
func clampSize(w, h int) (int, int) {
	return min(max(w, 1), MaxCols), min(max(h, 1), MaxRows)
}

// sizeBox is a terminal's latest size: the transport Sets every new size
// without ever blocking (a burst of resizes is one change, the latest),
// and the session gives the latest to its explorer when Changed fires. A
// transport that waited for the explorer instead would stop reading its
// client meanwhile (an SSH channel's request loop waits on the window
// changes it hands on, and while it waits the connection reads nothing,
// not even the window adjustments that let the explorer's writes go on).
type sizeBox struct {
	mu      sync.Mutex
	w, h    int
	changed chan struct{}
}

func newSizeBox(w, h int) *sizeBox {
	return &sizeBox{w: w, h: h, changed: make(chan struct{}, 1)}
}

// Set records a new size and signals it; it never blocks.
func (z *sizeBox) Set(w, h int) {
	z.mu.Lock()
	z.w, z.h = w, h
	z.mu.Unlock()
	select {
	case z.changed <- struct{}{}:
	default:
	}
}

// Get is the latest size.
func (z *sizeBox) Get() (w, h int) {
	z.mu.Lock()
	defer z.mu.Unlock()
	return z.w, z.h
}

// Changed receives after a Set (one receive for any number of Sets).
func (z *sizeBox) Changed() <-chan struct{} { return z.changed }

// Environment the session reads, and the longest value it keeps of each.
var readEnv = []string{"TERM", "COLORTERM", "NO_COLOR", "COLORFGBG"}

const maxEnvValue = 64

// sessionEnv is the client's variables the session reads (readEnv), each
// value cut at maxEnvValue bytes; the last of a name wins.
func sessionEnv(env []string) []string {
	var out []string
	for _, name := range readEnv {
		for i := len(env) - 1; i >= 0; i-- {
			if v, ok := strings.CutPrefix(env[i], name+"="); ok {
				if len(v) > maxEnvValue {
					v = v[:maxEnvValue]
				}
				out = append(out, name+"="+v)
				break
			}
		}
	}
	return out
}

// deadlineWriter is a session's screen with a write deadline: a write
// that has not returned within d hangs the client up (hangup), which ends
// the write; so a client that reads nothing (its window full) is dropped
// instead of blocking its session, and the server's shutdown, for good.
type deadlineWriter struct {
	wmu     sync.Mutex // one write at a time, each under the deadline
	mu      sync.Mutex
	w       io.Writer
	d       time.Duration
	t       *time.Timer
	dropped bool
}

func newDeadlineWriter(w io.Writer, d time.Duration, hangup func()) *deadlineWriter {
	dw := &deadlineWriter{w: w, d: d}
	dw.t = time.AfterFunc(time.Hour, func() {
		dw.mu.Lock()
		dw.dropped = true
		dw.mu.Unlock()
		hangup()
	})
	dw.t.Stop()
	return dw
}

func (dw *deadlineWriter) Write(p []byte) (int, error) {
	if dw.d <= 0 {
		return dw.w.Write(p)
	}
	dw.wmu.Lock()
	defer dw.wmu.Unlock()
	dw.t.Reset(dw.d)
	n, err := dw.w.Write(p)
	dw.t.Stop()
	return n, err
}

// timedOut reports whether a write passed the deadline.
func (dw *deadlineWriter) timedOut() bool {
	dw.mu.Lock()
	defer dw.mu.Unlock()
	return dw.dropped
}

// Typed bytes a session reads at most (outside a bracketed paste, which
// the terminal guard caps instead): typedBurst at once, then typedRate a
// second; a faster sender is held by the transport's flow control. A
// typist sends tens of bytes a second, a mouse drag under a thousand.
// Each typed byte is a key event to decode: this bounds what a flood of
// them costs before the event budget below drops the events.
const (
	typedRate  = 4 << 10
	typedBurst = 16 << 10
)

// Input events a session takes at most: a burst of maxBurst, then
// inputRate a second (a typist makes 10 to 30, a key held down about 30,
// a bracketed paste is one; a mouse's motion past it is dropped). Each
// event is an update and a redraw of the whole explorer, about a
// millisecond or two of CPU. A flood of typed bytes — 100 MB sent without
// a paste's brackets, say — would otherwise be a hundred million updates
// and redraws of one explorer, a CPU that no slot of the pool accounts
// for; past the budget, events are dropped (and counted) before the
// explorer sees them.
const (
	maxBurst  = 64
	inputRate = 32
)

// eventBudget is a token bucket of input events (one goroutine: the
// program's event loop).
type eventBudget struct {
	tokens  float64
	last    time.Time
	dropped int64
}

// allow takes an event's token at now, or counts it dropped.
func (b *eventBudget) allow(now time.Time) bool {
	if b.last.IsZero() {
		b.tokens, b.last = maxBurst, now
	}
	b.tokens = min(maxBurst, b.tokens+now.Sub(b.last).Seconds()*inputRate)
	b.last = now
	if b.tokens < 1 {
		b.dropped++
		return false
	}
	b.tokens--
	return true
}
