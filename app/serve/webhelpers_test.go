package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"
	"github.com/coder/websocket"
)

// startWeb starts a server with the browser transport on a loopback port
// of its own, serving in the background, and SSH too when ssh is true
// (ts.addr; "" without); its log is kept. It returns the browser
// transport's address.
func startWeb(t *testing.T, cfg Config, ssh bool) (*testServer, string) {
	t.Helper()
	cfg.Web = "127.0.0.1:0"
	if ssh {
		ts := startServer(t, cfg)
		return ts, serveWebOn(t, ts, nil)
	}
	cfg.NoSSH = true
	if cfg.Parse == nil {
		cfg.Parse = testParse
	}
	lb := &syncBuffer{}
	cfg.Log = lb
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts := &testServer{Server: s, served: make(chan error, 2), log: lb}
	ts.watchSize()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		defer cancel()
		s.Shutdown(ctx, "the test ended")
	})
	return ts, serveWebOn(t, ts, nil)
}

// serveWebOn serves ts's browser transport on a loopback port of its own,
// each connection given to conn first if it is not nil; ServeWeb's result
// goes to ts.served.
func serveWebOn(t *testing.T, ts *testServer, conn func(*net.TCPConn)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var l net.Listener = ln
	if conn != nil {
		l = connHook{ln, conn}
	}
	go func() { ts.served <- ts.ServeWeb(l) }()
	return ln.Addr().String()
}

// connHook is a listener that gives each connection to hook.
type connHook struct {
	net.Listener
	hook func(*net.TCPConn)
}

func (l connHook) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		l.hook(tc)
	}
	return c, err
}

// tab is a browser tab of a test: a WebSocket client with an emulated
// terminal of 100×30 that draws what the server sends (each newline also
// returns the carriage, as the page's convertEol does) and answers the
// explorer's queries, as xterm.js does.
type tab struct {
	t    *testing.T
	conn *websocket.Conn
	term *termScreen
	mu   sync.Mutex
	says []string
	// statuses are the page's status lines sent ({"status": …}).
	statuses []string
	closed   chan struct{}
	status   websocket.StatusCode // how the server closed the socket
}

// openTab dials /ws?query from the page's origin and sends the page's
// first message (100×30, dark), as the page does once the socket opens.
func openTab(t *testing.T, addr, query string) *tab {
	t.Helper()
	tb := dialTab(t, addr, query, http.Header{"Origin": {"http://" + addr}})
	// The server may have refused the tab already (a token, a cap).
	tb.conn.Write(context.Background(), websocket.MessageText, []byte(`{"cols":100,"rows":30,"light":false}`))
	return tb
}

func dialTab(t *testing.T, addr, query string, h http.Header) *tab {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws://"+addr+"/ws?"+query, &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		t.Fatal(err)
	}
	conn.SetReadLimit(1 << 24)
	tb := &tab{t: t, conn: conn, term: &termScreen{vt: vt.NewEmulator(100, 30)}, closed: make(chan struct{}), status: -1}
	go tb.read()
	go tb.answer()
	t.Cleanup(tb.close)
	return tb
}

// read draws the server's binary messages and keeps its text ones, until
// the socket closes.
func (tb *tab) read() {
	defer close(tb.closed)
	for {
		typ, data, err := tb.conn.Read(context.Background())
		if err != nil {
			tb.mu.Lock()
			tb.status = websocket.CloseStatus(err)
			tb.mu.Unlock()
			return
		}
		if typ == websocket.MessageText {
			var m struct{ Say, Status *string }
			json.Unmarshal(data, &m)
			tb.mu.Lock()
			if m.Status != nil {
				tb.statuses = append(tb.statuses, *m.Status)
			} else if m.Say != nil {
				tb.says = append(tb.says, *m.Say)
			}
			tb.mu.Unlock()
			continue
		}
		tb.term.Write(bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n")))
	}
}

// answer sends the emulator's replies to the explorer's queries as keys.
func (tb *tab) answer() {
	buf := make([]byte, 4096)
	for {
		n, err := tb.term.vt.Read(buf)
		if err != nil {
			return
		}
		if tb.conn.Write(context.Background(), websocket.MessageBinary, buf[:n]) != nil {
			return
		}
	}
}

func (tb *tab) close() {
	tb.conn.CloseNow()
	if pw, ok := tb.term.vt.InputPipe().(*io.PipeWriter); ok {
		pw.Close()
	}
}

// send sends a text message (a size).
func (tb *tab) send(text string) {
	tb.t.Helper()
	if err := tb.conn.Write(context.Background(), websocket.MessageText, []byte(text)); err != nil {
		tb.t.Fatal(err)
	}
}

// key types keys.
func (tb *tab) key(keys string) {
	tb.t.Helper()
	if err := tb.conn.Write(context.Background(), websocket.MessageBinary, []byte(keys)); err != nil {
		tb.t.Fatal(err)
	}
}

func (tb *tab) screen() string { return tb.term.String() }

// waitStatus waits until the page's status line is last set to want.
func (tb *tab) waitStatus(want string) {
	tb.t.Helper()
	deadline := time.Now().Add(waitLimit)
	for {
		tb.mu.Lock()
		last := ""
		if n := len(tb.statuses); n > 0 {
			last = tb.statuses[n-1]
		}
		got := append([]string(nil), tb.statuses...)
		tb.mu.Unlock()
		if len(got) > 0 && last == want {
			return
		}
		if time.Now().After(deadline) {
			tb.t.Fatalf("the page's status line was never set to %q; it was set to %q", want, got)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// waitFor waits until the tab shows want.
func (tb *tab) waitFor(want string) {
	tb.t.Helper()
	deadline := time.Now().Add(waitLimit)
	for !strings.Contains(tb.screen(), want) {
		if time.Now().After(deadline) {
			tb.t.Fatalf("the tab never showed %q; it showed:\n%s", want, tb.screen())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// end waits until the server closes the socket and returns the lines it
// said and the close status.
func (tb *tab) end() (string, websocket.StatusCode) {
	tb.t.Helper()
	select {
	case <-tb.closed:
	case <-time.After(waitLimit):
		tb.t.Fatalf("the server did not close the tab; it showed:\n%s", tb.screen())
	}
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return strings.Join(tb.says, "\n"), tb.status
}

// waitLog waits until the server's log has want.
func waitLog(t *testing.T, ts *testServer, want string) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for !strings.Contains(ts.log.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("the log never had %q:\n%s", want, ts.log.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}
