package hivejson

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/core/engine"
)

// The messages of the Hive API 0.1.0 (docs/specs/hive-ai-tcp.txt), with the
// facts of docs/design/hivejson-wire.md where the two differ. Field names are
// exactly the wire's. A controller (the game core) sends requests, an AI
// module answers each with one response; a peer that cannot read a frame
// answers with an error frame.

// SystemVersion is the API version that a Greetings request announces.
const SystemVersion = "0.1.0"

// Request and response types. The 0.0.1 spellings GREETINGS and CHOOSE_TURN
// are dead, "but cost nothing to accept" (wire doc); they are never sent.
const (
	TypeGreetings  = "Greetings"
	TypeChooseTurn = "Choose Turn"

	legacyGreetings  = "GREETINGS"
	legacyChooseTurn = "CHOOSE_TURN"
)

// IsGreetings reports whether a request_type or response_type names the
// Greetings exchange, in either spelling.
func IsGreetings(t string) bool { return t == TypeGreetings || t == legacyGreetings }

// IsChooseTurn reports whether a request_type or response_type names the
// Choose Turn exchange, in either spelling.
func IsChooseTurn(t string) bool { return t == TypeChooseTurn || t == legacyChooseTurn }

// The turn types of a Turn's turn_type and the keys of possible_turns.
const (
	TurnPlacement      = "Placement"
	TurnMovement       = "Movement"
	TurnSpecialAbility = "Special Ability"
	// TurnForfeit is a pass, "only when nothing else is legal" (wire doc);
	// despite its name it does not resign the game.
	TurnForfeit = "Forfeit"
)

// The colours, as player_turn, winner, a piece's color and the keys of
// hands spell them.
const (
	ColorWhite = "White"
	ColorBlack = "Black"
)

// ColorName returns the wire's name of a colour.
func ColorName(c core.Color) string {
	if c == core.White {
		return ColorWhite
	}
	return ColorBlack
}

// Message is one of the messages ParseMessage recognises:
// *GreetingsRequest, *GreetingsResponse, *ChooseTurnRequest,
// *ChooseTurnResponse or *ErrorFrame.
type Message interface{ isMessage() }

// GreetingsRequest is
//
//	"used to establish the identity of a remote AI module and also to
//	inform the module about the semantic version string of the system."
//
// It is the first request on every connection:
// {"request_type":"Greetings","request_id":"k5i7O","system_version":"0.1.0"}.
type GreetingsRequest struct {
	RequestType   string `json:"request_type"`
	RequestID     string `json:"request_id"`
	SystemVersion string `json:"system_version"`
}

// NewGreetingsRequest returns the Greetings request a controller sends.
func NewGreetingsRequest(requestID string) GreetingsRequest {
	return GreetingsRequest{RequestType: TypeGreetings, RequestID: requestID, SystemVersion: SystemVersion}
}

// Reply returns info as the answer to r: the response type, and r's id
// under both names (see GreetingsResponse).
func (r *GreetingsRequest) Reply(info GreetingsResponse) GreetingsResponse {
	info.ResponseType = TypeGreetings
	info.ResponseID = r.RequestID
	info.RequestID = r.RequestID
	return info
}

// GreetingsResponse identifies an AI module; the spec: "this is the same
// format as the package.json files bundled with the AI". The controller
// "needs "active":true or it never uses the AI" (wire doc).
//
// Replies echo the request's id as response_id, though the spec's Choose
// Turn example says request_id; "The controller checks neither: accept
// both, send response_id and request_id both" (wire doc).
type GreetingsResponse struct {
	ResponseType string `json:"response_type"`
	ResponseID   string `json:"response_id"`
	RequestID    string `json:"request_id"`
	// Name is the "short name / code-name internally used to identify in
	// records involving this module".
	Name string `json:"name"`
	// Active is "whether this AI is considered to be in a usable state by
	// its owner".
	Active bool `json:"active"`
	// Version is the "version of the AI code".
	Version string `json:"version"`
	// LongName is the "display name".
	LongName string `json:"long_name"`
	// Module is "[optional] currently only used to locate local AI
	// modules".
	Module string `json:"module,omitempty"`
	// Description is the "short description; displayed to user".
	Description string `json:"description"`
	Author      string `json:"author,omitempty"`      // [optional]
	ProjectURL  string `json:"project_url,omitempty"` // [optional]
	Language    string `json:"language,omitempty"`    // [optional]
}

// ID returns the id the response echoes: response_id, or request_id when a
// peer sent only that.
func (r *GreetingsResponse) ID() string { return firstNonEmpty(r.ResponseID, r.RequestID) }

// ChooseTurnRequest is
//
//	"used to request turns from remote AI modules. the possible turns are
//	enumerated in advance, and the AI is expected to choose one. the board
//	state and the contents of each players' hand is also given."
//
// The spec says that an answer not received by response_deadline loses the
// game, but "Nothing times out in the original: response_deadline is
// always null in practice" (wire doc); hivebridge keeps deadlines of its
// own whatever this field says.
type ChooseTurnRequest struct {
	RequestType string `json:"request_type"`
	RequestID   string `json:"request_id"`
	// GameID is "used to identify game among multiple simultaneous ongoing
	// games"; one connection may be asked to play both colours.
	GameID string `json:"game_id"`
	// RequestTimestamp is the sender's clock in milliseconds since the
	// epoch, "a reference point for the receiver".
	RequestTimestamp int64 `json:"request_timestamp"`
	// ResponseDeadline is null, or milliseconds since the epoch.
	ResponseDeadline *int64    `json:"response_deadline"`
	GameState        GameState `json:"game_state"`
}

// NewChooseTurnRequest returns the Choose Turn request for the position of
// g, with the game_state of StateOf (and so complete and correct
// possible_turns) and a null response_deadline, as the original sends.
func NewChooseTurnRequest(requestID, gameID string, timestampMillis int64, g *core.Game) (ChooseTurnRequest, error) {
	s, err := StateOf(g)
	if err != nil {
		return ChooseTurnRequest{}, err
	}
	return ChooseTurnRequest{
		RequestType:      TypeChooseTurn,
		RequestID:        requestID,
		GameID:           gameID,
		RequestTimestamp: timestampMillis,
		GameState:        s,
	}, nil
}

// Reply returns the response that answers r with turn t.
func (r *ChooseTurnRequest) Reply(t Turn) ChooseTurnResponse {
	return ChooseTurnResponse{
		ResponseType: TypeChooseTurn,
		ResponseID:   r.RequestID,
		RequestID:    r.RequestID,
		GameID:       r.GameID,
		Turn:         t,
	}
}

// ChooseTurnResponse is an AI module's answer to a Choose Turn request:
//
//	{"response_type":"Choose Turn","response_id":ID,"game_id":G,"turn_type":...}
//
// with the fields of the chosen Turn. "A reply with an error key, or a turn
// not in possible_turns, loses the game by penalty" (wire doc).
type ChooseTurnResponse struct {
	ResponseType string `json:"response_type"`
	ResponseID   string `json:"response_id"`
	RequestID    string `json:"request_id"`
	GameID       string `json:"game_id"`
	Turn
	// Error is whatever the peer sent under "error". hivebridge sends it
	// only for a request it cannot answer with a legal turn at all (see
	// Refuse).
	Error json.RawMessage `json:"error,omitempty"`
}

// Refuse returns the response that answers r with err instead of a turn.
// It loses the game by penalty, but it ends the game rather than leaving
// the controller waiting: "A silent AI hangs the original controller
// forever" (wire doc).
func (r *ChooseTurnRequest) Refuse(err error) ChooseTurnResponse {
	msg, _ := json.Marshal(err.Error())
	return ChooseTurnResponse{
		ResponseType: TypeChooseTurn,
		ResponseID:   r.RequestID,
		RequestID:    r.RequestID,
		GameID:       r.GameID,
		Error:        msg,
	}
}

// ID returns the id the response echoes: response_id, or request_id.
func (r *ChooseTurnResponse) ID() string { return firstNonEmpty(r.ResponseID, r.RequestID) }

// Failed reports whether the response carries an error key, which forfeits
// the game.
func (r *ChooseTurnResponse) Failed() bool { return r.Error != nil }

// Turn is one turn, as a Choose Turn reply spells it and as turn_history
// lists the turns played:
//
//	{"turn_type":"Placement","piece_type":"Soldier Ant","destination":"-1,-1"}
//	{"turn_type":"Movement","source":"0,0","destination":"2,0"}
//	{"turn_type":"Special Ability","ability_user":"0,0","source":"1,1","destination":"2,0"}
//	{"turn_type":"Forfeit"}
//
// Positions are "row,col" (see Pos). History entries "may carry extra keys
// such as response_type, game_id: ignore unknown keys" (wire doc), which
// decoding into a Turn does.
type Turn struct {
	TurnType    string `json:"turn_type"`
	PieceType   string `json:"piece_type,omitempty"`
	AbilityUser string `json:"ability_user,omitempty"`
	Source      string `json:"source,omitempty"`
	Destination string `json:"destination,omitempty"`
}

// ErrorFrame is what the reference server answers to "any bad frame
// (non-numeric length, invalid JSON, unknown request type)":
// {"success":false,"error":"..."}. "Never answer an error frame (two such
// peers can ping-pong forever)" (wire doc).
type ErrorFrame struct {
	Success bool   `json:"success"`
	Message string `json:"error"`
}

// NewErrorFrame returns the error frame that reports err.
func NewErrorFrame(err error) ErrorFrame { return ErrorFrame{Message: err.Error()} }

func (*GreetingsRequest) isMessage()   {}
func (*GreetingsResponse) isMessage()  {}
func (*ChooseTurnRequest) isMessage()  {}
func (*ChooseTurnResponse) isMessage() {}
func (*ErrorFrame) isMessage()         {}

// Errors of ParseMessage, wrapped with the details.
const (
	ErrNotObject      engine.Error = "hivejson: message is not a JSON object"
	ErrUnknownRequest engine.Error = "hivejson: unknown request type"
	ErrUnknownMessage engine.Error = "hivejson: message has no request_type, response_type or error"
	ErrBadMessage     engine.Error = "hivejson: malformed message"
)

// ParseMessage decodes the JSON text of one frame into the message it is:
// a request by its request_type, a response by its response_type (old
// spellings accepted), or an error frame by its success or error key.
// Unknown keys are ignored. An unknown request type is an error wrapping
// ErrUnknownRequest, which the reference server answers with an error
// frame.
func ParseMessage(raw []byte) (Message, error) {
	var env struct {
		RequestType  *string         `json:"request_type"`
		ResponseType *string         `json:"response_type"`
		Success      json.RawMessage `json:"success"`
		Error        json.RawMessage `json:"error"`
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil, ErrNotObject
	}
	if err := json.Unmarshal(raw, &env); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadMessage, err)
	}
	var m Message
	switch {
	case env.RequestType != nil && IsGreetings(*env.RequestType):
		m = new(GreetingsRequest)
	case env.RequestType != nil && IsChooseTurn(*env.RequestType):
		m = new(ChooseTurnRequest)
	case env.RequestType != nil:
		return nil, fmt.Errorf("%w %q", ErrUnknownRequest, *env.RequestType)
	case env.ResponseType != nil && IsGreetings(*env.ResponseType):
		m = new(GreetingsResponse)
	case env.ResponseType != nil && IsChooseTurn(*env.ResponseType):
		m = new(ChooseTurnResponse)
	case env.ResponseType != nil:
		return nil, fmt.Errorf("%w: unknown response type %q", ErrUnknownMessage, *env.ResponseType)
	case env.Success != nil || env.Error != nil:
		m = new(ErrorFrame)
	default:
		return nil, ErrUnknownMessage
	}
	if err := json.Unmarshal(raw, m); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadMessage, err)
	}
	return m, nil
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
