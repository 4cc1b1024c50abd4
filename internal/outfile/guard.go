package outfile

import (
	"context"
	"io"
	"os"
	"sync"
)

// live are the temporary files being written, removed by RemoveTemps.
var live struct {
	sync.Mutex
	paths map[string]bool
}

func track(tmp string) {
	live.Lock()
	defer live.Unlock()
	if live.paths == nil {
		live.paths = map[string]bool{}
	}
	live.paths[tmp] = true
}

func untrack(tmp string) {
	live.Lock()
	defer live.Unlock()
	delete(live.paths, tmp)
}

// RemoveTemps removes every temporary file a Write has not finished, for
// a process that ends before its writes do (a signal's exit path); the
// Writes under way then fail.
func RemoveTemps() {
	live.Lock()
	defer live.Unlock()
	for p := range live.paths {
		os.Remove(p)
		delete(live.paths, p)
	}
}

// inputs are the files this process reads (Protect), which no Write may
// replace.
var inputs struct {
	sync.Mutex
	files []protected
}

type protected struct {
	fi   os.FileInfo
	what string
}

// Protect records path as an input of this process (what names it for a
// message, e.g. "--data"): Check and Write then refuse it as a target,
// whatever name reaches it (the same path, a hard link: os.SameFile). A
// path that does not exist is ignored.
func Protect(path, what string) {
	fi, err := os.Stat(path)
	if err != nil {
		return
	}
	inputs.Lock()
	defer inputs.Unlock()
	inputs.files = append(inputs.files, protected{fi: fi, what: what})
}

// Unprotect forgets every input recorded by Protect (for tests and for a
// process that runs several commands).
func Unprotect() {
	inputs.Lock()
	defer inputs.Unlock()
	inputs.files = nil
}

// inputOf returns what names the input fi is, or "".
func inputOf(fi os.FileInfo) string {
	inputs.Lock()
	defer inputs.Unlock()
	for _, p := range inputs.files {
		if os.SameFile(p.fi, fi) {
			return p.what
		}
	}
	return ""
}

// ctxWriter fails every write once ctx is done, so that a cancelled
// Write stops at its next write.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}
