package serve

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"dpso/app/serve/web"
)

func TestWebTabsAreIndependent(t *testing.T) {
	run := newBlockRunner()
	_, addr := startWeb(t, Config{Runner: run}, false)
	a := openTab(t, addr, "")
	b := openTab(t, addr, "n=3000")
	a.waitFor(ready)
	b.waitFor(ready)
	a.key("r")
	if r := <-run.started; r.Spec.N != 2000 {
		t.Fatalf("a's run has n = %d, want its own 2000", r.Spec.N)
	}
	a.waitFor("● running")
	b.key("?") // b's keys act while a's run holds
	b.waitFor("── Keys")
	if strings.Contains(b.screen(), "running") {
		t.Fatalf("b shows a run it never started:\n%s", b.screen())
	}
	if !strings.Contains(b.screen(), "--n 3000") || strings.Contains(a.screen(), "--n 3000") {
		t.Fatalf("each tab's reproduce line must be its own link's Spec")
	}
	close(run.release)
}

func TestWebLinkIsReadAsExploreFlags(t *testing.T) {
	cases := []struct {
		query string
		args  []string
		token string
		err   string
	}{
		{"", nil, "", ""},
		{"preset=3", []string{"--preset=3"}, "", ""},
		{"preset=4&screen=clip&token=abcdefgh", []string{"--preset=4", "--screen=clip"}, "abcdefgh", ""},
		{"state=dpso1.ab%2Bc&n=3000", []string{"--state=dpso1.ab+c", "--n=3000"}, "", ""},
		{"plain&&theme=light", []string{"--plain", "--theme=light"}, "", ""},
		{"n=1&n=2", []string{"--n=1", "--n=2"}, "", ""},
		{"Preset=3", nil, "", `names "Preset", which is not a flag`},
		{"--preset=3", nil, "", `names "--preset", which is not a flag`},
		{"pre%0aset=3", nil, "", `names "pre\nset", which is not a flag`},
		{"n=%zz", nil, "", "not URL-encoded"},
		{"state=" + strings.Repeat("a", maxQuery), nil, "", "a query of 4102 bytes"},
	}
	for _, c := range cases {
		t.Run(c.query[:min(len(c.query), 40)], func(t *testing.T) {
			args, token, err := linkArgs(c.query)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want one with %q", err, c.err)
				}
				return
			}
			if err != nil || token != c.token || fmt.Sprint(args) != fmt.Sprint(c.args) {
				t.Fatalf("got %q, token %q, %v; want %q, token %q", args, token, err, c.args, c.token)
			}
		})
	}
}

func TestWebBadLinkIsRefusedWithTheFlagsLine(t *testing.T) {
	_, addr := startWeb(t, Config{Runner: newBlockRunner()}, false)
	for query, want := range map[string]string{
		"frobnicate=1": `dpso: unknown flag "--frobnicate=1" (see --help for the flags)`,
		"Preset=3":     `dpso: the page's address names "Preset", which is not a flag of dpso explore (see dpso explore --help)`,
	} {
		said, status := openTab(t, addr, query).end()
		if said != want || status != websocket.StatusPolicyViolation {
			t.Fatalf("?%s: said %q, closed %v; want %q and a refusal", query, said, status, want)
		}
	}
}

func TestWebTokenIsRequired(t *testing.T) {
	ts, addr := startWeb(t, Config{Runner: newBlockRunner(), Token: "class-101-token"}, false)
	for _, q := range []string{"", "token=class-101-toke", "token=class-101-token-and-more"} {
		said, _ := openTab(t, addr, q).end()
		if !strings.Contains(said, "this class needs its token") {
			t.Fatalf("?%s: said %q, want the token's refusal", q, said)
		}
	}
	waitLog(t, ts, "no class token or a wrong one")
	openTab(t, addr, "token=class-101-token").waitFor(ready)
}

func TestWebOriginOfAnotherSiteIsRefused(t *testing.T) {
	_, addr := startWeb(t, Config{Runner: newBlockRunner()}, false)
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	_, resp, err := websocket.Dial(ctx, "ws://"+addr+"/ws", &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {"http://evil.example"}}})
	if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("a page of another site got %v (response %v), want 403", err, resp)
	}
}

func TestWebPageIsServedUnderItsCSP(t *testing.T) {
	_, addr := startWeb(t, Config{Runner: newBlockRunner()}, false)
	get := func(method, path string) (*http.Response, string) {
		req, _ := http.NewRequest(method, "http://"+addr+path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	resp, page := get("GET", "/?preset=3")
	m := regexp.MustCompile(`<script type="module" src="/dpso.js" nonce="([A-Za-z0-9_-]{24})">`).FindStringSubmatch(page)
	if resp.StatusCode != 200 || m == nil || resp.Header.Get("Content-Security-Policy") != web.CSP(m[1], "'none'") {
		t.Fatalf("the page: %d, CSP %q, script %v", resp.StatusCode, resp.Header.Get("Content-Security-Policy"), m)
	}
	if _, again := get("GET", "/"); strings.Contains(again, m[1]) {
		t.Fatal("two pages carry the same nonce")
	}
	for _, c := range []struct {
		method, path string
		status       int
		ctype        string
	}{
		{"GET", "/dpso.js", 200, "text/javascript; charset=utf-8"},
		{"GET", "/xterm/xterm.mjs", 200, "text/javascript; charset=utf-8"},
		{"GET", "/xterm/xterm.css", 200, "text/css; charset=utf-8"},
		{"GET", "/xterm/LICENSE", 200, "text/plain; charset=utf-8"},
		{"GET", "/xterm/", 404, ""},
		{"GET", "/index.html", 404, ""},
		{"GET", "/page.go", 404, ""},
		{"GET", "/../serve.go", 404, ""},
		{"POST", "/", 405, ""},
	} {
		resp, _ := get(c.method, c.path)
		if resp.StatusCode != c.status || (c.ctype != "" && resp.Header.Get("Content-Type") != c.ctype) {
			t.Fatalf("%s %s: %d %q, want %d %q", c.method, c.path, resp.StatusCode, resp.Header.Get("Content-Type"), c.status, c.ctype)
		}
		if c.status == 200 && resp.Header.Get("Content-Security-Policy") != web.CSP("", "'none'") {
			t.Fatalf("%s is served without the CSP", c.path)
		}
	}
}

func TestWebCapsAndSessionsAreTheServers(t *testing.T) {
	// One SSH session and one tab share --max-sessions 1.
	ts, addr := startWeb(t, Config{Runner: newBlockRunner(), MaxSessions: 1}, true)
	c := connect(t, ts.addr, nil)
	c.waitFor(ready)
	if said, _ := openTab(t, addr, "").end(); !strings.Contains(said, "the server is full (1 session,") {
		t.Fatalf("a tab beside a full server's SSH session: said %q", said)
	}
	// A link above the caps is refused as a session's flags are.
	_, addr2 := startWeb(t, Config{Runner: newBlockRunner(), Caps: Caps{N: 1000}}, false)
	if said, _ := openTab(t, addr2, "n=3000").end(); !strings.Contains(said, "dpso: --n: this server caps n at 1000 per session") {
		t.Fatalf("a link above the caps: said %q", said)
	}
}

func TestWebBroadcastAndIdleReachTabs(t *testing.T) {
	ts, addr := startWeb(t, Config{Runner: newBlockRunner()}, false)
	a := openTab(t, addr, "")
	a.waitFor(ready)
	o, err := ts.parseOffer([]string{"--preset", "1"})
	if err != nil {
		t.Fatal(err)
	}
	if n := ts.broadcast(o); n != 1 {
		t.Fatalf("the broadcast reached %d sessions, want the tab", n)
	}
	a.waitFor("▶ b opens, B dismisses: the instructor sends preset 1")
	// The page's status line (role=status: a screen reader announces it)
	// says the offer too, and has its own words back once it is dismissed.
	a.waitStatus(`The instructor sends preset 1 "Moment clipping beats Lipschitz DP-SGD": b opens it, B dismisses it.`)
	a.key("B")
	a.waitStatus("")

	_, addr2 := startWeb(t, Config{Runner: newBlockRunner(), Idle: 300 * time.Millisecond}, false)
	if said, status := openTab(t, addr2, "").end(); !strings.Contains(said, "dpso serve: no key for 300ms, so this session ended") || status != websocket.StatusNormalClosure {
		t.Fatalf("an idle tab: said %q, closed %v", said, status)
	}
}

func TestWebShutdownTellsEveryTabAndLeavesNoGoroutine(t *testing.T) {
	before := runtime.NumGoroutine()
	run := newBlockRunner()
	ts, addr := startWeb(t, Config{Runner: run}, false)
	a := openTab(t, addr, "")
	b := openTab(t, addr, "n=3000")
	a.waitFor(ready)
	b.waitFor(ready)
	a.key("r")
	<-run.started // a run in flight: Shutdown must cancel it
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if err := ts.Shutdown(ctx, "it got SIGTERM"); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	for name, tb := range map[string]*tab{"a": a, "b": b} {
		said, status := tb.end()
		if !strings.Contains(said, "the server is stopping (it got SIGTERM); this session ends now") || status != websocket.StatusNormalClosure {
			t.Fatalf("%s: said %q, closed %v", name, said, status)
		}
		tb.close()
	}
	if err := <-ts.served; err != nil {
		t.Fatalf("ServeWeb after Shutdown: %v", err)
	}
	if log := ts.log.String(); strings.Count(log, "ended: server shutdown") != 2 || !strings.Contains(log, "session of a browser tab from \"127.0.0.1:") {
		t.Fatalf("want a log line per tab:\n%s", log)
	}
	deadline := time.Now().Add(waitLimit)
	for live, stacks := goroutinesBut(libraryParked); live > before; live, stacks = goroutinesBut(libraryParked) {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines outlive the server (%d before):\n%s", live, before, stacks)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestWebYShowsTheTabsLink(t *testing.T) {
	_, addr := startWeb(t, Config{Runner: newBlockRunner(), Token: "class-101-token"}, false)
	a := openTab(t, addr, "token=class-101-token")
	a.waitFor(ready)
	a.key("y")
	a.waitFor("link: http://" + addr + "/?state=dpso3.")
}

// TestWebPageFrameAncestors: by default no page may frame the explorer's
// (frame-ancestors 'none': another site cannot lay it under its own, the
// clickjacking of the OWASP cheat sheet); --frame-ancestors names the
// pages that may, and a list that is not sources is refused on its flag.
func TestWebPageFrameAncestors(t *testing.T) {
	csp := func(cfg Config) string {
		_, addr := startWeb(t, cfg, false)
		for _, p := range []string{"/", "/dpso.js"} {
			resp, err := http.Get("http://" + addr + p)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			h := resp.Header.Get("Content-Security-Policy")
			if p == "/dpso.js" {
				return h
			}
			if !strings.HasSuffix(h, cfg.FrameAncestors) && cfg.FrameAncestors != "" {
				t.Fatalf("the page's CSP %q", h)
			}
		}
		return ""
	}
	if got := csp(Config{Runner: newBlockRunner()}); !strings.HasSuffix(got, "; frame-ancestors 'none'") {
		t.Fatalf("default CSP %q, want frame-ancestors 'none'", got)
	}
	if got := csp(Config{Runner: newBlockRunner(), FrameAncestors: "'self' https://slides.example.org https://*.uni.example:8443"}); !strings.HasSuffix(got, "; frame-ancestors 'self' https://slides.example.org https://*.uni.example:8443") {
		t.Fatalf("CSP %q", got)
	}
	for _, bad := range []string{"https://x.example; script-src *", "'none' 'self'", "*", "https://a.example/path", "'unsafe-inline'", "https://x\r\nSet-Cookie: a=b"} {
		_, err := New(Config{NoSSH: true, Web: "127.0.0.1:0", Parse: testParse, FrameAncestors: bad})
		if err == nil || !strings.HasPrefix(err.Error(), "--frame-ancestors: ") {
			t.Errorf("--frame-ancestors %q: %v", bad, err)
		}
	}
}
