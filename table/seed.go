package table

import (
	"crypto/rand"
	"encoding/binary"
)

// RandomSeed draws a new game's seed: a whole number JSON carries
// exactly (below 2^53), so that every client can repeat the game.
func RandomSeed() uint64 {
	var b [8]byte
	rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:]) >> 11
}
