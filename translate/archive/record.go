package archive

import (
	"fmt"
	"strings"

	"github.com/hivebridge/hivebridge/protocols/uhp"
	"github.com/hivebridge/hivebridge/translate/records"
)

// RecordOf returns an archived game, with its moves (from Get), as a game
// record to write as PGN or SGF: its moves checked again by the rules, the
// day it started as the record's date, its source as the event, and how it
// ended, when not by the rules, as a Termination tag.
func RecordOf(g Game) (records.Record, error) {
	t, err := uhp.ParseGameType(g.GameType)
	if err != nil {
		return records.Record{}, fmt.Errorf("game %d: %w", g.ID, err)
	}
	moves := make([]string, len(g.Moves))
	for i, m := range g.Moves {
		moves[i] = m.Text
	}
	r, err := records.New(t, moves)
	if err != nil {
		return records.Record{}, fmt.Errorf("game %d: %w", g.ID, err)
	}
	r.White, r.Black, r.Site, r.Event, r.Result = g.White, g.Black, "hivebridge", g.Source, g.Result
	r.Date = g.Started.UTC().Format("2006.01.02")
	switch g.How {
	case "resignation", "forfeit":
		r.How = "resignation"
	case "timeout":
		r.How = "time"
	}
	if g.How != "" && g.How != "state" {
		r.Tags = append(r.Tags, records.Tag{Name: "Termination", Value: strings.TrimSpace(g.How + " " + g.Reason)})
	}
	return r, nil
}
