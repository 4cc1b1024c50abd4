package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// interruptSignals cancel a command: Ctrl-C (SIGINT), and SIGTERM and
// SIGHUP (a terminated job, a closed terminal), so that a command stops
// at its next check and an unfinished file is removed (internal/outfile)
// rather than left behind by the signal's default action.
var interruptSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// signalCause is the cause of a context cancelled by a signal.
type signalCause struct{ sig os.Signal }

func (c *signalCause) Error() string { return "cancelled by " + signalWords(c.sig) }

// signalWords names a signal as the user knows it.
func signalWords(s os.Signal) string {
	switch s {
	case os.Interrupt:
		return "Ctrl-C"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return s.String()
}

// interruptContext is cancelled by one of interruptSignals, with the
// signal as its cause (a variable so that tests can cancel without a
// signal).
var interruptContext = func() (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(context.Background())
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, interruptSignals...)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-ch:
			cancel(&signalCause{sig: s})
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel(nil)
	}
}

// errInterrupted ends a command cancelled by ctx: status 128 + the
// signal's number (130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP; 130
// when the context names no signal).
func errInterrupted(ctx context.Context, cmd string) error {
	var sc *signalCause
	if errors.As(context.Cause(ctx), &sc) {
		if s, ok := sc.sig.(syscall.Signal); ok {
			return &exitError{code: 128 + int(s), msg: fmt.Sprintf("interrupted: %s cancelled by %s, no result written", cmd, signalWords(s))}
		}
	}
	return &exitError{code: 130, msg: "interrupted: " + cmd + " cancelled by Ctrl-C, no result written"}
}
