package vec

import (
	"encoding/binary"
	"math/bits"
)

// ClampFlagCounts counts ClampAddRows's flags after the kernel (each 0, 1
// or 2): clamped is the number of 1s (rows with a clamped entry),
// nonFinite the number of 2s (rows with a non-finite product), read eight
// flags at a time (the 1s are the set low bits of the bytes, the 2s the
// set second bits).
func ClampFlagCounts(flag []uint8) (clamped, nonFinite int) {
	const ones, twos = 0x0101010101010101, 0x0202020202020202
	i := 0
	for ; i+8 <= len(flag); i += 8 {
		w := binary.LittleEndian.Uint64(flag[i:])
		clamped += bits.OnesCount64(w & ones)
		nonFinite += bits.OnesCount64(w & twos)
	}
	for _, f := range flag[i:] {
		clamped += int(f & 1)
		nonFinite += int(f >> 1)
	}
	return clamped, nonFinite
}
