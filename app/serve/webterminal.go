package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/coder/websocket"

	"dpso/theory"
	"dpso/tui/input"
)

// webTerminal is a browser tab's WebSocket as a terminal (the protocol:
// package web's doc). What the page types goes through the input guard's
// filter (tui/input) to the explorer; what the explorer draws goes to the
// page under the session's write deadline (Config.WriteTimeout).
type webTerminal struct {
	conn   *websocket.Conn
	ctx    context.Context // ends when the page goes or the session ends
	cancel context.CancelFunc
	lim    WebLimits
	wait   time.Duration // Config.WriteTimeout, for what Say writes
	from   string        // the page's address, for the log
	link   string

	cols, rows int
	light      bool

	in     *io.PipeReader // the explorer's input
	inW    *io.PipeWriter
	filter input.Filter
	sizes  chan size // the last size the page sent, not yet given
	done   chan struct{}
}

// size is a terminal's size in cells.
type size struct{ cols, rows int }

func newWebTerminal(conn *websocket.Conn, r *http.Request, w *webServer) *webTerminal {
	ctx, cancel := context.WithCancel(r.Context())
	pr, pw := io.Pipe()
	return &webTerminal{conn: conn, ctx: ctx, cancel: cancel, lim: w.lim, wait: w.cfg.WriteTimeout, from: r.RemoteAddr,
		link: w.base(r.Host), in: pr, inW: pw, sizes: make(chan size, 1)}
}

// sizeMsg is a page's text message: its terminal's size (and, in the
// first, its background).
type sizeMsg struct {
	Cols  *int `json:"cols"`
	Rows  *int `json:"rows"`
	Light bool `json:"light"`
}

// parseSize reads a size message (the session holds the size to what it
// draws: clampSize).
func parseSize(data []byte) (size, bool, error) {
	var m sizeMsg
	if err := json.Unmarshal(data, &m); err != nil || m.Cols == nil || m.Rows == nil {
		return size{}, false, errors.New(`the page sent a text message that is not its size ({"cols":C,"rows":R})`)
	}
	c, r := *m.Cols, *m.Rows
	if c < 1 || r < 1 {
		return size{}, false, fmt.Errorf("the page sent a size of %d×%d cells", c, r)
	}
	return size{c, r}, m.Light, nil
}

// hello reads the page's first message, its size, waiting at most
// HelloTimeout.
func (t *webTerminal) hello() error {
	ctx, cancel := context.WithTimeout(t.ctx, t.lim.HelloTimeout)
	defer cancel()
	typ, data, err := t.conn.Read(ctx)
	switch {
	case err != nil:
		return fmt.Errorf("no terminal size came: %v", err)
	case typ != websocket.MessageText:
		return errors.New("the page's first message is not its size")
	}
	sz, light, err := parseSize(data)
	if err != nil {
		return err
	}
	t.cols, t.rows, t.light = sz.cols, sz.rows, light
	return nil
}

// start starts reading the page's messages: keys to the explorer's
// input, sizes to Watch.
func (t *webTerminal) start() {
	t.done = make(chan struct{})
	go t.readLoop()
}

func (t *webTerminal) readLoop() {
	defer close(t.done)
	defer t.cancel()
	for {
		typ, data, err := t.conn.Read(t.ctx)
		if err != nil {
			return
		}
		if typ == websocket.MessageText {
			sz, _, err := parseSize(data)
			if err != nil { // a page that sends what it should not is dropped
				t.conn.Close(websocket.StatusUnsupportedData, "not a size")
				return
			}
			select { // only the last size waits
			case <-t.sizes:
			default:
			}
			t.sizes <- sz
			continue
		}
		keys := t.filter.Filter(make([]byte, 0, len(data)+8), data, time.Now())
		if len(keys) > 0 {
			// Blocks until the explorer reads them: a page that types
			// faster than the explorer reads waits, and nothing piles up.
			// After the session, the pipe is closed and keys are dropped.
			t.inW.Write(keys)
		}
	}
}

// finish ends the page's socket once its session ended with status code:
// the explorer's input closes, the socket is closed (the page is told
// normally; a page that does not answer is dropped), and the reader ends.
func (t *webTerminal) finish(code int) {
	t.in.Close()
	status := websocket.StatusNormalClosure
	if code != 0 {
		status = websocket.StatusPolicyViolation
	}
	t.conn.Close(status, fmt.Sprintf("status %d", code))
	t.cancel()
	if t.done != nil {
		<-t.done
	}
}

func (t *webTerminal) Context() context.Context { return t.ctx }

func (t *webTerminal) Interactive() bool { return true }

func (t *webTerminal) Input() io.Reader  { return t.in }
func (t *webTerminal) Output() io.Writer { return t }

func (t *webTerminal) Size() (int, int) { return t.cols, t.rows }

// Profile: xterm.js is a true-colour terminal.
func (t *webTerminal) Profile() colorprofile.Profile { return colorprofile.TrueColor }

// ID is "": a page's tabs are counted per address (WebLimits.PerAddress).
func (t *webTerminal) ID() string { return "" }

// Hangup closes the socket at once.
func (t *webTerminal) Hangup() {
	t.conn.CloseNow()
	t.cancel()
}

// Environ is the environment of an xterm, COLORFGBG saying the page's
// background.
func (t *webTerminal) Environ() []string {
	fgbg := "15;0"
	if t.light {
		fgbg = "0;15"
	}
	return []string{"TERM=xterm-256color", "COLORTERM=truecolor", "COLORFGBG=" + fgbg}
}

// Write sends what the explorer draws, until the page goes or the session
// hangs it up (its write deadline: a page that reads nothing is dropped,
// the socket closes and the session ends).
func (t *webTerminal) Write(p []byte) (int, error) {
	if err := t.conn.Write(t.ctx, websocket.MessageBinary, p); err != nil {
		t.cancel()
		return 0, err
	}
	return len(p), nil
}

func (t *webTerminal) Watch(ctx context.Context, resize func(w, h int)) {
	for {
		select {
		case <-ctx.Done():
			return
		case sz := <-t.sizes:
			resize(sz.cols, sz.rows)
		}
		pause := time.NewTimer(t.lim.ResizeEvery)
		select {
		case <-ctx.Done():
			pause.Stop()
			return
		case <-pause.C:
		}
	}
}

// Say sends line as the page's {"say": line}.
func (t *webTerminal) Say(line string) { t.sendText("say", line) }

// Status sends line as the page's {"status": line}: its status line,
// which a screen reader announces (role=status), says it.
func (t *webTerminal) Status(line string) { t.sendText("status", line) }

// sendText sends the page the text message {key: line}, waiting for the
// connection at most the terminal's write wait.
func (t *webTerminal) sendText(key, line string) {
	b, _ := json.Marshal(map[string]string{key: line})
	ctx, cancel := context.WithTimeout(t.ctx, t.wait)
	defer cancel()
	t.conn.Write(ctx, websocket.MessageText, b)
}

func (t *webTerminal) Who() string { return "a browser tab from " + theory.Quote(t.from) }

func (t *webTerminal) Where() string { return "a browser tab" }

func (t *webTerminal) Link() string { return t.link }
