package engine

import (
	"context"
	"errors"

	"dpso/solvers"
)

// prefixSamples is the first n samples of a dataset: the rows a search's
// candidates train on (the rest are its validation rows). It keeps the
// dataset's chunks (solvers.Chunked), cut at n.
type prefixSamples struct {
	s solvers.Samples
	n int
}

func (p *prefixSamples) Len() int       { return p.n }
func (p *prefixSamples) SampleDim() int { return p.s.SampleDim() }

func (p *prefixSamples) Open() solvers.SampleReader {
	return &prefixReader{r: p.s.Open(), left: p.n}
}

type prefixReader struct {
	r    solvers.SampleReader
	left int
}

func (r *prefixReader) Next(x []float64) bool {
	if r.left == 0 {
		return false
	}
	r.left--
	return r.r.Next(x)
}

// chunkedPrefix is a prefixSamples of a chunked dataset.
type chunkedPrefix struct {
	prefixSamples
	c solvers.Chunked
}

func (p *chunkedPrefix) ChunkLen() int { return p.c.ChunkLen() }

func (p *chunkedPrefix) NewChunkReader() solvers.ChunkReader {
	return &prefixChunks{r: p.c.NewChunkReader(), n: p.n, l: p.c.ChunkLen(), sd: p.s.SampleDim()}
}

// prefixChunks reads chunk c of the prefix: the dataset's chunk c, cut at
// sample n.
type prefixChunks struct {
	r        solvers.ChunkReader
	n, l, sd int
	i        int // the next sample's index
}

func (r *prefixChunks) Seek(c int) {
	r.r.Seek(c)
	r.i = c * r.l
}

func (r *prefixChunks) Read(buf []float64) int {
	left := r.n - r.i
	if left <= 0 {
		return 0
	}
	if m := left * r.sd; len(buf) > m {
		buf = buf[:m]
	}
	k := r.r.Read(buf)
	r.i += k
	return k
}

// prefix is the first n samples of s, chunked when s is; of a matrix, the
// matrix of its first n rows, read in place (the same chunks: a matrix's
// are solvers.ChunkLenFor its rows, as a stream's are).
func prefix(s solvers.Samples, n int) solvers.Samples {
	if m, ok := s.(*solvers.Matrix); ok {
		return &solvers.Matrix{Data: m.Data[: n*m.Dim : n*m.Dim], Dim: m.Dim}
	}
	p := prefixSamples{s: s, n: n}
	if c, ok := s.(solvers.Chunked); ok {
		return &chunkedPrefix{prefixSamples: p, c: c}
	}
	return &p
}

// suffixRows reads samples [from, s.Len()) of s into a matrix: a search's
// validation rows (of a matrix, its rows read in place).
func suffixRows(ctx context.Context, s solvers.Samples, from int) (*solvers.Matrix, error) {
	sd := s.SampleDim()
	if m, ok := s.(*solvers.Matrix); ok {
		return &solvers.Matrix{Data: m.Data[from*sd:], Dim: sd}, nil
	}
	m := &solvers.Matrix{Dim: sd, Data: make([]float64, (s.Len()-from)*sd)}
	x := make([]float64, sd)
	rd := s.Open()
	for i := range s.Len() {
		if i%65536 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if !rd.Next(x) {
			return nil, errors.New("engine: the dataset ended early (a bug)")
		}
		if i >= from {
			copy(m.Data[(i-from)*sd:], x)
		}
	}
	return m, nil
}
