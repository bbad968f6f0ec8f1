package sgf

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hivebridge/hivebridge/core"
)

// Game is one game of Hive as a BoardSpace record holds it: the header's
// values and the moves, replayed and checked by the core.
type Game struct {
	// Index is the game tree's place in the file, from 0 (copies of an
	// earlier tree, which Read skips, are counted).
	Index int
	// Variant is the SU property as written ("hive-plm 2 0 101",
	// "Hive-PLM", "hive-p"), and GameType what it means.
	Variant  string
	GameType core.GameType
	// White and Black are the players' names, from the root's P0[id "..."]
	// and P1[id "..."] given to colours by the CM colour map and any
	// PlayWhite, PlayBlack or Swap action (see Read).
	White, Black string
	// Date (DT), Event (EV), Site (PC), Round (RO) and Name (GN) are the
	// header's values as written. BoardSpace writes DT as Java's
	// Date.toString in the server's time zone ("Thu May 11 11:57:24 CEST
	// 2023"), and GN as [T!|U!]HV-<P0>-<P1>-YYYY-MM-DD-HHMM, the time in
	// UTC; it writes no EV, PC or RO, which Mzinga reads.
	Date, Event, Site, Round, Name string
	// ResultText is the RE property as written: free text in the
	// winner's language ("Game won by Kaur50", "Dumbot vann spelet",
	// "The game is a draw"), absent from old records.
	ResultText string
	// Result is the outcome (see Read for how it is decided), and Ending
	// how the record says the game ended.
	Result core.Result
	Ending Ending
	// Moves are the game's turns, in order, passes included.
	Moves []core.Move
	// Props are the root's properties that the fields above do not hold
	// (GM, VV, CM, TC, a player's P0[ranking 1500], ...), as written.
	Props []Property
	// Options are the core.GameOptions the moves are replayed with, on
	// top of the defaults Read uses (no repetition draw): Read sets them
	// from ReadOptions, and Write replays with them too.
	Options []core.GameOption
}

// Ending says how a record's game ended.
type Ending uint8

// The endings.
const (
	// Unended: the record stops with the game under way. Result is then
	// what RE says, if it names a player or a draw.
	Unended Ending = iota
	// EndedByRules: the last move ended the game under the core's rules
	// (a Queen surrounded, or a repetition draw if an option turns it on).
	EndedByRules
	// Resigned: a player resigned (Resign, then Done).
	Resigned
	// DrawAgreed: a draw offer was accepted (AcceptDraw, then Done).
	DrawAgreed
	// WonOnTime: a player claimed the game on time (WinOnTime).
	WonOnTime
)

func (e Ending) String() string {
	switch e {
	case Unended:
		return "unended"
	case EndedByRules:
		return "ended by the rules"
	case Resigned:
		return "resigned"
	case DrawAgreed:
		return "draw agreed"
	case WonOnTime:
		return "won on time"
	}
	return "Ending(" + strconv.Itoa(int(e)) + ")"
}

// ParseVariant reads an SU value: its first word, in any case, names the
// variant; the rest is the numbers of BoardSpace's init string (players,
// random key, board revision: "hive-plm 2 0 101" since 2023), which change
// nothing in the game. The names were written hive-p (2013), hive-plm
// (2016, 2018), Hive-PLM (2019 to 2023) and hive-plm 2 0 101 (2023).
func ParseVariant(su string) (core.GameType, error) {
	f := strings.Fields(su)
	if len(f) == 0 {
		return 0, fmt.Errorf("empty variant (SU)")
	}
	// The variants of HiveConstants.variation, matched case-insensitively
	// by find_variation: the base game and the expansions each names, P
	// for the Pillbug, L the Ladybug, M the Mosquito. hive-pielm is
	// hive-plm with a choice of colours (PlayWhite, PlayBlack).
	// hive-ultimate mixes any bugs with blank pieces and a set-up phase,
	// which UHP and the core cannot play.
	switch strings.ToLower(f[0]) {
	case "hive":
		return core.Base, nil
	case "hive-m":
		return core.WithMosquito, nil
	case "hive-l":
		return core.WithLadybug, nil
	case "hive-p":
		return core.WithPillbug, nil
	case "hive-lm":
		return core.WithMosquito | core.WithLadybug, nil
	case "hive-pm":
		return core.WithMosquito | core.WithPillbug, nil
	case "hive-pl":
		return core.WithLadybug | core.WithPillbug, nil
	case "hive-plm", "hive-pielm":
		return core.AllExpansions, nil
	case "hive-ultimate", "hive-u":
		return 0, fmt.Errorf("variant %q is Hive Ultimate (blank pieces and a set-up phase), which has no UHP game type", su)
	}
	return 0, fmt.Errorf("unknown variant %q: want hive, hive-m, hive-l, hive-p, hive-lm, hive-pm, hive-pl, hive-plm or hive-pielm", su)
}

// VariantName returns BoardSpace's name of a game type, the inverse of
// ParseVariant: hive, hive-m, ..., hive-plm.
func VariantName(t core.GameType) string {
	s := "hive"
	if t&core.AllExpansions == 0 {
		return s
	}
	s += "-"
	if t&core.WithPillbug != 0 {
		s += "p"
	}
	if t&core.WithLadybug != 0 {
		s += "l"
	}
	if t&core.WithMosquito != 0 {
		s += "m"
	}
	return s
}

// decodeText turns a header value into UTF-8: BoardSpace's files are ASCII
// but for the players' names and the localised RE, which are UTF-8, or in
// some files Latin-1 (the notes, section 2), read as such when the bytes
// are not valid UTF-8.
func decodeText(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	r := make([]rune, len(s))
	for i := 0; i < len(s); i++ {
		r[i] = rune(s[i])
	}
	return string(r)
}

// playerName reads a root P0/P1 value of the form id "name"
// (BoardSpace's; Mzinga reads it with P0\[id "(.*)"\]).
func playerName(v string) (string, bool) {
	rest, ok := strings.CutPrefix(v, "id ")
	if !ok {
		return "", false
	}
	rest = strings.TrimSpace(rest)
	if len(rest) >= 2 && rest[0] == '"' && rest[len(rest)-1] == '"' {
		rest = rest[1 : len(rest)-1]
	}
	return rest, true
}

// resultFromText reads a result from RE's free text, as Mzinga and
// HiveGotThis do: "The game is a draw" is a draw; otherwise the player
// whose name it contains as a word won (Mzinga's plain Contains takes
// "guest" in "Game won by guest2", and any one-letter name in any text),
// the longer name winning if it contains both and no result if they are
// as long; failing that, a word for a draw: English, French, German and
// Dutch, Russian, Italian or Spanish (HiveGotThis's winner_from_result).
func resultFromText(re, white, black string) core.Result {
	if strings.TrimSpace(re) == "The game is a draw" {
		return core.Draw
	}
	w, b := containsWord(re, white), containsWord(re, black)
	switch {
	case w && b && len(white) > len(black):
		return core.WhiteWins
	case w && b && len(black) > len(white):
		return core.BlackWins
	case w && !b:
		return core.WhiteWins
	case b && !w:
		return core.BlackWins
	case w && b:
		return core.InProgress
	}
	lower := strings.ToLower(re)
	for _, word := range []string{"draw", "nulle", "remis", "ничья", "patta", "tablas"} {
		if strings.Contains(lower, word) {
			return core.Draw
		}
	}
	return core.InProgress
}

// containsWord reports whether s contains word with no letter or digit
// right before or after it.
func containsWord(s, word string) bool {
	if word == "" {
		return false
	}
	for i := 0; i+len(word) <= len(s); {
		j := strings.Index(s[i:], word)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(word)
		before, _ := utf8.DecodeLastRuneInString(s[:start])
		after, _ := utf8.DecodeRuneInString(s[end:])
		if !wordRune(before) && !wordRune(after) {
			return true
		}
		_, size := utf8.DecodeRuneInString(s[start:])
		i = start + size
	}
	return false
}

func wordRune(r rune) bool {
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r))
}
