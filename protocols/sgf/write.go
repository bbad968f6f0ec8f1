package sgf

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/hivebridge/hivebridge/core"
)

// Write writes g as a BoardSpace Hive record that BoardSpace's viewer
// (HiveGameViewer.ReplayMove, HiveGameBoard.Execute) and Mzinga's
// GameRecording.LoadSGF read, laid out as BoardSpace's newest files are
// (HV-Dumbot-Mormor51-2023-05-11-0957): the root with GM[27]VV[1]CM[0,1],
// the other root properties of g.Props, SU, DT, GN, RE, EV, PC and RO when
// set (RE is g.ResultText as it stands: BoardSpace writes "Game won by
// <name>" or "The game is a draw", which Mzinga reads), and the players,
// P0 White and P1 Black; then one node per action,
// numbered from 0 as commonMove.indexString does, in the spelling of 2023:
//
//	; P0[0 Start P0]
//	; P0[1 Pick W 4 wS1]
//	; P0[2 Dropb wS1 N 13 .]
//	; P0[3 Done ]
//	; P1[4 Pickb M 12 bB1]
//	; P1[5 Pdropb wS1 O 13 bQ-]
//
// A placement is Pick and Dropb, a move Pickb and Dropb, a Pillbug's throw
// of the opponent's piece Pickb and Pdropb (as the viewer's StopDragging
// writes them), each followed by "Done ", and a pass is "Pass " then
// "Done " (HiveGameViewer.PerformAndTransmit). The first piece goes to
// N 13. After the last move comes the end the record says, if the rules
// did not end the game: Resign and Done by the loser, OfferDraw and
// AcceptDraw with their Dones, or WinOnTime by the winner.
//
// hint gives the text written after a drop's cell, from the game before
// the move, which it must not change: UHP's relative position of the
// destination ("wS1-"), say, from the UHP package. BoardSpace and Mzinga's
// newest reader go by the cell alone, but Mzinga's older reader copies the
// text into its UHP moves. With a nil hint, or where it returns "", Write
// computes BoardSpace's own text (Hivemovespec.setAttachment): "." for the
// first piece and for a climb, otherwise the destination's position
// relative to the neighbour that scores best, 100 for the other colour,
// 50 for a Queen and 1 for a Mosquito, Ladybug or Pillbug, the last
// best in BoardSpace's neighbour order, the moving piece's own cell left
// out; the notes found the rule in 280 of 280 such texts of the sample
// files since 2016.
//
// The moves are replayed (with g.Options) and checked: Write fails, having
// written nothing, on an illegal move, on a hive that reaches around
// BoardSpace's 26 by 26 board onto itself, and on an Ending that g.Result
// contradicts.
func Write(w io.Writer, g Game, hint func(m core.Move, before *core.Game) string) error {
	if g.GameType >= core.AllGameTypes {
		return fmt.Errorf("sgf: game type %d is not a game type", g.GameType)
	}
	var b strings.Builder
	b.WriteString(" (;\nGM[27]VV[1]\nCM[0,1]\n")
	for _, p := range g.Props {
		switch p.ID {
		case "GM", "VV", "CM", "SU", "DT", "GN", "RE", "EV", "PC", "RO", "P0", "P1":
			continue
		}
		writeProp(&b, p.ID, p.Values...)
	}
	variant := g.Variant
	if t, err := ParseVariant(variant); err != nil || t != g.GameType {
		variant = VariantName(g.GameType)
	}
	writeProp(&b, "SU", variant)
	optional := []struct{ id, v string }{{"DT", g.Date}, {"GN", g.Name}, {"RE", g.ResultText}, {"EV", g.Event}, {"PC", g.Site}, {"RO", g.Round}}
	for _, o := range optional {
		if o.v != "" {
			writeProp(&b, o.id, o.v)
		}
	}
	for seat, name := range []string{g.White, g.Black} {
		id := "P" + strconv.Itoa(seat)
		writeProp(&b, id, `id "`+name+`"`)
		for _, p := range g.Props {
			if p.ID == id {
				writeProp(&b, id, p.Values...)
			}
		}
	}
	if err := writeActions(&b, g, hint); err != nil {
		return err
	}
	b.WriteString(")\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// writeProp writes a property with its values escaped as SGF requires
// (sgf_property.bracketedString): a backslash before ] and \.
func writeProp(b *strings.Builder, id string, values ...string) {
	b.WriteString(id)
	for _, v := range values {
		b.WriteByte('[')
		for i := 0; i < len(v); i++ {
			if v[i] == ']' || v[i] == '\\' {
				b.WriteByte('\\')
			}
			b.WriteByte(v[i])
		}
		b.WriteByte(']')
	}
	b.WriteByte('\n')
}

// actionWriter numbers and writes action nodes.
type actionWriter struct {
	b *strings.Builder
	n int
}

func (a *actionWriter) act(seat int, text string) {
	a.b.WriteString("; ")
	writeProp(a.b, "P"+strconv.Itoa(seat), strconv.Itoa(a.n)+" "+text)
	a.n++
}

func writeActions(b *strings.Builder, g Game, hint func(core.Move, *core.Game) string) error {
	a := &actionWriter{b: b}
	a.act(0, "Start P0")
	game := core.NewGame(g.GameType, append([]core.GameOption{core.RepetitionDraw(false)}, g.Options...)...)
	grid := newGridMap()
	for i, m := range g.Moves {
		if err := game.RuleBroken(m); err != nil {
			return fmt.Errorf("sgf: ply %d: %w", i+1, err)
		}
		seat := int(game.ToMove()) // P0 plays White
		if m == core.Pass {
			a.act(seat, "Pass ")
			a.act(seat, "Done ")
			game.Play(m)
			continue
		}
		p, to := m.Piece(), m.To()
		d, err := grid.gridCellOf(game, to)
		if err != nil {
			return fmt.Errorf("sgf: ply %d: %w", i+1, err)
		}
		text := ""
		if hint != nil {
			text = hint(m, game)
		}
		if text == "" {
			text = attachment(game, p, to)
		}
		name := exactName(p)
		if game.InHand(p) {
			a.act(seat, "Pick "+colorToken(p.Color())+" "+strconv.Itoa(rackIndex(p.Bug()))+" "+name)
			a.act(seat, "Dropb "+name+" "+d.String()+" "+text)
		} else {
			verb := "Dropb "
			if p.Color() != game.ToMove() {
				verb = "Pdropb "
			}
			a.act(seat, "Pickb "+grid.at[p].String()+" "+name)
			a.act(seat, verb+name+" "+d.String()+" "+text)
		}
		a.act(seat, "Done ")
		game.Play(m)
		grid.moved(p, d, to)
	}
	if game.Over() {
		return nil
	}
	switch g.Ending {
	case Unended:
	case EndedByRules:
		return errors.New("sgf: the game's Ending says the rules ended it, but its moves do not")
	case Resigned:
		loser, err := loserSeat(g.Result)
		if err != nil {
			return err
		}
		a.act(loser, "Resign ")
		a.act(loser, "Done ")
	case DrawAgreed:
		if g.Result != core.Draw {
			return fmt.Errorf("sgf: a draw agreed but the result %s", g.Result)
		}
		s := int(game.ToMove())
		a.act(s, "OfferDraw ")
		a.act(s, "Done ")
		a.act(1-s, "AcceptDraw ")
		a.act(1-s, "Done ")
	case WonOnTime:
		loser, err := loserSeat(g.Result)
		if err != nil {
			return err
		}
		a.act(1-loser, "WinOnTime ")
	default:
		return fmt.Errorf("sgf: unknown ending %s", g.Ending)
	}
	return nil
}

// loserSeat returns the seat of the player a result says lost: P0 plays
// White.
func loserSeat(r core.Result) (int, error) {
	switch r {
	case core.WhiteWins:
		return 1, nil
	case core.BlackWins:
		return 0, nil
	}
	return 0, fmt.Errorf("sgf: a resignation or a win on time needs a winner, not %s", r)
}

// attachment is BoardSpace's hint text for piece p going to cell to
// (Hivemovespec.setAttachment, scoreAsAttachment).
//
// exitDirs are BoardSpace's neighbours of a cell, exitTo(0) to exitTo(5)
// (see gridCell.neighbor), and before and after the marks written before
// and after a neighbour X's name to say where the destination lies from
// X: "X/" for X = exitTo(0), the destination north-east of X, and so on,
// UHP's marks. Hivemovespec names them the other way round: its
// attachment is postAttachNames[i] + X + preAttachNames[i].
func attachment(g *core.Game, p core.Piece, to core.Cell) string {
	exitDirs := [core.NumDirections]core.Direction{core.SouthWest, core.West, core.NorthWest, core.NorthEast, core.East, core.SouthEast}
	before := [core.NumDirections]string{"", "", "", "/", "-", "\\"}
	after := [core.NumDirections]string{"/", "-", "\\", "", "", ""}
	if g.OnBoard() == 0 || g.Height(to) > 0 {
		return "."
	}
	from := g.Position(p)
	best, bestScore := -1, -1
	for i, dir := range exitDirs {
		c := to.Neighbor(dir)
		t := g.Top(c)
		if c == from || t == core.NoPiece {
			continue
		}
		score := 0
		if t.Color() != p.Color() {
			score += 100
		}
		switch t.Bug() {
		case core.Queen:
			score += 50
		case core.Mosquito, core.Ladybug, core.Pillbug:
			score++
		}
		if score >= bestScore {
			best, bestScore = i, score
		}
	}
	if best < 0 {
		return "."
	}
	return before[best] + g.Top(to.Neighbor(exitDirs[best])).String() + after[best]
}
