package serve

import (
	"strings"
	"testing"

	"dpso/tui"
)

// TestWebEGivesTheLinksWayToTheFiles: e in a browser tab exports nothing
// (the files would land on the server) and says where the state string
// that opens the screen elsewhere is — in the link y gives there, after
// its state= —, not that y gives a state string, which it does not in a
// server that serves browsers.
func TestWebEGivesTheLinksWayToTheFiles(t *testing.T) {
	_, addr := startWeb(t, Config{Runner: newBlockRunner(), Token: "class-101-token"}, false)
	a := openTab(t, addr, "token=class-101-token")
	a.waitFor(ready)
	a.key("e")
	a.waitFor("e exports nothing in a browser tab")
	a.waitFor("y gives a link")
}

// TestBroadcastUsageNamesTheScreens: what a broadcast takes, as its
// --help and a refused one say, names every screen --screen S may be.
func TestBroadcastUsageNamesTheScreens(t *testing.T) {
	ts := startServer(t, Config{Runner: newBlockRunner()})
	_, err := ts.parseOffer(nil)
	if err == nil {
		t.Fatal("a broadcast of nothing is not refused")
	}
	for _, s := range tui.ScreenNames() {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("the broadcast's usage %q does not name the screen %s", err, s)
		}
	}
}
