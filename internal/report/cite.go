package report

import (
	"bytes"
	"io"

	"dpso/theory"
)

// citeWriter passes the lines written to it through theory.Cite, so that
// a table cites the paper as its PDF numbers it ("Theorem 9", not the
// LaTeX label "thm: convex ACSA one pass"); JSON keeps the labels in its
// "source" fields beside the numbers. A line is written when its newline
// is; close writes the rest.
type citeWriter struct {
	w   io.Writer
	buf []byte
}

// citing wraps w; the caller closes it.
func citing(w io.Writer) *citeWriter { return &citeWriter{w: w} }

func (c *citeWriter) Write(p []byte) (int, error) {
	c.buf = append(c.buf, p...)
	i := bytes.LastIndexByte(c.buf, '\n')
	if i < 0 {
		return len(p), nil
	}
	if _, err := io.WriteString(c.w, theory.Cite(string(c.buf[:i+1]))); err != nil {
		return 0, err
	}
	c.buf = append(c.buf[:0], c.buf[i+1:]...)
	return len(p), nil
}

// close writes what is left and returns err, or the write's error.
func (c *citeWriter) close(err error) error {
	if len(c.buf) > 0 {
		_, werr := io.WriteString(c.w, theory.Cite(string(c.buf)))
		c.buf = nil
		if err == nil {
			err = werr
		}
	}
	return err
}
