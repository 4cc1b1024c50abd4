package tui

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"dpso/tui/presets"
	"dpso/tui/runs"
)

// TestTeachingLinksSayWhatOpens: every page link of docs/teaching.md's
// table that names a screen (?preset=P&screen=S, which the page turns
// into dpso explore --preset P --screen S) says truly whether the
// screen's run starts on opening: the explorer opened on those options
// is let run until nothing is in flight, and a line whose screen started
// its run must say so ("runs on opening"), never "r runs it"; one whose
// screen waits must not claim a run.
func TestTeachingLinksSayWhatOpens(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "docs", "teaching.md"))
	if err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`(?m)^https://HOST:8443/\?(\S*screen=\S*)\s+(.+)$`)
	found := line.FindAllStringSubmatch(string(b), -1)
	if len(found) == 0 {
		t.Fatal("docs/teaching.md has no page link that names a screen")
	}
	for _, f := range found {
		t.Run(f[1], func(t *testing.T) {
			q, err := url.ParseQuery(f[1])
			if err != nil {
				t.Fatal(err)
			}
			i, err := presets.Index(q.Get("preset"))
			if err != nil {
				t.Fatal(err)
			}
			opts := testOpts(t, &fakeRunner{points: 3}, 0)
			opts.Preset, opts.PresetRun, opts.Screen = i, true, q.Get("screen")
			m, err := New(context.Background(), opts)
			if err != nil {
				t.Fatal(err)
			}
			m.Update(tea.WindowSizeMsg{Width: 120, Height: 32})
			pump(t, m, m.initCmd, func() bool { return prescReady(m) })
			quiesce(t, m)
			ran := m.runs.Last(m.family()) != nil
			words := f[2]
			switch {
			case ran && (strings.Contains(words, "r runs it") || !strings.Contains(words, "runs on opening")):
				t.Errorf("the screen's run starts on opening; the link's words: %q", words)
			case !ran && strings.Contains(words, "runs on opening"):
				t.Errorf("the screen waits for r; the link's words: %q", words)
			}
			if m.shownKind() != runs.ScreenKind(q.Get("screen")) {
				t.Errorf("the link opens %s, not its screen %s", m.shownKind(), q.Get("screen"))
			}
		})
	}
}

// quiesce feeds m the messages of the commands a pump launched until
// none is in flight and none is queued: whatever the explorer started by
// itself has ended.
func quiesce(t *testing.T, m *Model) {
	t.Helper()
	pumpMu.Lock()
	q := pumpQueues[m]
	pumpMu.Unlock()
	if q == nil {
		return
	}
	pump(t, m, nil, func() bool { return q.inFlight.Load() == 0 && len(q.msgs) == 0 })
}
