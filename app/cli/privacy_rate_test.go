package cli

import (
	"context"
	"strings"
	"syscall"
	"testing"
)

// TestPrivacyHighSamplingRate: `dpso privacy --accountant … --target-eps
// 4.37718 --sampling-rate 0.7 --steps 2` answered nothing (its
// calibration never returned, and ignored Ctrl-C and SIGTERM); every
// accountant and adjacency answers, with a σ whose ε' meets the target.
func TestPrivacyHighSamplingRate(t *testing.T) {
	for _, acc := range []string{"rdp", "pld"} {
		for _, adj := range []string{"replace-one", "add-remove"} {
			t.Run(acc+"/"+adj, func(t *testing.T) {
				code, out, errs := execTheoryCLI("privacy", "--accountant", acc, "--adjacency", adj, "--target-eps", "4.37718", "--sampling-rate", "0.7", "--steps", "2")
				if code != 0 || !strings.Contains(out, "noise multiplier σ") {
					t.Errorf("status %d, stdout %q, stderr %q", code, out, errs)
				}
			})
		}
	}
}

// TestPrivacyCalibrationInterrupted: Ctrl-C or SIGTERM during the
// calibration (the context cancelled, with the signal as its cause, the
// first time the calibration consults it) ends `dpso privacy` with the
// signal's status, one line on stderr and nothing on stdout.
func TestPrivacyCalibrationInterrupted(t *testing.T) {
	saved := interruptContext
	defer func() { interruptContext = saved }()
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			interruptContext = func() (context.Context, context.CancelFunc) {
				ctx, cancel := context.WithCancelCause(context.Background())
				return &onFirstUse{Context: ctx, use: func() { cancel(&signalCause{sig: sig}) }}, func() { cancel(nil) }
			}
			code, out, errs := dpsoCLI("privacy", "--accountant", "pld", "--target-eps", "4.37718", "--sampling-rate", "0.7", "--steps", "2")
			if code != 128+int(sig) || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "interrupted") {
				t.Errorf("status %d, stdout %q, stderr %q: want %d, nothing, one line", code, out, errs, 128+int(sig))
			}
		})
	}
}
