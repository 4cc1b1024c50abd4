package serve

import (
	"net/url"
	"strings"
	"testing"
)

// TestWebBannerQueryJoinsTheAddress checks that the query the banner
// suggests can be added to the address it prints as written: after "?"
// on a tokenless address, after "&" when the address already carries the
// class token (a "&preset=3" on "http://127.0.0.1:8097/" names no page).
func TestWebBannerQueryJoinsTheAddress(t *testing.T) {
	for _, tc := range []struct {
		name, token, want string
	}{
		{"no token", "", "add ?preset=3 or ?state=S"},
		{"token", "physics101", "add &preset=3 or &state=S"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, err := newWebServer(nil, &Config{Web: "127.0.0.1:8097", Token: tc.token})
			if err != nil {
				t.Fatal(err)
			}
			b := w.banner("127.0.0.1:8097")
			if !strings.Contains(b, tc.want) {
				t.Fatalf("banner lacks %q:\n%s", tc.want, b)
			}
			first := strings.TrimPrefix(strings.SplitN(b, "\n", 2)[0], "web: ")
			sep := strings.Fields(strings.SplitN(tc.want, "add ", 2)[1])[0]
			u, err := url.Parse(first + sep)
			if err != nil {
				t.Fatal(err)
			}
			if u.Path != "/" || u.Query().Get("preset") != "3" {
				t.Fatalf("%s%s: path %q, preset %q; want / and 3", first, sep, u.Path, u.Query().Get("preset"))
			}
		})
	}
}
