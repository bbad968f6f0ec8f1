package archive

import (
	"encoding/json"
	"math"
	"sort"
	"strings"
)

// Rating is one player's Elo from all their games.
type Rating struct {
	Player string  `json:"player"`
	Games  int     `json:"games"`
	Score  float64 `json:"score"` // wins + half the draws
	// Elo is relative to the mean of the rated players it is connected
	// to by games; Low and High bound its 95% interval. A player who won
	// or lost every game has no finite rating: Elo is then +Inf or -Inf
	// and the JSON says so in Note.
	Elo  float64 `json:"elo"`
	Low  float64 `json:"low"`
	High float64 `json:"high"`
	Note string  `json:"note,omitempty"`
}

// eloPerNat turns a difference of log-strengths into Elo points: Elo's
// logistic curve is 1/(1+10^(-d/400)).
const eloPerNat = 400 / math.Ln10

// rated says whether a player is a named engine: the people at sessions
// are all "viewer", and many people are no one player.
func rated(name string) bool {
	return name != "" && !strings.HasPrefix(name, Viewer)
}

// Ratings fits one Bradley–Terry model to every game between named
// engines by maximum likelihood (a draw counts as half a win for each
// side), as rating-list tools do, rather than match by match: a player's
// rating draws on all its opponents at once. The interval comes from the
// curvature of the likelihood at its maximum.
func Ratings(outcomes []Outcome) []Rating {
	index := map[string]int{}
	var names []string
	id := func(name string) int {
		i, ok := index[name]
		if !ok {
			i = len(names)
			index[name] = i
			names = append(names, name)
		}
		return i
	}
	type game struct {
		white, black int
		whiteScore   float64
	}
	var counted []game
	for _, o := range outcomes {
		if !rated(o.White) || !rated(o.Black) || o.White == o.Black {
			continue
		}
		var ws float64
		switch o.Result {
		case "WhiteWins":
			ws = 1
		case "BlackWins":
			ws = 0
		case "Draw":
			ws = 0.5
		default:
			continue
		}
		counted = append(counted, game{id(o.White), id(o.Black), ws})
	}
	n := len(names)
	out := make([]Rating, n)
	active := make([]bool, n)
	for i := range n {
		out[i].Player, active[i] = names[i], true
	}
	for _, g := range counted {
		out[g.white].Games++
		out[g.black].Games++
		out[g.white].Score += g.whiteScore
		out[g.black].Score += 1 - g.whiteScore
	}
	// A player with a perfect or a null score has no finite maximum:
	// rate the others without their games, again until none is left.
	for {
		games := map[pairKey]float64{}
		score, played := make([]float64, n), make([]float64, n)
		for _, g := range counted {
			if active[g.white] && active[g.black] {
				games[pairKey{min(g.white, g.black), max(g.white, g.black)}]++
				score[g.white] += g.whiteScore
				score[g.black] += 1 - g.whiteScore
				played[g.white]++
				played[g.black]++
			}
		}
		changed := false
		for i := range n {
			if !active[i] {
				continue
			}
			switch {
			case played[i] == 0:
				active[i], changed = false, true
				out[i].Elo, out[i].Note = math.NaN(), "no games against rated players"
			case score[i] == played[i]:
				active[i], changed = false, true
				out[i].Elo, out[i].Note = math.Inf(1), "won every game counted"
			case score[i] == 0:
				active[i], changed = false, true
				out[i].Elo, out[i].Note = math.Inf(-1), "lost every game counted"
			}
		}
		if !changed {
			fit(out, active, games, score)
			break
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Elo, out[j].Elo
		if math.IsNaN(a) || math.IsNaN(b) {
			return !math.IsNaN(a) && math.IsNaN(b)
		}
		return a > b
	})
	return out
}

// pairKey names two players, the lower index first.
type pairKey struct{ a, b int }

// fit finds the maximum-likelihood strengths of the active players by
// Hunter's minorization–maximization iteration, centres each connected
// group on 0, and sets the intervals from the inverse of the Fisher
// information.
func fit(out []Rating, active []bool, games map[pairKey]float64, score []float64) {
	n := len(out)
	type edge struct {
		other int
		k     float64
	}
	adj := make([][]edge, n)
	for pr, k := range games {
		adj[pr.a] = append(adj[pr.a], edge{pr.b, k})
		adj[pr.b] = append(adj[pr.b], edge{pr.a, k})
	}
	gamma := make([]float64, n)
	for i := range gamma {
		gamma[i] = 1
	}
	for iter := 0; iter < 10000; iter++ {
		delta := 0.0
		next := make([]float64, n)
		for i := range n {
			if !active[i] {
				continue
			}
			d := 0.0
			for _, e := range adj[i] {
				d += e.k / (gamma[i] + gamma[e.other])
			}
			next[i] = score[i] / d
		}
		for i := range n {
			if active[i] {
				delta = max(delta, math.Abs(math.Log(next[i]/gamma[i])))
				gamma[i] = next[i]
			}
		}
		if delta < 1e-12 {
			break
		}
	}
	// Connected groups: strengths are comparable only within one.
	group := make([]int, n)
	for i := range group {
		group[i] = -1
	}
	var members [][]int
	for i := range n {
		if !active[i] || group[i] >= 0 {
			continue
		}
		g := len(members)
		members = append(members, nil)
		stack := []int{i}
		group[i] = g
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			members[g] = append(members[g], v)
			for _, e := range adj[v] {
				if group[e.other] < 0 {
					group[e.other] = g
					stack = append(stack, e.other)
				}
			}
		}
	}
	theta := make([]float64, n)
	for _, m := range members {
		mean := 0.0
		for _, i := range m {
			mean += math.Log(gamma[i])
		}
		mean /= float64(len(m))
		for _, i := range m {
			theta[i] = math.Log(gamma[i]) - mean
		}
	}
	// The information matrix in log-strength is a weighted Laplacian,
	// singular along each group's common shift; adding 1/size on each
	// group's block and taking it off the inverse gives the covariance
	// of the centred strengths.
	info := make([][]float64, n)
	for i := range info {
		info[i] = make([]float64, n)
	}
	for i := range n {
		for _, e := range adj[i] {
			p := 1 / (1 + math.Exp(theta[e.other]-theta[i]))
			w := e.k * p * (1 - p)
			info[i][i] += w
			info[i][e.other] -= w
		}
	}
	for _, m := range members {
		for _, i := range m {
			for _, j := range m {
				info[i][j] += 1 / float64(len(m))
			}
		}
	}
	for i := range n {
		if !active[i] {
			info[i][i] = 1
		}
	}
	cov := invert(info)
	for _, m := range members {
		for _, i := range m {
			se := math.Sqrt(max(0, cov[i][i]-1/float64(len(m)))) * eloPerNat
			out[i].Elo = theta[i] * eloPerNat
			out[i].Low, out[i].High = out[i].Elo-1.96*se, out[i].Elo+1.96*se
		}
	}
}

// invert inverts a symmetric positive-definite matrix by Gauss–Jordan
// elimination with partial pivoting.
func invert(a [][]float64) [][]float64 {
	n := len(a)
	m := make([][]float64, n)
	for i := range a {
		m[i] = make([]float64, 2*n)
		copy(m[i], a[i])
		m[i][n+i] = 1
	}
	for c := range n {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(m[r][c]) > math.Abs(m[p][c]) {
				p = r
			}
		}
		m[c], m[p] = m[p], m[c]
		pivot := m[c][c]
		for k := range 2 * n {
			m[c][k] /= pivot
		}
		for r := range n {
			if r != c && m[r][c] != 0 {
				f := m[r][c]
				for k := range 2 * n {
					m[r][k] -= f * m[c][k]
				}
			}
		}
	}
	inv := make([][]float64, n)
	for i := range m {
		inv[i] = m[i][n:]
	}
	return inv
}

// MarshalJSON writes a rating that is not finite (a perfect or a null
// score) with null Elo and bounds, which JSON numbers cannot hold.
func (r Rating) MarshalJSON() ([]byte, error) {
	type plain Rating
	out := struct {
		plain
		Elo  *float64 `json:"elo"`
		Low  *float64 `json:"low"`
		High *float64 `json:"high"`
	}{plain: plain(r)}
	if !math.IsInf(r.Elo, 0) && !math.IsNaN(r.Elo) {
		out.Elo, out.Low, out.High = &r.Elo, &r.Low, &r.High
	}
	return json.Marshal(out)
}
