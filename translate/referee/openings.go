package referee

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// openings returns the start position of each game pair.
func (cfg *Config) openings() ([]*core.Game, error) {
	pairs := (cfg.Games + 1) / 2
	out := make([]*core.Game, pairs)
	if len(cfg.Openings) > 0 {
		loaded := make([]*core.Game, len(cfg.Openings))
		for i, gs := range cfg.Openings {
			g, err := gs.Load(core.RepetitionDraw(true))
			if err != nil {
				return nil, fmt.Errorf("opening %d %q: %w", i+1, gs, err)
			}
			if g.Over() {
				return nil, fmt.Errorf("opening %d %q: the game is already over", i+1, gs)
			}
			loaded[i] = g
		}
		for k := range out {
			out[k] = loaded[k%len(loaded)]
		}
		return out, nil
	}
	for k := range out {
		g, err := RandomOpening(cfg.GameType, cfg.RandomPlies, cfg.Seed, uint64(k))
		if err != nil {
			return nil, err
		}
		out[k] = g
	}
	return out, nil
}

// RandomOpening plays plies random legal moves from the start of a game of
// type t. Opening k of seed s is the same on every machine and run, whatever
// the other openings and the concurrency: it draws from its own PCG stream
// (s, k). An opening that would end the game is drawn again from the same
// stream.
func RandomOpening(t core.GameType, plies int, seed, k uint64) (*core.Game, error) {
	rng := rand.New(rand.NewPCG(seed, k))
	var l core.MoveList
	for range 100 {
		g := core.NewGame(t, core.RepetitionDraw(true))
		for range plies {
			g.GenerateMoves(&l)
			if l.Len() == 0 {
				break
			}
			g.Play(l.At(rng.IntN(l.Len())))
		}
		if !g.Over() {
			return g, nil
		}
	}
	return nil, fmt.Errorf("no random opening of %d plies that leaves the game going", plies)
}

// ReadOpenings reads an openings file: one GameString a line; blank lines
// and lines starting with # are skipped, and so is anything from a tab on,
// so that the games file a match writes (--out) serves as openings too.
// Each opening is checked against the rules.
func ReadOpenings(r io.Reader) ([]uhp.GameString, error) {
	var out []uhp.GameString
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "\t")
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		gs, err := uhp.ParseGameString(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		g, err := gs.Load()
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		if g.Over() {
			return nil, fmt.Errorf("line %d: the game is already over", n)
		}
		out = append(out, gs)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, errors.New("no opening in the file")
	}
	return out, nil
}
