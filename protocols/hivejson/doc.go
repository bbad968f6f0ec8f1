// Package hivejson speaks the Choose-Turn JSON API that the older Hive AI
// modules speak (specs/hive-ai-tcp.txt, API 0.1.0), built to what real
// peers send (design/hivejson-wire.md, which wins where the two differ).
// Its codecs are pure: bytes and values in, values and bytes out, no
// sockets, no clock, so that each can be fuzzed and round-tripped. The two
// session loops that use them work on a connection they are given and
// hold no package-level mutable state either.
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
//   - server.go: the AI module's side, a Server answering Greetings and
//     Choose Turn on each controller's connection with a Searcher's move.
//   - client.go: the controller's side, a Client sending one request at
//     a time on a connection and reading its reply.
//
// There is no game-end message on the wire: the end of a game shows only in
// a game_state, as game_over, winner, is_draw and a null possible_turns.
//
// One thing the core does not offer yet, and how this package does
// without it: a game from a position with no history. GameOf rebuilds a
// game by playing its turn_history, which real peers always send; a state
// without one is refused (ErrNoHistory). A core set-up API would lift
// that: something like core.NewGameAt(t GameType, stacks [][]Piece at
// cells, ply int, lastMoved Piece, opts ...GameOption) (*Game, error),
// validating piece counts and a connected hive, with History empty and the
// start position's hash kept for the repetition rule.
//
// The wire spells a throw by the Pillbug differently from a piece's own
// walk to the same cell; the core's Throws and GenerateOwnMoves list the
// two apart (see turns.go).
package hivejson
