// What Hub takes from UHP (package uhp), and all it may take
// (docs/architecture.md; TestHubTakesOnlyMoveStrings in layout_test.go
// checks the sources, tests apart): the MoveString codec, uhp.ParseMove and
// uhp.FormatMove. The rest of the dialect's notation is read without UHP:
// piece, game type and turn names are core's (core.ParsePiece,
// core.ParseGameType and core.GameType.Name, core.ParseTurn and core.Turn),
// and so is the GameStateString (core.GameState), the GameString of game=
// is gamestring.go's, and the line reading of a peer is lines.go's own copy of UHP's. The tests may
// use more of uhp, to check that the two protocols agree.

// Package hub holds the codecs of the Hub protocol (docs/specs/hub-v2.txt,
// written for draughts by Fabien Letouzey for Scan and the Hub GUI) in the
// Hive dialect of docs/design/hub-hive.md: "The line syntax, the command set and
// the order of a search are Hub's, unchanged. Only the contents of
// positions, moves and scores are Hive's."
//
// The codecs are pure functions of strings and core values, so that each
// can be fuzzed and round-tripped without a process or a socket. There are
// two layers:
//
//   - line.go: the lexer and printer of a Hub line, "<command> <arg>=<val>
//     <arg>=<val> ...", with quoted values and flags (Line, Arg, Parse,
//     Line.String).
//   - message.go, hive.go, info.go and params.go: what the lines of the
//     Hive dialect mean.
//     Every command the GUI sends (hub, set-param, init, pos, level, go,
//     ponder-hit, stop, new-game, ping, quit) and every answer of the engine
//     (id, param, wait, ready, info, done, pong, error) is a typed Message
//     with a Line method to write it and a Parse function to read it;
//     DecodeCommand and DecodeAnswer dispatch on the command word, so that a
//     session, on either side, is one switch over the message types. Moves
//     are UHP MoveStrings (package uhp), a position is a game type plus the
//     moves from the start, a score a real number with forced results at
//     ±(1000-N). info.go holds the info line and params.go the param line,
//     each with its conversion to and from the engine contract.
//   - board.go: hivebridge's board= form of pos (see Set-up positions);
//     gamestring.go: its game= form, a UHP GameString.
//   - numbers.go: the numbers of the lines, whole, real and in seconds.
//
// On these codecs stand the two sides of a conversation, and what they
// share:
//
//   - session.go: the engine side, Session, which answers a GUI on a
//     reader and a writer with any engine.Searcher behind it, reading input
//     while it searches, and answering stop at once even for a searcher
//     that cannot be interrupted (Config.Interruptible, Config.Fallback).
//   - client.go: the GUI side, Client, which sends commands to an engine
//     and awaits its answers, every wait bounded by a context; the
//     supervision of an engine process is translate's (HubProcess).
//   - lines.go: the reading of a peer's lines, the engine's output for the
//     Client (LineReader) and the GUI's commands for the Session.
//   - clock.go: the time a level allows one search (Level.Limit,
//     Allocate), the one rule of time allocation that the match referee
//     shares.
//   - params.go: beside the param line, engine parameters to and from UHP
//     options (SettingOf, OptionOf), so that a backend's options are a Hub
//     GUI's parameters and a Hub engine's parameters are --engine-option's.
//
// # Set-up positions
//
// hub-hive.md gives a position as a game type and the moves from the
// start. A puzzle, or a GUI that holds only a board, has no such moves;
// hivebridge adds a board= form beside moves=, in the dialect's spirit of
// plain text on one line:
//
//	pos [variant=<GameType>] board=<stacks> turn=<TurnString> [last=<piece>] [moves="<m1>;<m2>;..."]
//
// board= lists the occupied cells separated by ';', each written
// q,r:<piece>/<piece>/..., the stack from its bottom piece up, in UHP piece
// names (wQ, bS1, wB2). q and r are axial coordinates: from the cell q,r,
// q+1,r is the neighbour to the east (where UHP's "X ref-" puts X), q,r+1
// to the south-east ("X ref\"), q-1,r+1 to the south-west ("X /ref"),
// q-1,r to the west ("X -ref"), q,r-1 to the north-west ("X \ref") and
// q+1,r-1 to the north-east ("X ref/"). Where the hive stands does not
// matter, only how its cells touch. turn= is a UHP TurnString, White[5] or
// Black[12]: the side to move and its turn number, which counts passes, so
// it may be higher than the pieces need but never lower. last= names the
// piece the previous turn moved, placed or threw, which, with the Pillbug,
// may neither move nor be thrown now; it is left out when there is none or
// it is not known. moves=, if given, are played from the board as from the
// start of a game. After wS1; bS1 wS1-; wQ -wS1; bQ bS1-; wG1 -wQ;
// bB1 bS1/; wA1 /wQ; bB1 bS1; wA1 wS1\; bB1 wS1, in which the Black Beetle
// came in and climbed over its own Spider onto the White one, it is
//
//	pos variant=Base board=-2,0:wG1;-1,0:wQ;0,0:wS1/bB1;1,0:bS1;2,0:bQ;0,1:wA1 turn=White[6] last=bB1
//
// The value has no blank, so it needs no quotes. Load checks the board
// with core.NewGameAt: one that play cannot reach gets error
// message="board=: <why>" and the previous position is kept. PosOf writes a
// game that was set up from a board in this form, with the moves played
// since, so a GUI gets back what it sent (GamePosOf too: a GameString
// cannot hold a board, see ErrSetUp).
//
// The package keeps no state of its own: everything is a value, or belongs
// to the Session or Client that holds it.
package hub
