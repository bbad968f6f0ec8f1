// Package hivejson speaks the Choose-Turn JSON API that the older Hive AI
// modules speak (docs/specs/hive-ai-tcp.txt, API 0.1.0), built to what real
// peers send (docs/design/hivejson-wire.md, which wins where the two differ).
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
// A game_state without turn_history (a saved puzzle, a controller that
// sends only the board) is a set-up position: GameOf starts the game there
// with core.NewGameAt, at the board's own positions, so that the turns
// offered and answered keep the state's coordinates, and refuses a board
// that play cannot reach (ErrBadBoard, with the core's reason). The wire
// numbers no pieces and, without the history, cannot say which piece moved
// last; GameOf numbers a player's pieces of one type in board order and
// takes no piece to have moved last. The other way, StateOf writes a game
// that was set up from a position (by a Hub GUI's pos board=, say) as such
// a state, its board as it stands, since turn_history is "every ply" from
// the empty board.
//
// The wire spells a throw by the Pillbug differently from a piece's own
// walk to the same cell; the core's Throws and GenerateOwnMoves list the
// two apart (see turns.go).
package hivejson
