package tui

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/term"

	"dpso/tui/input"
)

// SignalError is what [Run] returns when a signal (SIGINT, SIGTERM,
// SIGHUP, SIGQUIT) closed the explorer; the terminal has been restored.
type SignalError struct{ Signal syscall.Signal }

func (e *SignalError) Error() string {
	return fmt.Sprintf("the explorer was closed by %s (the terminal is restored)", signalName(e.Signal))
}

// ExitCode is the shell's status for a process ended by the signal:
// 128 + its number (130 for SIGINT).
func (e *SignalError) ExitCode() int { return 128 + int(e.Signal) }

// signalName is the signal's conventional name.
func signalName(s syscall.Signal) string {
	switch s {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	case syscall.SIGQUIT:
		return "SIGQUIT"
	}
	return s.String()
}

// closingSignals are the signals that close the explorer cleanly: its
// terminal is restored (cooked mode, main screen, cursor shown) before
// dpso exits. Ctrl-C typed in the explorer is a key (the terminal is raw),
// not a signal: it quits with status 0.
var closingSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}

// killAfter is how long a signal waits for the program to quit through
// its event loop before the program is killed (which also restores the
// terminal).
const killAfter = time.Second

// terminalInput is the terminal the explorer reads: standard input if it
// is one, else the controlling terminal.
func terminalInput() (input.File, error) {
	if term.IsTerminal(os.Stdin.Fd()) {
		return os.Stdin, nil
	}
	in, _, err := tea.OpenTTY()
	if err != nil {
		return nil, fmt.Errorf("cannot open the terminal: %w", err)
	}
	return in, nil
}

// runProgram runs the explorer's program on the terminal, its input
// through input.Guard, until the user quits, ctx is done or a closing
// signal arrives.
func runProgram(ctx context.Context, m *Model) error {
	in, err := terminalInput()
	if err != nil {
		return err
	}
	// The program's output is standard output in this process's
	// environment, whose colour profile lipgloss detected at start
	// (lipgloss.Writer): given to the program, it is not detected again
	// (inside tmux each detection runs `tmux info`, about 30 ms).
	p := tea.NewProgram(m, tea.WithContext(ctx), tea.WithInput(input.NewGuard(in, nil)), tea.WithoutSignalHandler(),
		tea.WithColorProfile(lipgloss.Writer.Profile))

	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, closingSignals...)
	defer signal.Stop(sigs)
	var (
		mu     sync.Mutex
		caught syscall.Signal
		wg     sync.WaitGroup
	)
	done := make(chan struct{})
	wg.Go(func() {
		select {
		case s := <-sigs:
			mu.Lock()
			caught = s.(syscall.Signal)
			mu.Unlock()
			go p.Send(tea.Interrupt())
			select {
			case <-done:
			case <-time.After(killAfter):
				p.Kill()
			}
		case <-done:
		}
	})
	_, err = p.Run()
	close(done)
	wg.Wait()
	m.runs.Cancel()
	mu.Lock()
	defer mu.Unlock()
	switch {
	case caught != 0:
		return &SignalError{Signal: caught}
	case err != nil && ctx.Err() != nil:
		return nil // the caller's context: its quit
	}
	return err
}

// Run starts the explorer on the terminal and returns when the user
// quits. The colours follow NO_COLOR and the terminal's background
// (asked for at start; COLORFGBG is the first guess).
func Run(ctx context.Context, opts Options) error {
	if _, ok := os.LookupEnv("NO_COLOR"); ok {
		opts.Plain = true
	}
	if !opts.Light {
		opts.Light = lightFromColorFGBG(os.Getenv("COLORFGBG"))
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // every run and prescription ends with the program
	m, err := New(ctx, opts)
	if err != nil {
		return err
	}
	return runProgram(ctx, m)
}

// lightFromColorFGBG reads COLORFGBG ("fg;bg" or "fg;default;bg", set by
// some terminals): a background colour 7 or 9–15 is light.
func lightFromColorFGBG(v string) bool {
	if v == "" {
		return false
	}
	parts := strings.Split(v, ";")
	switch parts[len(parts)-1] {
	case "7", "9", "10", "11", "12", "13", "14", "15":
		return true
	}
	return false
}

// LightFromColorFGBG reads the COLORFGBG variable some terminals set
// ("fg;bg" or "fg;default;bg"): a background colour 7 or 9–15 is light.
func LightFromColorFGBG(v string) bool { return lightFromColorFGBG(v) }
