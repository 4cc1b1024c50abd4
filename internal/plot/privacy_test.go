package plot

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"dpso/internal/engine"
	"dpso/internal/spec"
)

// TestFiguresSayWhatIsNotPrivate: a figure of a run on user data labels
// its curves a non-private diagnostic, and one of a run with seeded noise
// on user data says NOT PRIVATE in its title; a
// scenario's figure says neither.
func TestFiguresSayWhatIsNotPrivate(t *testing.T) {
	p := filepath.Join(t.TempDir(), "rows.csv")
	os.WriteFile(p, []byte("a,y\n1,0.5\n-1,0.2\n0.5,-0.3\n0.2,0.9\n-0.7,0.1\n0.3,0.3\n"), 0o644)
	draw := func(s spec.Spec) string {
		r, err := s.Resolve()
		if err != nil {
			t.Fatal(err)
		}
		rep, err := engine.Run(context.Background(), r, nil)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := WriteRun(&b, SVG, rep); err != nil {
			t.Fatal(err)
		}
		return svgText(t, b.Bytes())
	}
	user := spec.Spec{Data: p, Rk: 2, Beta: 1, Trials: 2}
	txt := draw(user)
	if !strings.Contains(txt, "non-private diagnostic") || strings.Contains(txt, "NOT PRIVATE") {
		t.Errorf("user data, secure: figure text lacks the diagnostic label or says NOT PRIVATE:\n%s", txt)
	}
	// Secure randomness (the default on user data) reads no seed: the
	// title names the mode, not a seed.
	if strings.Contains(txt, "seed") || !strings.Contains(txt, "secure randomness") {
		t.Errorf("user data, secure: the title states a seed or not the mode:\n%s", txt)
	}
	// The title's n and d are the file's (its d read 0, the Spec's).
	if !strings.Contains(txt, "n = 6, d = 1, k = 2") {
		t.Errorf("user data: the title does not give the file's n = 6, d = 1:\n%s", txt)
	}
	r, err := user.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	sw, err := engine.Sweep(context.Background(), r, engine.SweepSpec{Param: spec.SweepEps, From: 0.5, To: 2, Points: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteSweep(&b, SVG, sw); err != nil {
		t.Fatal(err)
	}
	if txt := svgText(t, b.Bytes()); !strings.Contains(txt, "n = 6, d = 1, k = 2") {
		t.Errorf("user data sweep: the title does not give the file's n = 6, d = 1:\n%s", txt)
	} else if strings.Contains(txt, "seed") || !strings.Contains(txt, "secure randomness") {
		t.Errorf("user data sweep, secure: the title states a seed or not the mode:\n%s", txt)
	}
	user.Rand = "seeded"
	if txt := draw(user); !strings.Contains(txt, "NOT PRIVATE") || !strings.Contains(txt, "seeded noise on user data") {
		t.Errorf("user data, seeded: figure text does not say NOT PRIVATE:\n%s", txt)
	}
	if txt := draw(spec.Spec{Scenario: "linreg-t", D: 2, N: 500, Trials: 2}); strings.Contains(txt, "NOT PRIVATE") || strings.Contains(txt, "diagnostic") {
		t.Errorf("scenario figure carries user-data labels:\n%s", txt)
	}
}
