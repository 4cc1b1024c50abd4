package solvers

import (
	crand "crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/rand/v2"

	"dpso/solvers/noise"
)

// RandMode says where a run's randomness comes from. It is part of every
// result.
type RandMode int

const (
	// Seeded streams are keyed by SHA-256(seed, trial, purpose)
	// ([StreamKey]): reproducible bit for bit, whatever the number of
	// goroutines. The privacy noise ([NewRand], purpose "noise") is ChaCha8;
	// synthetic data may use any generator keyed the same way (the
	// scenarios use a fast xoshiro256++ stream). Its Gaussian noise is
	// the floating-point ziggurat (NormFloat64), whose low-order bits
	// depend on the value it is added to (Mironov 2012), and anyone with
	// the seed can remove it: a seeded run demonstrates the algorithm; it
	// is not a deployable privacy mechanism.
	Seeded RandMode = iota
	// Secure streams are keyed from crypto/rand; runs are not
	// reproducible. The noise is then ChaCha8 keyed from crypto/rand, a
	// cryptographically secure generator (synthetic data keyed from
	// crypto/rand may use a faster, non-cryptographic generator: they are
	// not secret), and every Gaussian noise is exact: a release is the
	// lattice point round_γ(v + σ̃Z) with Z ~ N(0, 1) sampled exactly and
	// σ̃ ≥ σ (package dpso/solvers/noise), a post-processing of the
	// Gaussian mechanism at σ, which its privacy statements cover as they
	// stand.
	Secure
)

// String is the mode's name as used on flags and in JSON.
func (m RandMode) String() string {
	switch m {
	case Seeded:
		return "seeded"
	case Secure:
		return "secure"
	}
	return fmt.Sprintf("RandMode(%d)", int(m))
}

// Label is the one-line description shown beside results.
func (m RandMode) Label() string {
	switch m {
	case Seeded:
		return "seeded (reproducible; not hardened against floating-point attacks on the Gaussian sampler)"
	case Secure:
		return "secure randomness, keyed from crypto/rand, Gaussian noise exact on a lattice: not reproducible"
	}
	return m.String()
}

// ParseRandMode parses "seeded" or "secure".
func ParseRandMode(s string) (RandMode, error) {
	switch s {
	case "seeded":
		return Seeded, nil
	case "secure":
		return Secure, nil
	}
	return 0, fmt.Errorf("unknown randomness mode %q (want seeded or secure)", s)
}

// NewRand returns the random stream of one purpose ("data", "noise", "eval",
// …) of one trial. In Seeded mode the ChaCha8 key is SHA-256(seed, trial,
// purpose), so distinct purposes and trials are independent streams and the
// same triple always gives the same stream. In Secure mode the key comes
// from crypto/rand and seed, trial and purpose are ignored.
func NewRand(mode RandMode, seed uint64, trial int, purpose string) *rand.Rand {
	return rand.New(rand.NewChaCha8(StreamKey(mode, seed, trial, purpose)))
}

// NewNoise is NewRand's stream with the way its Gaussian noise is drawn:
// exact on a lattice in Secure mode, floating point in Seeded mode (package
// dpso/solvers/noise), for the private estimators that draw from it.
func NewNoise(mode RandMode, seed uint64, trial int, purpose string) *noise.Stream {
	return noise.NewStream(NewRand(mode, seed, trial, purpose), mode == Secure)
}

// StreamKey is the 32-byte key of the stream of one purpose of one trial:
// SHA-256("dpso/v1", seed, trial, purpose) in Seeded mode, 32 bytes of
// crypto/rand in Secure mode. [NewRand] uses it as a ChaCha8 key.
func StreamKey(mode RandMode, seed uint64, trial int, purpose string) [32]byte {
	var key [32]byte
	if mode == Secure {
		crand.Read(key[:]) // never returns an error (Go ≥ 1.24)
		return key
	}
	h := sha256.New()
	var buf [16]byte
	binary.LittleEndian.PutUint64(buf[:8], seed)
	binary.LittleEndian.PutUint64(buf[8:], uint64(trial))
	h.Write([]byte("dpso/v1\x00"))
	h.Write(buf[:])
	h.Write([]byte(purpose))
	copy(key[:], h.Sum(nil))
	return key
}
