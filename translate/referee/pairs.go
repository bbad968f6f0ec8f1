package referee

import (
	"fmt"
	"math"
)

// PairCounts count engine A's game pairs (the two games from one opening,
// colours swapped) by their results, as fastchess's scoreboard keeps them
// (app/src/matchmaking/stats.hpp, penta_WW ... penta_LL): WL is a win and
// a loss in either order, DD two draws. Both are worth one point of two and
// share the pentanomial's middle cell; they are kept apart for the report.
type PairCounts struct {
	WW, WD, WL, DD, LD, LL int
}

// Add counts a pair from A's score in each of its games (1, ½ or 0).
func (c *PairCounts) Add(first, second float64) {
	switch first + second {
	case 2:
		c.WW++
	case 1.5:
		c.WD++
	case 1:
		if first == 0.5 {
			c.DD++
		} else {
			c.WL++
		}
	case 0.5:
		c.LD++
	default:
		c.LL++
	}
}

// Pairs is the number of pairs counted.
func (c PairCounts) Pairs() int { return c.WW + c.WD + c.WL + c.DD + c.LD + c.LL }

// Pentanomial are the counts of pairs that scored 0, ½, 1, 1½ and 2 points,
// as fastchess prints them: Ptnml(0-2): [LL, LD, WL+DD, WD, WW].
func (c PairCounts) Pentanomial() [5]int { return [5]int{c.LL, c.LD, c.WL + c.DD, c.WD, c.WW} }

// PairEstimate is engine A's strength from its game pairs, as fastchess's
// EloPentanomial computes it (app/src/matchmaking/elo/elo_pentanomial.cpp):
// the mean and variance of a pair's fraction of its points, a normal 95%
// interval on the mean over the pairs, turned into Elo through the logistic
// curve and into normalized Elo by the per-game deviation.
type PairEstimate struct {
	Elo, EloError   float64 // logistic Elo and its 95% half width (NaN when the interval leaves (0, 1))
	NElo, NEloError float64 // normalized Elo and its 95% half width
	LOS             float64 // likelihood of superiority, 0 to 1
}

// z975 is the standard normal law's 0.975 quantile (fastchess's
// CI95ZSCORE).
const z975 = 1.959963984540054

// Estimate is the pairs' PairEstimate; all NaN with no pair.
func (c PairCounts) Estimate() PairEstimate {
	penta := c.Pentanomial()
	n := float64(c.Pairs())
	var mu, v float64
	for i, count := range penta {
		mu += float64(count) / n * float64(i) / 4
	}
	for i, count := range penta {
		d := float64(i)/4 - mu
		v += float64(count) / n * d * d
	}
	se := math.Sqrt(v / n)
	elo := func(s float64) float64 {
		if s < 0 || s > 1 {
			return math.NaN()
		}
		return EloDiff(s)
	}
	sigmaGame := math.Sqrt(2 * v)
	nelo := func(s float64) float64 { return (s - 0.5) / sigmaGame * neloPerT }
	return PairEstimate{
		Elo: elo(mu), EloError: (elo(mu+z975*se) - elo(mu-z975*se)) / 2,
		NElo: nelo(mu), NEloError: (nelo(mu+z975*se) - nelo(mu-z975*se)) / 2,
		LOS: 0.5 * math.Erfc(-(mu-0.5)/se/math.Sqrt2),
	}
}

// String writes the counts as fastchess does.
func (c PairCounts) String() string {
	p := c.Pentanomial()
	return fmt.Sprintf("Ptnml(0-2): [%d, %d, %d, %d, %d], WL/DD: %d/%d", p[0], p[1], p[2], p[3], p[4], c.WL, c.DD)
}

// pairing matches each game with the other game of its pair (games 2k and
// 2k+1 start from one opening, colours swapped) as games finish, in any
// order; a void game leaves its pair uncounted.
type pairing map[int]float64

// add takes a finished game and counts its pair in c once both are in.
func (p pairing) add(r GameRecord, c *PairCounts) {
	if r.Void() {
		return
	}
	pair := r.Index / 2
	if first, ok := p[pair]; ok {
		delete(p, pair)
		c.Add(first, r.AScore())
		return
	}
	p[pair] = r.AScore()
}
