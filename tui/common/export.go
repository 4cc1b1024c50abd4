package common

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"dpso/internal/outfile"
	"dpso/internal/plot"
	"dpso/internal/report"
)

// ExportJob is what e writes: the result on the screen shown, as PNG and
// SVG figures (internal/plot, the CLI's --plot code: 16:9, 1920×1080) and
// as JSON, exactly the document the CLI's --json prints for it (package
// internal/report).
type ExportJob struct {
	Base string // the file names' last part: run-acsa, compare, sweep, audit, moments
	Data any    // the JSON document: report.Run, report.Comparison, report.Sweep's, report.Audit's or report.Moments'
	// draw writes a figure (PNG or SVG); nil: the JSON alone (an audit,
	// which the CLI does not plot either).
	Draw DrawFunc
	// load, when set, computes data and draw off the UI loop when the
	// export runs (the moment profile's document takes a second).
	Load func() (data any, draw DrawFunc, err error)
}

// DrawFunc writes a figure in a format.
type DrawFunc func(w io.Writer, f plot.Format) error

// exts are the files x writes.
func (x *ExportJob) exts() []string {
	if x.Draw == nil && x.Load == nil {
		return []string{".json"}
	}
	return []string{".png", ".svg", ".json"}
}

// ExportedMsg reports the files an export wrote, or its error.
type ExportedMsg struct {
	paths []string
	err   error
}

// RunExport writes x into dir (the current directory when "") with a
// timestamped name that does not overwrite another export, off the UI
// loop; its message is an exportedMsg.
func RunExport(x *ExportJob, dir string, now time.Time) tea.Cmd {
	if dir == "" {
		dir = "."
	}
	stem := filepath.Join(dir, "dpso-"+now.Format("20060102-150405")+"-"+x.Base)
	return func() (msg tea.Msg) {
		defer func() {
			if p := recover(); p != nil {
				msg = ExportedMsg{err: fmt.Errorf("internal error: %v", p)}
			}
		}()
		if x.Load != nil {
			data, draw, err := x.Load()
			if err != nil {
				return ExportedMsg{err: err}
			}
			x = &ExportJob{Base: x.Base, Data: data, Draw: draw}
		}
		js, err := report.MarshalJSON(x.Data)
		if err != nil {
			return ExportedMsg{err: err}
		}
		// Each file is created exclusively under the first free stem
		// (never over another export, never through a planted link),
		// atomically: see internal/outfile.
		paths, err := outfile.WriteSet(stem, x.exts(), func(ext string, w io.Writer) error {
			if ext == ".json" {
				_, err := w.Write(js)
				return err
			}
			return x.Draw(w, plot.Format(strings.TrimPrefix(ext, ".")))
		})
		return ExportedMsg{paths: paths, err: err}
	}
}

// ExportStatus is the status line of an export's outcome.
func ExportStatus(msg ExportedMsg) StatusMsg {
	if msg.err != nil {
		return StatusMsg{Text: "export failed: " + msg.err.Error(), Err: true}
	}
	// The file names first, their folder after: on a narrow status bar
	// the folder is what is cut (the help shows the line in full).
	dir, first := filepath.Split(msg.paths[0])
	names := first
	if len(msg.paths) > 1 {
		exts := make([]string, len(msg.paths))
		for i, p := range msg.paths {
			exts[i] = strings.TrimPrefix(filepath.Ext(p), ".")
		}
		names = strings.TrimSuffix(first, filepath.Ext(first)) + ".{" + strings.Join(exts, ",") + "}"
	}
	where := filepath.Clean(dir)
	if where == "." {
		where = "the current folder"
	}
	// The shorter form for a narrow bar: the files' kinds.
	kinds := make([]string, len(msg.paths))
	for i, p := range msg.paths {
		kinds[i] = strings.ToUpper(strings.TrimPrefix(filepath.Ext(p), "."))
	}
	return StatusMsg{Text: "exported " + names + " in " + where, Short: "exported " + strings.Join(kinds, ", ")}
}
