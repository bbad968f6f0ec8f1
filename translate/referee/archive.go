package referee

import (
	"strings"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/protocols/uhp"
	"github.com/hivebridge/hivebridge/translate"
	"github.com/hivebridge/hivebridge/translate/archive"
)

// gameArchive keeps one refereed game in the archive, move by move; its
// methods do nothing without an archive.
type gameArchive struct {
	rec   *archive.Recorder
	names [2]string // each colour's player
}

// playerName is an engine as a player in the archive: its id and spec, as
// the daemon names its backend.
func playerName(e translate.Engine, spec string) string {
	return e.Info().ID + " (" + spec + ")"
}

// beginArchive starts keeping a game once both engines are ready; the
// moves of its opening are the opening's. Each player is named by names,
// else by its engine's id and spec (playerName).
func (cfg *Config) beginArchive(g *core.Game, engines [2]translate.Engine, specs, names [2]string) gameArchive {
	if cfg.Archive == nil {
		return gameArchive{}
	}
	gs, err := uhp.Describe(g)
	if err != nil {
		return gameArchive{} // a set-up game has no GameString to keep; match openings never are
	}
	a := gameArchive{names: names}
	for c, name := range names {
		if name == "" {
			a.names[c] = playerName(engines[c], specs[c])
		}
	}
	a.rec = cfg.Archive.Begin("match", uhp.FormatGameType(g.Type()), gs.String(), gs.Moves, "opening",
		archive.Players{White: a.names[core.White], Black: a.names[core.Black]})
	return a
}

// played records the move just played by colour c.
func (a gameArchive) played(g *core.Game, c core.Color) {
	if a.rec == nil {
		return
	}
	gs, _ := uhp.Describe(g) // the game was described at its start: it has a GameString
	a.rec.Played(gs.Moves[len(gs.Moves)-1], a.names[c])
}

// ended records the verdict: InProgress for a game the match stopped.
func (a gameArchive) ended(g *core.Game, result core.Result, ending Ending, reason string) {
	if a.rec == nil {
		return
	}
	end := archive.End{How: "state", Reason: reason}
	switch result {
	case core.WhiteWins:
		end.Result = "WhiteWins"
	case core.BlackWins:
		end.Result = "BlackWins"
	case core.Draw:
		end.Result = "Draw"
	}
	switch {
	case ending == ByDisagreement:
		end.How = "disagreement" // a void one has no result
	case result == core.InProgress:
		end.How, end.Reason = "interrupted", "the match was stopped"
	case ending == ByForfeit && strings.Contains(reason, "loses on time"):
		end.How = "timeout"
	case ending == ByForfeit:
		end.How = "forfeit"
	case ending == ByMoveCap, ending == ByAdjudication:
		end.How = "adjudication"
	}
	a.rec.Ended(end, gameString(g))
}
