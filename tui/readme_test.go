package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestREADMECaptureCaption: the README's capture of the explorer (132×40,
// preset 1, w pressed) shows preset 1's caption whole, as the explorer
// draws it today: the title line, then the caption's rows down to the
// fold marker, unfolded, none cut.
func TestREADMECaptureCaption(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	at := strings.Index(readme, "A capture of the explorer (132×40")
	if at < 0 {
		t.Fatal("the README has no capture of the explorer at 132×40")
	}
	block := readme[at:]
	block = block[strings.Index(block, "```\n")+4:]
	block = block[:strings.Index(block, "\n```")]
	captured := strings.Split(block, "\n")

	m := newTestModel(t, &fakeRunner{points: 3}, nil, 132, 40)
	pump(t, m, m.loadPreset(0, false), func() bool { return prescReady(m) })
	// Its first screen after r, as the capture says: the caption's next
	// step is then what follows r.
	keyUntil(t, m, "r", func() bool { return m.run() != nil && settled(m) })
	m.Update(press("w"))
	rows := m.head.Rows(m.width, m.height)
	want := strings.Split(screenText(m), "\n")[:1+rows]
	if !strings.HasSuffix(strings.TrimRight(want[rows], " "), "▴ w: fold") {
		t.Fatalf("w does not unfold preset 1's caption whole at 132×40:\n%s", strings.Join(want, "\n"))
	}
	for i, l := range want {
		if i >= len(captured) || strings.TrimRight(captured[i], " ") != strings.TrimRight(l, " ") {
			got := ""
			if i < len(captured) {
				got = captured[i]
			}
			t.Errorf("the README's capture, line %d:\n  %q\nthe explorer draws:\n  %q", i+1, got, strings.TrimRight(l, " "))
		}
	}
	if next := captured[len(want)]; !strings.HasPrefix(next, "── Parameters") {
		t.Errorf("the README's capture has more caption rows than the explorer: %q", next)
	}
}
