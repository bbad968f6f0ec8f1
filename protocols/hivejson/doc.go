// Package hivejson holds the codecs of the Choose-Turn JSON API that the
// older Hive AI modules speak (specs/hive-ai-tcp.txt, API 0.1.0), built to
// what real peers send (design/hivejson-wire.md, which wins where the two
// differ). It is pure: bytes and values in, values and bytes out, no
// sockets, no clock, no package-level mutable state. The sessions that
// use it (the AI-module server and the controller-side client) live
// elsewhere.
//
//   - framing.go: the "<length>#<json>" frame, its length in UTF-16 code
//     units, ASCII-only output, and an incremental Decoder that takes bytes
//     as they arrive, with an error for every kind of malformed frame.
//   - messages.go: Greetings and Choose Turn requests and responses, Turn,
//     the error frame, and ParseMessage, which tells them apart.
//   - state.go, pos.go, turns.go: game_state to and from the core game:
//     "row,col" positions (Pos), stacks, hands, the turn history, and
//     possible_turns computed by the core's rules (StateOf, GameOf,
//     TurnOf, MoveOf, PossibleTurnsOf, Offered).
//
// There is no game-end message on the wire: the end of a game shows only in
// a game_state, as game_over, winner, is_draw and a null possible_turns.
//
// Two things the core does not offer yet, and how this package does
// without them:
//
//   - A game from a position with no history. GameOf rebuilds a game by
//     playing its turn_history, which real peers always send; a state
//     without one is refused (ErrNoHistory). A core set-up API would lift
//     that: something like core.NewGameAt(t GameType, stacks [][]Piece at
//     cells, ply int, lastMoved Piece, opts ...GameOption) (*Game, error),
//     validating piece counts and a connected hive, with History empty
//     and the start position's hash kept for the repetition rule.
//   - The kind of a move. The core lists a piece and its destination once,
//     whether the piece walks there or a Pillbug throws it, and the wire
//     spells the two differently. This package lists throws itself from
//     the core's exported facts, and finds a piece's own moves in a shadow
//     game without the Pillbug's ability (see turns.go). A core call such
//     as (*Game).GenerateThrows(dst []Throw) []Throw, with
//     Throw{User, Piece Piece; To Cell}, plus a flag to GenerateMoves that
//     leaves throws out, would replace both.
package hivejson
