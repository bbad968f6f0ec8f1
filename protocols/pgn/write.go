package pgn

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
)

// mandatoryTags are the tags Mzinga's GameRecording.SavePGN always writes,
// in its order, even when empty.
func mandatoryTags() [8]string {
	return [8]string{"GameType", "Date", "Event", "Site", "Round", "White", "Black", "Result"}
}

// isMandatory reports whether a name folded by lower is one of
// mandatoryTags.
func isMandatory(key string) bool {
	switch key {
	case "gametype", "date", "event", "site", "round", "white", "black", "result":
		return true
	}
	return false
}

// Write writes the games as Mzinga's GameRecording.SavePGN writes one, LF
// ending every line, a blank line between games:
//
//   - "[Name "Value"]" for the eight tags GameType, Date, Event, Site, Round,
//     White, Black and Result, always and in that order ("" when the game
//     has no such tag), then the game's other tags in order, each name
//     once (the first, as Tag finds it). Result is written from
//     Game.Result in Mzinga's spelling, whatever the Result tag says.
//     Values are trimmed and lose every '"', as Mzinga's
//     GameMetadata.SetTag removes them, and every CR and LF, which would
//     end the line. Non-ASCII is written as it is (UTF-8, as hivegame.com
//     writes), where Mzinga's ASCII encoder would write '?'.
//   - When the game has moves: a blank line, then "N. MoveString", one ply
//     a line, N counting plies from 1, and the ply's NAGs, if any, after
//     it as " $N" each (chess PGN's; no Hive producer writes them). Each comment follows on its own line
//     as "{text}", trimmed and without braces (Mzinga's
//     WritePGNMoveCommentary and SetMoveCommentary); the opening comment
//     comes before the first ply. A game with an opening comment but no
//     moves has it written too, where Mzinga would drop it.
//   - When the game is over (WhiteWins, BlackWins, Draw): a blank line and
//     the result word.
//
// Write refuses a tag name that is empty or holds a space, a move that is
// not one MoveString (as Read checks it), a NAG outside 0 to MaxNAG, and a
// Result that is none of the constants, which Read could not read back: it
// stops at that game, having written the games before it and nothing of
// that one. It does not check
// lengths: a tag or move of nearly MaxLineLength bytes may make a line Read
// refuses.
func Write(w io.Writer, games ...Game) error {
	var b strings.Builder
	for i := range games {
		b.Reset()
		if i > 0 {
			b.WriteByte('\n')
		}
		if err := writeGame(&b, &games[i]); err != nil {
			return fmt.Errorf("pgn: game %d: %w", i+1, err)
		}
		if _, err := io.WriteString(w, b.String()); err != nil {
			return err
		}
	}
	return nil
}

// writeGame writes one game to b.
func writeGame(b *strings.Builder, g *Game) error {
	if !g.Result.valid() {
		return fmt.Errorf("result %d is none of the Result constants", int(g.Result))
	}
	if err := writeTags(b, g); err != nil {
		return err
	}
	if len(g.Moves) > 0 || cleanComment(g.Opening) != "" {
		b.WriteByte('\n')
		writeComment(b, g.Opening)
		for i, m := range g.Moves {
			text := strings.TrimSpace(m.Text)
			if why := isMove(text); why != "" {
				return fmt.Errorf("ply %d: %s", i+1, why)
			}
			for _, nag := range m.NAGs {
				if nag < 0 || nag > MaxNAG {
					return fmt.Errorf("ply %d: annotation glyph %d is not one of $0 to $%d", i+1, nag, MaxNAG)
				}
			}
			b.WriteString(strconv.Itoa(i + 1))
			b.WriteString(". ")
			b.WriteString(text)
			for _, nag := range m.NAGs {
				b.WriteString(" $")
				b.WriteString(strconv.Itoa(nag))
			}
			b.WriteByte('\n')
			writeComment(b, m.Comment)
		}
	}
	if g.Result.over() {
		b.WriteByte('\n')
		b.WriteString(g.Result.String())
		b.WriteByte('\n')
	}
	return nil
}

// writeTags writes the mandatory tags, then the others.
func writeTags(b *strings.Builder, g *Game) error {
	for _, name := range mandatoryTags() {
		value, _ := g.Tag(name)
		if name == "Result" {
			value = g.Result.String()
		}
		writeTag(b, name, value)
	}
	written := map[string]bool{}
	for _, t := range g.Tags {
		key := lower(t.Name)
		if isMandatory(key) || written[key] {
			continue
		}
		if t.Name == "" || strings.IndexFunc(t.Name, unicode.IsSpace) >= 0 {
			return fmt.Errorf("tag name %s is empty or holds a space", quote(t.Name))
		}
		written[key] = true
		writeTag(b, t.Name, t.Value)
	}
	return nil
}

// writeTag writes Mzinga's GetPGNTag: [Name "Value"].
func writeTag(b *strings.Builder, name, value string) {
	b.WriteByte('[')
	b.WriteString(name)
	b.WriteString(` "`)
	b.WriteString(strings.TrimSpace(dropBytes(value, "\"\r\n")))
	b.WriteString("\"]\n")
}

// writeComment writes a non-empty comment as {text} on its own lines.
func writeComment(b *strings.Builder, c string) {
	if c = cleanComment(c); c != "" {
		b.WriteByte('{')
		b.WriteString(c)
		b.WriteString("}\n")
	}
}

// cleanComment makes a comment what Read would read back: without braces
// (Mzinga's SetMoveCommentary deletes them), its lines LF-ended and
// trimmed, and trimmed of blank lines around it.
func cleanComment(c string) string {
	c = dropBytes(c, "{}")
	c = strings.ReplaceAll(c, "\r\n", "\n")
	c = strings.ReplaceAll(c, "\r", "\n")
	lines := strings.Split(c, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSpace(l)
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

// dropBytes removes every byte of the ASCII set from s, leaving all other
// bytes as they are, valid UTF-8 or not.
func dropBytes(s, set string) string {
	if !strings.ContainsAny(s, set) {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(set, s[i]) < 0 {
			b = append(b, s[i])
		}
	}
	return string(b)
}
