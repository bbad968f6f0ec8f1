package referee

import "math"

// The generalized sequential probability ratio test on game pairs, as
// fishtest, OpenBench and fastchess compute it: Michel Van den Bergh's
// GSPRT ("support_MLE_multinomial.pdf", Proposition 1.1, and "normalized
// Elo practical", section 4.1), in fishtest's server/fishtest/stats/
// LLRcalc.py (regularize, MLE_expected, MLE_t_value, LLR_logistic,
// LLR_normalized), fastchess's app/src/matchmaking/sprt/sprt.cpp
// (getLLR_logistic, getLLR_normalized) and OpenBench's OpenBench/stats.py
// (PentanomialSPRT). The three differ only in how they find roots
// (brentq, ITP, a copy of fishtest's); bisection to float64's precision
// here gives the figures all three print.
//
// Each sample (a game pair, or a game) scores a_i = i/(k-1) of its points
// for outcome i of k. The LLR of H1 against H0 is N·Σ p̂_i·ln(P1_i/P0_i),
// p̂ the observed frequencies (a zero count replaced by 1e-3, as all three
// tools do) and P0, P1 the most likely distributions under each
// hypothesis.

// regularizeEpsilon stands in for a count of zero before a likelihood is
// taken (fishtest's regularize, fastchess's regularize(), OpenBench's
// max(1e-3, x)).
const regularizeEpsilon = 1e-3

// neloPerT turns a normalized t-value into normalized Elo, 800/ln 10
// (fishtest's nelo_divided_by_nt).
const neloPerT = 800 / math.Ln10

// empirical turns counts into their total N (of the regularized counts),
// outcomes a_i = i/(k-1) and frequencies p̂_i.
func empirical(counts []int) (n float64, a, p []float64) {
	k := len(counts)
	a, p = make([]float64, k), make([]float64, k)
	for i, c := range counts {
		p[i] = max(float64(c), regularizeEpsilon)
		n += p[i]
		a[i] = float64(i) / float64(k-1)
	}
	for i := range p {
		p[i] /= n
	}
	return n, a, p
}

func meanVariance(a, p []float64) (mu, v float64) {
	for i := range a {
		mu += p[i] * a[i]
	}
	for i := range a {
		v += p[i] * (a[i] - mu) * (a[i] - mu)
	}
	return mu, v
}

// secularRoot solves Σ p_i·c_i/(1 + x·c_i) = 0 for x on (-1/max c, -1/min c),
// where the left side falls strictly from +∞ to -∞ (its derivative is
// -Σ p_i·c_i²/(1 + x·c_i)²), so bisection finds the one root. ok is false
// unless min c < 0 < max c.
func secularRoot(c, p []float64) (x float64, ok bool) {
	minC, maxC := math.Inf(1), math.Inf(-1)
	for _, ci := range c {
		minC, maxC = min(minC, ci), max(maxC, ci)
	}
	if !(minC < 0 && maxC > 0) {
		return 0, false
	}
	lo, hi := -1/maxC, -1/minC
	for {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			return mid, true
		}
		f := 0.0
		for i := range c {
			f += p[i] * c[i] / (1 + mid*c[i])
		}
		switch {
		case f == 0:
			return mid, true
		case f > 0:
			lo = mid
		default:
			hi = mid
		}
	}
}

// mleMean is the most likely distribution on the outcomes a whose mean is
// s, given p̂: P_i = p̂_i/(1 + x·(a_i - s)), x the secular root.
func mleMean(a, phat []float64, s float64) ([]float64, bool) {
	c := make([]float64, len(a))
	for i := range a {
		c[i] = a[i] - s
	}
	x, ok := secularRoot(c, phat)
	if !ok {
		return nil, false
	}
	out := make([]float64, len(a))
	for i := range a {
		out[i] = phat[i] / (1 + x*c[i])
	}
	return out, true
}

// mleTValue is the most likely distribution on the outcomes a whose
// t-value (μ - ½)/σ is t, given p̂: from the uniform distribution P, put
// φ_i = a_i - ½ - t·σ(P)·(1 + ((a_i - μ(P))/σ(P))²)/2, solve the secular
// equation in φ and set P_i = p̂_i/(1 + x·φ_i), until P settles (fishtest
// stops after 10 rounds or a change below 1e-9, fastchess below 1e-4; the
// change falls below 1e-12 within 10 rounds on every sample tried).
func mleTValue(a, phat []float64, t float64) ([]float64, bool) {
	k := len(a)
	cur, phi := make([]float64, k), make([]float64, k)
	for i := range cur {
		cur[i] = 1 / float64(k)
	}
	for range 100 {
		mu, v := meanVariance(a, cur)
		sigma := math.Sqrt(v)
		for i := range a {
			z := (a[i] - mu) / sigma
			phi[i] = a[i] - 0.5 - t*sigma*(1+z*z)/2
		}
		x, ok := secularRoot(phi, phat)
		if !ok {
			return nil, false
		}
		change := 0.0
		for i := range a {
			next := phat[i] / (1 + x*phi[i])
			change = max(change, math.Abs(next-cur[i]))
			cur[i] = next
		}
		if change < 1e-12 {
			break
		}
	}
	return cur, true
}

// gsprtLLR is N·Σ p̂_i·ln(P1_i/P0_i) for the distributions mle gives under
// each hypothesis; 0 when either cannot be found (a sample with a single
// outcome far from both).
func gsprtLLR(counts []int, h0, h1 float64, mle func(a, phat []float64, h float64) ([]float64, bool)) float64 {
	n, a, phat := empirical(counts)
	p0, ok0 := mle(a, phat, h0)
	p1, ok1 := mle(a, phat, h1)
	if !ok0 || !ok1 {
		return 0
	}
	sum := 0.0
	for i := range phat {
		sum += phat[i] * math.Log(p1[i]/p0[i])
	}
	return n * sum
}

// llrLogistic is the GSPRT of an expected score of scoreOf(elo0) against
// scoreOf(elo1). A pair's mean fraction of its two points is a game's
// expected score, so the hypotheses read the same for pairs and games.
func llrLogistic(counts []int, elo0, elo1 float64) float64 {
	return gsprtLLR(counts, scoreOf(elo0), scoreOf(elo1), mleMean)
}

// llrNormalized is the GSPRT of normalized Elo nelo0 against nelo1.
// Normalized Elo is per game, (800/ln 10)·(μ - ½)/σ_game; a pair's fraction
// averages two games, so σ_game = √2·σ_pair and the pair's t-value under
// test is √2·nElo/(800/ln 10) (fishtest's LLR_normalized, fastchess's
// getLLR_normalized).
func llrNormalized(counts []int, nelo0, nelo1 float64) float64 {
	scale := 1.0
	if len(counts) == 5 {
		scale = math.Sqrt2
	}
	return gsprtLLR(counts, scale*nelo0/neloPerT, scale*nelo1/neloPerT, mleTValue)
}
