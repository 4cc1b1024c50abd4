package cli

import (
	"context"
	"os"
	"os/signal"
)

// interruptContext is cancelled by Ctrl-C (a variable so that tests can
// cancel without a signal).
var interruptContext = func() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt)
}

// errInterrupted ends a cancelled command with status 130.
func errInterrupted(cmd string) error {
	return &exitError{code: 130, msg: "interrupted: " + cmd + " cancelled by Ctrl-C, no result written"}
}
