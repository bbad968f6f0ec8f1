package ai

import (
	"sync/atomic"

	"github.com/hivebridge/hivebridge/core"
)

// The transposition table is shared by every thread of a Lazy SMP search
// without locks. Each slot is two atomic words: the entry packed in one, and
// the position's key XORed with the entry in the other. A reader that finds
// the pair torn by two writers racing (the words of different entries) sees
// a key that matches nothing and treats the slot as empty, so a torn entry
// costs a miss, never a wrong move or score; the atomics keep the race
// detector and the memory model satisfied.

// Bounds say how a stored score relates to the position's true value; zero
// marks an empty slot.
const (
	boundUpper uint8 = 1 // the search failed low: value <= score
	boundLower uint8 = 2 // the search failed high: value >= score
	boundExact uint8 = 3
)

// slotBytes is the size of a slot and bucketSlots the number of slots a
// position may use: one keeps the deepest recent result, the other the
// newest, so that deep results survive a flood of shallow ones.
const (
	slotBytes   = 16
	bucketSlots = 2
)

type slot struct {
	check atomic.Uint64 // key ^ data
	data  atomic.Uint64
}

// entry is an unpacked slot. Data layout: move in bits 0-15, score as int16
// in bits 16-31, depth in 32-39, bound in 40-41, search age in 48-55.
type entry struct {
	move  core.Move
	score int
	depth int
	bound uint8
}

func pack(m core.Move, score, depth int, bound, age uint8) uint64 {
	return uint64(m) | uint64(uint16(int16(score)))<<16 | uint64(uint8(depth))<<32 |
		uint64(bound)<<40 | uint64(age)<<48
}

func unpack(d uint64) entry {
	return entry{
		move:  core.Move(d),
		score: int(int16(d >> 16)),
		depth: int(uint8(d >> 32)),
		bound: uint8(d>>40) & 3,
	}
}

func ageOf(d uint64) uint8 { return uint8(d >> 48) }

type table struct {
	slots []slot
	mask  uint64 // number of buckets - 1
	age   uint8  // the current search, to prefer replacing older entries
}

// newTable returns a table of at most mb megabytes (at least one bucket),
// rounded down to a power of two buckets so that indexing is a mask.
func newTable(mb int) *table {
	buckets := uint64(max(mb, 1)) << 20 / (slotBytes * bucketSlots)
	for buckets&(buckets-1) != 0 {
		buckets &= buckets - 1
	}
	return &table{slots: make([]slot, buckets*bucketSlots), mask: buckets - 1}
}

// clear empties every slot in place: a new game then costs a pass over
// memory the table already has, not a fresh allocation of its size (and
// the garbage collection of the old one) each time. The caller must be
// the table's only user.
func (t *table) clear() { clear(t.slots) }

// use returns the share of the slots holding an entry of the current
// search; the caller must be the table's only user.
func (t *table) use() float64 {
	n := 0
	for i := range t.slots {
		if d := t.slots[i].data.Load(); d != 0 && ageOf(d) == t.age {
			n++
		}
	}
	return float64(n) / float64(len(t.slots))
}

// probe returns the entry stored for key, if any.
func (t *table) probe(key uint64) (entry, bool) {
	b := (key & t.mask) * bucketSlots
	for i := b; i < b+bucketSlots; i++ {
		s := &t.slots[i]
		d := s.data.Load()
		if d != 0 && s.check.Load()^d == key {
			return unpack(d), true
		}
	}
	return entry{}, false
}

// store records a search result for key. It overwrites the slot already
// holding key, unless that holds a deeper result of this search, or else
// the slot whose entry is least worth keeping: empty, then from an older
// search, then shallower.
func (t *table) store(key uint64, m core.Move, score, depth int, bound uint8) {
	b := (key & t.mask) * bucketSlots
	victim := b
	worth := 1 << 30
	for i := b; i < b+bucketSlots; i++ {
		s := &t.slots[i]
		d := s.data.Load()
		if d != 0 && s.check.Load()^d == key {
			// A deeper result of this search (from another thread, or
			// an earlier visit) is worth more than this one.
			if ageOf(d) == t.age && unpack(d).depth > depth {
				return
			}
			victim = i
			break
		}
		w := -1 << 20 // empty
		if d != 0 {
			w = unpack(d).depth
			if ageOf(d) != t.age {
				w -= 256
			}
		}
		if w < worth {
			victim, worth = i, w
		}
	}
	d := pack(m, score, depth, bound, t.age)
	s := &t.slots[victim]
	s.data.Store(d)
	s.check.Store(key ^ d)
}

// scoreToTT makes a mate score relative to the position stored rather than
// to the root, so that it stays right when the position is reached by
// another path at another ply; scoreFromTT undoes it.
func scoreToTT(score, ply int) int {
	switch {
	case score > mateBound:
		return score + ply
	case score < -mateBound:
		return score - ply
	}
	return score
}

func scoreFromTT(score, ply int) int {
	switch {
	case score > mateBound:
		return score - ply
	case score < -mateBound:
		return score + ply
	}
	return score
}
