package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"dpso/internal/outfile"
	"dpso/internal/plot"
)

// plotMode is the outfile mode of --plot: replace an existing file only
// with --force.
func plotMode(force bool) outfile.Mode {
	if force {
		return outfile.Replace
	}
	return outfile.Create
}

// checkPlot checks before a long run that the figure's file can be
// written (outfile.Check: the folder is writable; an existing file is
// refused without --force; a link or folder always), touching nothing at
// path. A refusal is a usage error (exit status 2).
func checkPlot(path string, force bool) error {
	if path == "" {
		return nil
	}
	if err := outfile.Check(path, plotMode(force)); err != nil {
		var te *outfile.TargetError
		if errors.As(err, &te) {
			return plotError(path, err)
		}
		return usageErrorf("--plot: %v", err) // a missing or read-only folder
	}
	return nil
}

// plotError is a --plot failure: a refused target is the user's input
// (status 2), a failed write (a full disk) status 1; either way the file
// at path, if any, is as it was.
func plotError(path string, err error) error {
	var te *outfile.TargetError
	if errors.As(err, &te) {
		return usageErrorf("--plot: %s", te.Msg)
	}
	return fmt.Errorf("--plot: %v (no file written)", err)
}

// savePlot writes the figure through outfile.Write (atomic; see
// checkPlot for what is refused); a signal during the write (ctx, of
// interruptContext) removes the unfinished file and ends the command as
// the signal does.
func savePlot(ctx context.Context, cmd, path string, force bool, draw func(io.Writer, plot.Format) error) error {
	format, err := plot.FormatOf(path)
	if err != nil {
		return usageErrorf("--plot: %v", err)
	}
	if err := outfile.WriteContext(ctx, path, plotMode(force), func(w io.Writer) error { return draw(w, format) }); err != nil {
		if ctx.Err() != nil {
			return errInterrupted(ctx, cmd)
		}
		return plotError(path, err)
	}
	return nil
}
