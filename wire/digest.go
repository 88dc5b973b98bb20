package wire

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"

	"github.com/gopoly/gopoly/monopoly"
)

// digestVersion starts every digest, so that a change of the encoding
// below changes every digest rather than some.
const digestVersion = 1

// Digest is a hash over a sequence of events, every field of each (the
// words included), so that two plays can be compared by one string: a
// replay that diverges anywhere has another digest. It costs no JSON and
// allocates nothing per event.
type Digest struct {
	h   hash.Hash
	n   int
	buf [64]byte
}

// NewDigest starts a digest of no events.
func NewDigest() *Digest {
	d := &Digest{h: sha256.New()}
	d.buf[0] = digestVersion
	d.h.Write(d.buf[:1])
	return d
}

// Add hashes one event: its fields in a fixed binary layout, then the
// speech and the thought each with its length.
func (d *Digest) Add(e monopoly.Event) {
	b := d.buf[:0]
	b = append(b, byte(e.Kind), byte(e.Player), byte(e.Other), byte(e.Square), byte(e.Deck), byte(e.Card))
	flag := byte(0)
	if e.Flag {
		flag = 1
	}
	b = append(b, flag, byte(e.Reason), byte(e.Dice[0]), byte(e.Dice[1]))
	b = binary.LittleEndian.AppendUint64(b, uint64(e.Amount))
	t := &e.Trade
	b = append(b, byte(t.From), byte(t.To))
	b = binary.LittleEndian.AppendUint64(b, t.GiveSquares)
	b = binary.LittleEndian.AppendUint64(b, t.GetSquares)
	b = binary.LittleEndian.AppendUint64(b, uint64(t.GiveCash))
	b = binary.LittleEndian.AppendUint64(b, uint64(t.GetCash))
	b = append(b, t.GiveCards, t.GetCards)
	d.h.Write(b)
	d.text(e.Speech)
	d.text(e.Thought)
	d.n++
}

// text hashes a string after its length, through the buffer: converting
// it to a byte slice would allocate.
func (d *Digest) text(s string) {
	d.h.Write(binary.LittleEndian.AppendUint32(d.buf[:0], uint32(len(s))))
	for len(s) > 0 {
		k := copy(d.buf[:], s)
		d.h.Write(d.buf[:k])
		s = s[k:]
	}
}

// Count returns how many events were added.
func (d *Digest) Count() int { return d.n }

// Sum returns the digest of the events added so far, in hex. Adding more
// afterwards goes on from where it stood.
func (d *Digest) Sum() string {
	var sum [sha256.Size]byte
	return hex.EncodeToString(d.h.Sum(sum[:0]))
}
