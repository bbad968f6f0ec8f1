package records

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/protocols/pgn"
	"github.com/hivebridge/hivebridge/protocols/sgf"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

func readPGN(name string, data []byte) ([]Record, []error) {
	games, err := pgn.Read(bytes.NewReader(data))
	if err != nil {
		return nil, []error{fmt.Errorf("%s: %w", name, err)}
	}
	var (
		recs []Record
		errs []error
	)
	for i, g := range games {
		r, err := fromPGN(g)
		if err != nil {
			errs = append(errs, &GameError{File: name, Game: i + 1, Err: err})
			continue
		}
		recs = append(recs, r)
	}
	return recs, errs
}

func fromPGN(g pgn.Game) (Record, error) {
	tag := func(name string) string { v, _ := g.Tag(name); return v }
	typ, ok := g.Tag("GameType")
	if !ok {
		// Mzinga's LoadPGN starts a game of Base without the tag.
		typ = "Base"
	}
	t, err := uhp.ParseGameType(typ)
	if err != nil {
		return Record{}, fmt.Errorf("GameType %q: %w", typ, err)
	}
	r := Record{GameType: t, White: tag("White"), Black: tag("Black"), Date: tag("Date"), Event: tag("Event"), Site: tag("Site"), Round: tag("Round")}
	r.Result = resultOf(map[pgn.Result]core.Result{pgn.ResultWhiteWins: core.WhiteWins, pgn.ResultBlackWins: core.BlackWins, pgn.ResultDraw: core.Draw}[g.Result])
	for _, tg := range g.Tags {
		if !isRoster(tg.Name) {
			r.Tags = append(r.Tags, Tag(tg))
		}
	}
	texts := make([]string, len(g.Moves))
	for i, m := range g.Moves {
		texts[i] = m.Text
		if m.Comment != "" {
			if r.Comments == nil {
				r.Comments = make([]string, len(g.Moves))
			}
			r.Comments[i] = m.Comment
		}
		if len(m.NAGs) > 0 {
			if r.NAGs == nil {
				r.NAGs = make([][]int, len(g.Moves))
			}
			r.NAGs[i] = m.NAGs
		}
	}
	return r, r.check(texts)
}

// isRoster reports whether a PGN tag is one a Record holds in a field of
// its own (the others are kept in Tags).
func isRoster(name string) bool {
	switch strings.ToLower(name) {
	case "gametype", "date", "event", "site", "round", "white", "black", "result":
		return true
	}
	return false
}

// resultOf spells a core result as a Record does: the UHP GameState of a
// game over, "" of a game that is not.
func resultOf(r core.Result) string {
	switch r {
	case core.WhiteWins:
		return core.StateWhiteWins.String()
	case core.BlackWins:
		return core.StateBlackWins.String()
	case core.Draw:
		return core.StateDraw.String()
	}
	return ""
}

func readSGF(name string, data []byte) ([]Record, []error) {
	games, err := sgf.ReadWith(data, sgf.ReadOptions{GameOptions: options()})
	var errs []error
	if err != nil {
		var re *sgf.ReadError
		if !errors.As(err, &re) {
			return nil, []error{fmt.Errorf("%s: %w", name, err)}
		}
		for _, e := range re.Unwrap() {
			game := 0
			if ge, ok := e.(*sgf.GameError); ok {
				game = ge.Index + 1
			}
			errs = append(errs, &GameError{File: name, Game: game, Err: e})
		}
	}
	var recs []Record
	for _, g := range games {
		r := Record{GameType: g.GameType, White: g.White, Black: g.Black, Date: g.Date, Event: g.Event, Site: g.Site, Round: g.Round}
		r.Result = resultOf(g.Result)
		switch g.Ending {
		case sgf.Resigned:
			r.How = "resignation"
		case sgf.DrawAgreed:
			r.How = "agreement"
		case sgf.WonOnTime:
			r.How = "time"
		}
		r.Moves, r.QueenFirst, r.end, err = fromMoves(g.GameType, g.Moves)
		if err != nil {
			errs = append(errs, &GameError{File: name, Game: g.Index + 1, Err: err})
			continue
		}
		recs = append(recs, r)
	}
	return recs, errs
}

// lines calls each for every line of data that is not blank, with its
// number, and returns the error of a line too long to read.
func lines(data []byte, each func(n int, line string)) error {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 16<<20)
	for n := 1; sc.Scan(); n++ {
		if line := strings.TrimSpace(sc.Text()); line != "" {
			each(n, line)
		}
	}
	return sc.Err()
}

func readGameStrings(name string, data []byte) ([]Record, []error) {
	var (
		recs []Record
		errs []error
		game int
	)
	err := lines(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), func(n int, line string) {
		game++
		r, err := fromGameString(line)
		if err != nil {
			errs = append(errs, &GameError{File: name, Game: game, Err: fmt.Errorf("line %d: %w", n, err)})
			return
		}
		recs = append(recs, r)
	})
	if err != nil {
		errs = append(errs, fmt.Errorf("%s: %w", name, err))
	}
	return recs, errs
}

func fromGameString(s string) (Record, error) {
	gs, err := uhp.ParseGameString(s)
	if err != nil {
		return Record{}, err
	}
	r := Record{GameType: gs.Type}
	switch gs.State {
	case uhp.WhiteWins, uhp.BlackWins, uhp.Draw:
		r.Result = gs.State.String()
	}
	return r, r.check(gs.Moves)
}

// jsonRecord is a game as a JSON line: the fields of the archive's JSON
// (`games export --format jsonl`, GET /games/{id}) that a record holds.
type jsonRecord struct {
	GameType   string     `json:"game_type"`
	White      string     `json:"white,omitempty"`
	Black      string     `json:"black,omitempty"`
	Date       string     `json:"date,omitempty"`
	Event      string     `json:"event,omitempty"`
	Site       string     `json:"site,omitempty"`
	Round      string     `json:"round,omitempty"`
	Result     string     `json:"result,omitempty"`
	How        string     `json:"how,omitempty"`
	QueenFirst bool       `json:"queen_first,omitempty"`
	GameString string     `json:"game_string,omitempty"`
	Moves      []jsonMove `json:"moves"`
	Tags       []Tag      `json:"tags,omitempty"`
}

// jsonMove is one move of a jsonRecord, with its comment (an engine's
// score, a player's note) when it has one.
type jsonMove struct {
	Move    string `json:"move"`
	Comment string `json:"comment,omitempty"`
	NAGs    []int  `json:"nags,omitempty"`
}

func readJSONL(name string, data []byte) ([]Record, []error) {
	var (
		recs []Record
		errs []error
		game int
	)
	err := lines(data, func(n int, line string) {
		game++
		fail := func(err error) {
			errs = append(errs, &GameError{File: name, Game: game, Err: fmt.Errorf("line %d: %w", n, err)})
		}
		var j jsonRecord
		if err := json.Unmarshal([]byte(line), &j); err != nil {
			fail(err)
			return
		}
		t, err := uhp.ParseGameType(j.GameType)
		if err != nil {
			fail(err)
			return
		}
		r := Record{GameType: t, White: j.White, Black: j.Black, Date: j.Date, Event: j.Event, Site: j.Site, Round: j.Round, How: j.How, Tags: j.Tags}
		switch j.Result {
		case "", "WhiteWins", "BlackWins", "Draw":
			r.Result = j.Result
		default:
			fail(fmt.Errorf("result %q: want WhiteWins, BlackWins, Draw or none", j.Result))
			return
		}
		texts := make([]string, len(j.Moves))
		for i, m := range j.Moves {
			texts[i] = m.Move
			if m.Comment != "" {
				if r.Comments == nil {
					r.Comments = make([]string, len(j.Moves))
				}
				r.Comments[i] = m.Comment
			}
			if len(m.NAGs) > 0 {
				if bad := slices.IndexFunc(m.NAGs, func(n int) bool { return n < 0 || n > pgn.MaxNAG }); bad >= 0 {
					fail(fmt.Errorf("move %d: NAG %d: want 0 to %d", i+1, m.NAGs[bad], pgn.MaxNAG))
					return
				}
				if r.NAGs == nil {
					r.NAGs = make([][]int, len(j.Moves))
				}
				r.NAGs[i] = m.NAGs
			}
		}
		if len(texts) == 0 && j.GameString != "" {
			gs, err := uhp.ParseGameString(j.GameString)
			if err != nil {
				fail(err)
				return
			}
			texts = gs.Moves
		}
		if err := r.check(texts); err != nil {
			fail(err)
			return
		}
		recs = append(recs, r)
	})
	if err != nil {
		errs = append(errs, fmt.Errorf("%s: %w", name, err))
	}
	return recs, errs
}

// Write writes records in a format: PGN and JSON lines as many games a
// file, SGF as one game tree after another (BoardSpace writes one game a
// file), GameStrings one a line.
func Write(w io.Writer, f Format, recs ...Record) error {
	bw := bufio.NewWriter(w)
	for _, r := range recs {
		var err error
		switch f {
		case PGN:
			err = pgn.Write(bw, toPGN(r))
		case SGF:
			err = writeSGF(bw, r)
		case GameString:
			var gs uhp.GameString
			if gs, err = r.gameString(); err == nil {
				_, err = fmt.Fprintln(bw, gs.String())
			}
		case JSONL:
			err = writeJSON(bw, r)
		default:
			err = fmt.Errorf("unknown format %q", f)
		}
		if err != nil {
			return err
		}
	}
	return bw.Flush()
}

func toPGN(r Record) pgn.Game {
	g := pgn.Game{Tags: []pgn.Tag{{Name: "GameType", Value: uhp.FormatGameType(r.GameType)}, {Name: "Date", Value: r.Date},
		{Name: "Event", Value: r.Event}, {Name: "Site", Value: r.Site}, {Name: "Round", Value: r.Round},
		{Name: "White", Value: r.White}, {Name: "Black", Value: r.Black}}}
	for _, t := range r.Tags {
		g.Tags = append(g.Tags, pgn.Tag(t))
	}
	if r.How != "" {
		g.SetTag("Termination", r.How)
	}
	switch r.Result {
	case "WhiteWins":
		g.Result = pgn.ResultWhiteWins
	case "BlackWins":
		g.Result = pgn.ResultBlackWins
	case "Draw":
		g.Result = pgn.ResultDraw
	default:
		g.Result = pgn.ResultInProgress
		if len(r.Moves) == 0 {
			g.Result = pgn.ResultNotStarted
		}
	}
	for i, m := range r.Moves {
		mv := pgn.Move{Text: m}
		if i < len(r.Comments) {
			mv.Comment = r.Comments[i]
		}
		if i < len(r.NAGs) {
			mv.NAGs = r.NAGs[i]
		}
		g.Moves = append(g.Moves, mv)
	}
	return g
}

func writeSGF(w io.Writer, r Record) error {
	sg := sgf.Game{Variant: sgf.VariantName(r.GameType), GameType: r.GameType, White: r.White, Black: r.Black,
		Date: r.Date, Event: r.Event, Site: r.Site, Round: r.Round, Options: options()}
	switch r.Result {
	case "WhiteWins":
		sg.Result = core.WhiteWins
	case "BlackWins":
		sg.Result = core.BlackWins
	case "Draw":
		sg.Result = core.Draw
	}
	g, err := r.replay(func(m core.Move) { sg.Moves = append(sg.Moves, m) })
	if err != nil {
		return err
	}
	switch {
	case g.Over():
		sg.Ending = sgf.EndedByRules
	case r.How == "resignation":
		sg.Ending = sgf.Resigned
	case r.How == "agreement":
		sg.Ending = sgf.DrawAgreed
	}
	return sgf.Write(w, sg, func(m core.Move, before *core.Game) string {
		_, where, _ := strings.Cut(uhp.FormatMove(m, before), " ")
		return where
	})
}

func writeJSON(w io.Writer, r Record) error {
	data, err := r.MarshalJSON()
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", data)
	return err
}

// MarshalJSON writes the record as one line of `--format jsonl` holds it:
// the archive's field names, its GameString beside its moves, each move
// with its comment and NAGs.
func (r Record) MarshalJSON() ([]byte, error) {
	gs, err := r.gameString()
	if err != nil {
		return nil, err
	}
	j := jsonRecord{GameType: uhp.FormatGameType(r.GameType), White: r.White, Black: r.Black, Date: r.Date, Event: r.Event,
		Site: r.Site, Round: r.Round, Result: r.Result, How: r.How, QueenFirst: r.QueenFirst, GameString: gs.String(),
		Moves: make([]jsonMove, len(r.Moves)), Tags: r.Tags}
	for i, m := range r.Moves {
		j.Moves[i].Move = m
		if i < len(r.Comments) {
			j.Moves[i].Comment = r.Comments[i]
		}
		if i < len(r.NAGs) {
			j.Moves[i].NAGs = r.NAGs[i]
		}
	}
	return json.Marshal(j)
}
