package solvers

import "math/rand/v2"

// Stream is the tests' plain Samples: a synthetic dataset of N samples of
// length Dim, each written by Draw from one ChaCha8 stream keyed by Key;
// every Open replays the same sequence from the start, so a streamed
// dataset costs O(Dim) memory and every solver of a trial sees the same
// draws (common random numbers). Draw must write all of x without
// allocating and draw only from r.
type Stream struct {
	N, Dim int
	Key    [32]byte
	Draw   func(r *rand.Rand, x []float64)
}

// Len is N (Samples).
func (s *Stream) Len() int { return s.N }

// SampleDim is Dim (Samples).
func (s *Stream) SampleDim() int { return s.Dim }

// Open starts the sequence over (Samples).
func (s *Stream) Open() SampleReader {
	return &streamReader{s: s, r: rand.New(rand.NewChaCha8(s.Key))}
}

type streamReader struct {
	s *Stream
	r *rand.Rand
	i int
}

func (r *streamReader) Next(x []float64) bool {
	if r.i >= r.s.N {
		return false
	}
	r.s.Draw(r.r, x)
	r.i++
	return true
}
