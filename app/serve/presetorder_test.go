package serve

import (
	"context"
	"strings"
	"testing"

	"dpso/internal/engine"
	"dpso/internal/spec"
	"dpso/tui"
	"dpso/tui/backend"
)

// orderedRunner is blockRunner telling log, in the order the pool lets
// them through to it, each prescription ("constants") and each run.
type orderedRunner struct {
	*blockRunner
	log chan string
}

func (o *orderedRunner) Prescribe(ctx context.Context, r spec.Resolved) (*engine.Prescription, error) {
	o.log <- "constants"
	return o.blockRunner.Prescribe(ctx, r)
}

func (o *orderedRunner) Run(ctx context.Context, c backend.Call, set *engine.Settings) (backend.Result, error) {
	o.log <- "run"
	return o.blockRunner.Run(ctx, c, set)
}

// TestPresetsRunWaitsForItsConstantsOnTheSlots: on a server of one CPU
// slot held by another session's run, a student who opens preset 1 (its
// comparison starts as it loads) sees its constants queued and its
// comparison waiting for them — "queued (position 1): the constants,
// then acsa vs lipschitz-dpsgd starts" on the status bar, the theorem panel's
// constants queued at the same place, nothing running and no second
// place in the queue — and the pool is asked for the comparison only
// once the constants are computed: constants, then the run.
func TestPresetsRunWaitsForItsConstantsOnTheSlots(t *testing.T) {
	o := &orderedRunner{blockRunner: newBlockRunner(), log: make(chan string, 16)}
	parse := func(args []string) (tui.Options, error) {
		if len(args) == 1 && args[0] == "--preset-1" {
			return tui.Options{Preset: 0, PresetRun: true}, nil
		}
		return testParse(args)
	}
	ts := startServer(t, Config{Runner: o, CPUs: 1, SessionWorkers: 1, Parse: parse})
	a := connect(t, ts.addr, newSigner(t))
	a.waitFor(ready)
	a.waitGone("computing")
	a.key("r")
	<-o.started
	a.waitFor("● running")
	for _, want := range []string{"constants", "run"} {
		if got := <-o.log; got != want {
			t.Fatalf("the first session's calls reached the runner as %q, want %q", got, want)
		}
	}
	b := connect(t, ts.addr, newSigner(t), "--preset-1")
	b.waitFor("◌ queued (position 1): the constants, then acsa vs lipschitz-dpsgd starts")
	scr := b.screen()
	for _, want := range []string{"◌ queued (position 1) for a CPU slot", "waiting"} {
		if !strings.Contains(scr, want) {
			t.Errorf("while the constants are queued the screen does not say %q:\n%s", want, scr)
		}
	}
	for _, bad := range []string{"● running", "position 2"} {
		if strings.Contains(scr, bad) {
			t.Errorf("the preset's run is asked for ahead of its constants (%q):\n%s", bad, scr)
		}
	}
	close(o.release)
	for _, want := range []string{"constants", "run"} {
		if got := <-o.log; got != want {
			t.Fatalf("the preset's calls reached the runner as %q, want %q", got, want)
		}
	}
}
