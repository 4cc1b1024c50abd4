package serve

import (
	"context"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"dpso/tui"
)

// A hostile page cannot pass the browser transport's limits: each case
// tries one and checks that the server holds it and goes on serving.

func TestWebMessageAboveTheLimitEndsTheSession(t *testing.T) {
	ts, addr := startWeb(t, Config{Runner: newBlockRunner(), WebLimits: WebLimits{MaxMessage: 4096}}, false)
	a := openTab(t, addr, "")
	a.waitFor(ready)
	a.key(strings.Repeat("x", 4097)) // a paste one byte too long
	if _, status := a.end(); status != websocket.StatusMessageTooBig {
		t.Fatalf("closed with %v, want StatusMessageTooBig", status)
	}
	waitLog(t, ts, "ended: connection closed")
	openTab(t, addr, "").waitFor(ready) // the server goes on
}

func TestWebSessionsPerAddressAreCapped(t *testing.T) {
	ts, addr := startWeb(t, Config{Runner: newBlockRunner(), WebLimits: WebLimits{PerAddress: 2}}, false)
	a := openTab(t, addr, "")
	b := openTab(t, addr, "")
	a.waitFor(ready)
	b.waitFor(ready)
	said, status := openTab(t, addr, "").end()
	if !strings.Contains(said, "2 browser sessions from your address are open already") || status != websocket.StatusPolicyViolation {
		t.Fatalf("a third tab from one address: said %q, closed %v", said, status)
	}
	waitLog(t, ts, "2 sessions from its address")
	a.key("q")
	if _, status := a.end(); status != websocket.StatusNormalClosure {
		t.Fatalf("q closed the tab with %v", status)
	}
	waitLog(t, ts, "ended: quit")
	openTab(t, addr, "").waitFor(ready) // a's place is free again
}

func TestWebSizesAreClampedAndResizeFloodsCoalesce(t *testing.T) {
	_, addr := startWeb(t, Config{Runner: newBlockRunner()}, false)
	a := openTab(t, addr, "")
	a.waitFor(ready)
	// 2000 sizes, the largest 2³¹−1 square (a single one asked for as is
	// would take the server's memory): each is clamped, and only the last
	// waiting one is drawn.
	for i := range 2000 {
		if i%2 == 0 {
			a.send(`{"cols":2147483647,"rows":2147483647}`)
		} else {
			a.send(`{"cols":101,"rows":31}`)
		}
	}
	a.send(`{"cols":100,"rows":30}`)
	a.key("?")
	a.waitFor("── Keys") // still answering keys
}

func TestWebPageThatSendsGarbageIsDropped(t *testing.T) {
	ts, addr := startWeb(t, Config{Runner: newBlockRunner()}, false)
	for name, msgs := range map[string][]string{
		"no size first":     {"not json"},
		"a size of 0 cells": {`{"cols":0,"rows":30}`},
		"text after":        {`{"cols":100,"rows":30}`, `{"say":"hello"}`},
	} {
		tb := dialTab(t, addr, "", http.Header{"Origin": {"http://" + addr}})
		for _, m := range msgs {
			tb.conn.Write(context.Background(), websocket.MessageText, []byte(m))
		}
		if _, status := tb.end(); status == -1 {
			t.Fatalf("%s: the socket closed without a close frame", name)
		}
	}
	waitLog(t, ts, "refused a browser tab")
	openTab(t, addr, "").waitFor(ready)
}

func TestWebPageThatSendsNothingIsDroppedAfterTheGrace(t *testing.T) {
	ts, addr := startWeb(t, Config{Runner: newBlockRunner(), WebLimits: WebLimits{HelloTimeout: 200 * time.Millisecond}}, false)
	tb := dialTab(t, addr, "", http.Header{"Origin": {"http://" + addr}})
	tb.end()
	waitLog(t, ts, "no terminal size came")
}

func TestWebPageThatReadsNothingIsDropped(t *testing.T) {
	ts, _ := startWeb(t, Config{Runner: newBlockRunner(), WriteTimeout: 300 * time.Millisecond, WebLimits: WebLimits{ResizeEvery: time.Millisecond}}, false)
	// The server's side of this page's socket has a small send buffer too.
	addr := serveWebOn(t, ts, func(c *net.TCPConn) { c.SetWriteBuffer(4096) })
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	// A small receive buffer, so that the socket fills in a few frames.
	dialer := &net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		return c.Control(func(fd uintptr) { syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
	}}
	client := &http.Client{Transport: &http.Transport{DialContext: dialer.DialContext}}
	conn, _, err := websocket.Dial(ctx, "ws://"+addr+"/ws", &websocket.DialOptions{HTTPClient: client})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	// Sizes make the explorer redraw, and nothing is ever read: the
	// page's socket fills, until a write waits past the session's
	// WriteTimeout and the server drops the page.
	for i := 0; !strings.Contains(ts.log.String(), "ended: dropped: the client read nothing"); i++ {
		msg := `{"cols":400,"rows":150}`
		if i%2 == 1 {
			msg = `{"cols":399,"rows":149}`
		}
		if conn.Write(ctx, websocket.MessageText, []byte(msg)) != nil {
			break // the server closed the socket
		}
		if ctx.Err() != nil {
			t.Fatal("the server kept a page that reads nothing")
		}
	}
	waitLog(t, ts, "ended: dropped: the client read nothing")
	ctx2, cancel2 := context.WithTimeout(context.Background(), waitLimit)
	defer cancel2()
	if err := ts.Shutdown(ctx2, "the test ended"); err != nil {
		t.Fatalf("Shutdown after a page that reads nothing: %v", err)
	}
}

// TestWebPanicInASessionEndsOnlyIt: a browser tab's session goes through
// the same recover as an SSH session's: a panic in its setup ends that tab
// (told, status 1), and the other tabs and the server go on.
func TestWebPanicInASessionEndsOnlyIt(t *testing.T) {
	parse := func(args []string) (tui.Options, error) {
		if len(args) > 0 && args[0] == "--preset=9" {
			panic("a bug in a session's setup")
		}
		return testParse(args)
	}
	ts, addr := startWeb(t, Config{Runner: newBlockRunner(), Parse: parse}, false)
	a := openTab(t, addr, "")
	a.waitFor(ready)
	said, status := openTab(t, addr, "preset=9").end()
	if !strings.Contains(said, "this session hit an internal error") || status != websocket.StatusPolicyViolation {
		t.Fatalf("the tab that panicked: said %q, closed %v", said, status)
	}
	waitLog(t, ts, "panic: a bug in a session's setup")
	waitLog(t, ts, "ended: internal error (panic)")
	a.key("?")
	a.waitFor("── Keys")
	openTab(t, addr, "").waitFor(ready)
}

// TestWebSizeIsTheSessionsClamp: a page's size goes through the session's
// clamp (clampSize), as an SSH client's does.
func TestWebSizeIsTheSessionsClamp(t *testing.T) {
	ts, addr := startWeb(t, Config{Runner: newBlockRunner()}, false)
	a := openTab(t, addr, "")
	a.waitFor(ready)
	a.send(`{"cols":2147483647,"rows":2147483647}`)
	waitUntil(t, "the clamped size reaches the explorer", func() bool { return ts.sizeSeen() == [2]int{MaxCols, MaxRows} })
	a.send(`{"cols":100,"rows":30}`)
	waitUntil(t, "the next size reaches the explorer", func() bool { return ts.sizeSeen() == [2]int{100, 30} })
}
