package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

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

// plotShape is --plot-size and --plot-hide: the --plot figure's size in
// pixels and the parts it leaves out (plot.Options).
type plotShape struct {
	size, hide string
	opts       plot.Options
}

// addPlotShape adds --plot-size and, with hide, --plot-hide to fs, listed
// in --help on one line; with force, --force (which the caller added, and
// which then concerns --plot alone) joins that line.
func addPlotShape(fs *pflag.FlagSet, s *plotShape, hide, force bool) {
	fs.StringVar(&s.size, "plot-size", fmt.Sprintf("%dx%d", plot.DefaultWidth, plot.DefaultHeight),
		"size of the --plot figure in pixels, WIDTHxHEIGHT (16:9 by default, a slide's; an SVG opens at the same size)")
	if hide {
		fs.StringVar(&s.hide, "plot-hide", "", "parts to leave out of the --plot figure, comma-separated: "+strings.Join(plot.HideNames(), ", ")+
			" (a sweep's slope guides, the certificates, a run's single-trial traces)")
	}
	// What each flag does, in the order of the names on the line.
	names := []string{"plot-size"}
	what := []string{fmt.Sprintf("its size, WIDTHxHEIGHT pixels (default %dx%d, 16:9)", plot.DefaultWidth, plot.DefaultHeight)}
	if hide {
		names = append(names, "plot-hide")
		what = append(what, "the parts it leaves out ("+strings.Join(plot.HideNames(), ", ")+")")
	}
	if force {
		names = append([]string{"force"}, names...)
		what = append([]string{"replace an existing file (atomically)"}, what...)
	}
	line := "the --plot figure: " + strings.Join(what, "; ")
	for _, n := range names {
		if err := fs.SetAnnotation(n, collapseAnnotation, []string{line}); err != nil {
			panic("cli: " + err.Error()) // --force missing: caught by every test
		}
	}
}

// check reads the flags into opts, refusing them without --plot (path)
// and a value plot.ParseSize or plot.ParseHide refuses, as usage errors
// that name the flag.
func (s *plotShape) check(fs *pflag.FlagSet, path string) error {
	for _, n := range []string{"plot-size", "plot-hide"} {
		if path == "" && fs.Lookup(n) != nil && fs.Changed(n) {
			return usageErrorf("--%s: shapes the figure of --plot; give --plot FILE", n)
		}
	}
	w, h, err := plot.ParseSize(s.size)
	if err != nil {
		return usageErrorf("--plot-size: %v", err)
	}
	hide, err := plot.ParseHide(s.hide)
	if err != nil {
		return usageErrorf("--plot-hide: %v", err)
	}
	s.opts = plot.Options{Width: w, Height: h, Hide: hide}
	return nil
}

// figure is savePlot's drawing of the figure that build makes with the
// flags' options.
func (s *plotShape) figure(build func(plot.Options) (*plot.Figure, error)) func(io.Writer, plot.Format) error {
	return func(w io.Writer, f plot.Format) error {
		fig, err := build(s.opts)
		if err != nil {
			return err
		}
		return fig.Write(w, f)
	}
}
