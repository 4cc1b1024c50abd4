package serve

import (
	"errors"
	"strings"
	"testing"

	"dpso/tui"
	"dpso/tui/presets"
)

// TestBroadcastArgumentsNameWhatIsWrong: a broadcast takes --preset P
// (with --screen S, as dpso explore --preset P --screen S and a page's
// ?preset=4&screen=clip do) or a state string; what it does not take is
// named in the refusal, and --help is an answer, not a refused state
// string.
func TestBroadcastArgumentsNameWhatIsWrong(t *testing.T) {
	ts := startServer(t, Config{Runner: newBlockRunner()})
	for _, c := range []struct {
		name string
		args []string
		what string // the offer's words ("" where refused)
		err  string // the refusal's words
	}{
		{"preset on a screen", []string{"--preset", "4", "--screen", "clip"}, `preset 4 "Heavy tails`, ""},
		{"preset on a screen, =", []string{"--preset=4", "--screen=clip"}, "the clip screen of ", ""},
		{"preset alone", []string{"--preset", "4"}, `preset 4 "Heavy tails`, ""},
		{"preset on its own screen", []string{"--preset", "2", "--screen", "clip"}, `preset 2 "Clipping trades`, ""},
		{"screen without a preset", []string{"--screen", "clip"}, "", "--screen goes with --preset P"},
		{"unknown screen", []string{"--preset", "4", "--screen", "clp"}, "", `--screen: no screen "clp"`},
		{"unknown flag", []string{"--preset", "4", "--trials", "2"}, "", "--trials is not a flag of broadcast"},
		{"flag alone", []string{"--screen=clip"}, "", "--screen goes with --preset P"},
		{"flag without its value", []string{"--preset"}, "", "--preset needs a value"},
		{"two presets", []string{"--preset", "4", "--preset", "3"}, "", "--preset is given twice"},
		{"preset and state", []string{"--preset", "4", "dpso3.x"}, "", "one preset or one state string at a time"},
		{"nothing", nil, "", "give --preset P"},
	} {
		t.Run(c.name, func(t *testing.T) {
			o, err := ts.parseOffer(c.args)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("broadcast %q: %v, want a refusal saying %q", c.args, err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("broadcast %q: %v", c.args, err)
			}
			if !strings.Contains(o.what, c.what) {
				t.Fatalf("broadcast %q offers %q, want %q in it", c.args, o.what, c.what)
			}
			// A preset on its own screen is the preset: loading it runs it.
			if own := c.name == "preset on its own screen" || c.name == "preset alone"; own != (o.open == tui.OpenPreset(presets.IndexOfTitle(o.title))) {
				t.Fatalf("broadcast %q opens %#v; the preset itself: %v", c.args, o.open, own)
			}
		})
	}
	for _, h := range []string{"--help", "-h"} {
		if _, err := ts.parseOffer([]string{h}); !errors.Is(err, errOfferHelp) {
			t.Errorf("broadcast %s: %v, want the usage", h, err)
		}
	}
}

// TestBroadcastOfAPresetOnAScreen: the instructor's broadcast --preset 4
// --screen clip opens, on b, preset 4 under its title on the clip screen,
// whose sweep starts as its state string's would, and --help prints what a
// broadcast takes with status 0.
func TestBroadcastOfAPresetOnAScreen(t *testing.T) {
	teacher, student := newSigner(t), newSigner(t)
	ts := startServer(t, Config{Runner: newBlockRunner(), InstructorKey: writeKeys(t, teacher)})
	c := connect(t, ts.addr, student)
	c.waitFor(ready)

	help := connect(t, ts.addr, teacher, "broadcast", "--help")
	if code := help.exit(); code != 0 || !strings.Contains(help.printed(), "with --screen S, on screen S") {
		t.Fatalf("broadcast --help: status %d, %q", code, help.printed())
	}
	send := connect(t, ts.addr, teacher, "broadcast", "--preset", "4", "--screen", "clip")
	if code := send.exit(); code != 0 || !strings.Contains(send.printed(), "to 1 session\r\n") {
		t.Fatalf("broadcast --preset 4 --screen clip: status %d, %q", code, send.printed())
	}
	c.waitFor(": the clip screen")
	c.key("b")
	c.waitFor("preset 4: Heavy tails")
	c.waitFor("--vary clip") // the clip screen's reproduce line
}
