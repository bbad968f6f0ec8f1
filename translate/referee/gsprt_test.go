package referee

import (
	"fmt"
	"math"
	"testing"

	"github.com/hivebridge/hivebridge/core"
)

// The pentanomial statistics against the figures their authors publish:
// fastchess's own tests (app/tests/sprt_test.cpp, app/tests/elo_test.cpp),
// fishtest's live results of real Stockfish tests, and a derivation by
// hand. Published figures have two decimals: ours must round to them.
const twoDecimals = 0.005 + 1e-9

func closeTo(t *testing.T, name string, got, want, tol float64) {
	t.Helper()
	if !(math.Abs(got-want) <= tol) {
		t.Errorf("%s = %.6f, want %.6f (±%g)", name, got, want, tol)
	}
}

// pentanomial builds counts as fastchess's tests spell them, Stats(ll, ld,
// wl, dd, wd, ww): WL and DD share the middle cell.
func pentanomial(ll, ld, wl, dd, wd, ww int) []int { return []int{ll, ld, wl + dd, wd, ww} }

// TestGSPRTFastchess: fastchess app/tests/sprt_test.cpp, the cases its two
// stored versions agree on. Trinomials are [losses, draws, wins].
func TestGSPRTFastchess(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"normalized trinomial 1", llrNormalized([]int{36027, 68692, 36433}, 0, 2), 0.92},
		{"normalized trinomial 2", llrNormalized([]int{10650, 20431, 10871}, -1.75, 0.25), 2.30},
		{"logistic trinomial 1", llrLogistic([]int{21184, 40708, 21404}, 0.5, 2.5), -1.57},
		{"logistic trinomial 2", llrLogistic([]int{57030, 106593, 57433}, 0, 2), -2.59},
		{"normalized pentanomial 1", llrNormalized(pentanomial(365, 16618, 36029, 200, 16974, 390), 0, 2), 2.25},
		{"normalized pentanomial 2", llrNormalized(pentanomial(127, 4883, 10311, 401, 5150, 104), -1.75, 0.25), 3.01},
		{"logistic pentanomial 1", llrLogistic(pentanomial(223, 9863, 20279, 1000, 10037, 246), 0.5, 2.5), -3.07},
		{"logistic pentanomial 2", llrLogistic(pentanomial(871, 26175, 55003, 980, 26678, 821), 0, 2), -4.98},
	} {
		closeTo(t, c.name, c.got, c.want, twoDecimals)
	}
}

// TestGSPRTFishtest: fishtest's LLR of real Stockfish tests (normalized
// Elo, game pairs, alpha = beta = 0.05) as tests.stockfishchess.org shows
// them, each page named (copied with its address into
// sunfish-shogi/shogihome's src/tests/renderer/game/sprt.spec.ts).
func TestGSPRTFishtest(t *testing.T) {
	for _, c := range []struct {
		page       string
		penta      []int
		elo0, elo1 float64
		llr        float64
	}{
		{"live_elo/69675ab9d5a3b5895b50fb44", []int{19, 4020, 10316, 4215, 24}, -1.75, 0.25, 2.94},
		{"live_elo/6984bbe6473df9d1d24a937b", []int{103, 3851, 8316, 3728, 98}, 0, 2, -2.03},
		{"view/6983867b473df9d1d24a9148", []int{291, 10353, 21899, 10175, 306}, 0, 2, -3.08},
		{"view/698432f5473df9d1d24a926d", []int{99, 3323, 8399, 3606, 109}, 0, 2, 2.98},
		{"view/6984bb68473df9d1d24a9378", []int{2, 40, 72, 14, 0}, 0, 2, -0.36},
		{"view/69839ed7473df9d1d24a91ae", []int{326, 12015, 26044, 12357, 362}, 0, 2, 2.93},
		{"view/6982cf46eb87369ff4d0c888", []int{59, 6427, 15570, 6693, 91}, 0, 2, 2.94},
		{"view/69840701473df9d1d24a924f", []int{328, 12094, 26412, 11964, 338}, 0, 2, -2.93},
		{"view/697e32ae5f56030af97b59c9", []int{900, 30596, 67292, 30899, 809}, 0, 2, -2.96},
		{"view/6983946d473df9d1d24a916d", []int{45, 8506, 25934, 8883, 57}, 0.5, 2.5, 2.94},
		{"view/697f19db5f56030af97b5b01", []int{105, 19880, 51075, 20005, 108}, 0.5, 2.5, -2.94},
		{"view/69827c6beb87369ff4d0c7d5", []int{41, 5118, 12924, 5334, 31}, -1.75, 0.25, 2.94},
	} {
		closeTo(t, c.page, llrNormalized(c.penta, c.elo0, c.elo1), c.llr, twoDecimals)
	}
}

// TestGSPRTByHand: 100 losses, 100 draws and 100 wins, elo0 = 0 (the
// sample's own mean, so P0 = p̂) and elo1 with an expected score of 0.6
// (400·log10 1.5). With c = a - 0.6 = (-0.6, -0.1, 0.4) the secular
// equation times its denominators is 0.024x² - 0.1466667x - 0.1 = 0, whose
// root in (-2.5, 1.6667) is x = -0.6190990; P1 = (0.2430501, 0.3138998,
// 0.4430501) and LLR = 100·Σ ln(3·P1_i) = -9.1404693.
func TestGSPRTByHand(t *testing.T) {
	closeTo(t, "LLR", llrLogistic([]int{100, 100, 100}, 0, 400*math.Log10(1.5)), -9.1404693, 1e-6)
}

// TestPairEstimateFastchess: fastchess's EloPentanomial cases
// (app/tests/elo_test.cpp), and an end-of-match printout of fastchess
// (normalized model) quoted in heofthetea/dhbw's semester-5/thunfisch/SPRT.md:
// "Elo: 631.91 +/- nan, nElo: 1056.68 +/- 77.10, LOS: 100.00 %,
// Ptnml(0-2): [0, 0, 2, 0, 37], LLR: 2.96 (-2.94, 2.94) [0.00, 20.00]".
func TestPairEstimateFastchess(t *testing.T) {
	for _, c := range []struct {
		pairs                                  PairCounts
		elo, eloErr, nelo, neloErr, losPercent float64
	}{
		{PairCounts{LL: 34, LD: 54, WL: 31, DD: 32, WD: 64, WW: 75}, 55.58, 27.65, 57.94, 28.28, 100.00},
		{PairCounts{LL: 332, LD: 433, WL: 457, DD: 41, WD: 333, WW: 334}, -8.64, 10.33, -9.17, 10.96, 5.05},
		{PairCounts{LL: 7895, LD: 8757, WL: 5485, DD: 200, WD: 568, WW: 9999}, -21.04, 2.95, -19.01, 2.65, 0.00},
	} {
		e := c.pairs.Estimate()
		name := fmt.Sprint(c.pairs.Pentanomial())
		closeTo(t, name+" Elo", e.Elo, c.elo, twoDecimals)
		closeTo(t, name+" Elo error", e.EloError, c.eloErr, twoDecimals)
		closeTo(t, name+" nElo", e.NElo, c.nelo, twoDecimals)
		closeTo(t, name+" nElo error", e.NEloError, c.neloErr, twoDecimals)
		closeTo(t, name+" LOS %", 100*e.LOS, c.losPercent, twoDecimals)
	}
	printout := PairCounts{WL: 2, WW: 37}
	e := printout.Estimate()
	closeTo(t, "printout Elo", e.Elo, 631.91, twoDecimals)
	closeTo(t, "printout nElo", e.NElo, 1056.68, twoDecimals)
	closeTo(t, "printout nElo error", e.NEloError, 77.10, twoDecimals)
	if !math.IsNaN(e.EloError) {
		t.Errorf("printout Elo error = %v, want NaN (fastchess prints nan: the interval passes a score of 1)", e.EloError)
	}
	penta := printout.Pentanomial()
	closeTo(t, "printout LLR", llrNormalized(penta[:], 0, 20), 2.96, twoDecimals)
}

// TestPairCounts: each pair lands where fastchess's scoreboard puts it,
// whichever game came first; the pairing waits for both games of a pair
// and leaves out a pair with a void game.
func TestPairCounts(t *testing.T) {
	var c PairCounts
	for _, p := range [][2]float64{{1, 1}, {1, 0.5}, {0.5, 1}, {1, 0}, {0, 1}, {0.5, 0.5}, {0.5, 0}, {0, 0.5}, {0, 0}} {
		c.Add(p[0], p[1])
	}
	if want := (PairCounts{WW: 1, WD: 2, WL: 2, DD: 1, LD: 2, LL: 1}); c != want || c.Pentanomial() != [5]int{1, 2, 3, 2, 1} {
		t.Errorf("counts %+v", c)
	}
	whiteWon := func(i int) GameRecord { return GameRecord{Index: i, AWhite: i%2 == 0, Result: core.WhiteWins} }
	void := GameRecord{Index: 4, Result: core.InProgress}
	var got PairCounts
	p := pairing{}
	for _, r := range []GameRecord{whiteWon(1), whiteWon(2), void, whiteWon(0), whiteWon(5), whiteWon(3)} {
		p.add(r, &got)
	}
	// Games 0 and 1: A won as White (WhiteWins) and lost as Black; 2 and 3
	// likewise; 4 is void, so 5 waits alone.
	if got.Pairs() != 2 || got.WL != 2 {
		t.Errorf("pairing counted %+v", got)
	}
}

// TestGSPRTRecordedPairs: the pair counts of two 2,000-game matches this
// project played (the native searcher against itself, concurrency 8,
// 1 s + 0.01 s: README, "Engine testing at scale"), their LLRs worked
// independently in 40-digit decimal arithmetic with Newton's method
// (testdata/llr.py, which prints them), to 1e-6.
func TestGSPRTRecordedPairs(t *testing.T) {
	for _, c := range []struct {
		penta                []int
		elo0, elo1           float64
		logistic, normalized float64
	}{
		{[]int{197, 25, 577, 22, 179}, 0, 10, -2.510063661393771, -2.102512807709817},
		{[]int{203, 31, 538, 35, 193}, -5, 5, -0.5580998986269751, -0.5070034863307452},
	} {
		closeTo(t, fmt.Sprint(c.penta, " logistic"), llrLogistic(c.penta, c.elo0, c.elo1), c.logistic, 1e-6)
		closeTo(t, fmt.Sprint(c.penta, " normalized"), llrNormalized(c.penta, c.elo0, c.elo1), c.normalized, 1e-6)
	}
}
