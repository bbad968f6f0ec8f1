// Package hivegame speaks hivegame.com's HTTP bot API: the site's message
// types, pure codecs for its answers and its game history, and a REST
// client. It imports only the standard library: the games it reads are the
// site's raw database rows and strings, which the caller turns into moves
// of its own model.
//
// Every rule here was read from the site's source (GitHub
// hiveboardgame/hive; the newest stored snapshot is commit 3217311874a9…,
// "version N" below), and each is named where it is applied:
//
//   - apis/src/main.rs: the routes, their methods and exact paths (the
//     trailing slash of /api/v1/bot/challenges/ and none elsewhere), and
//     that there is no rate limiter.
//   - apis/src/api/v1/bot/games.rs, play.rs, challenges.rs: the envelope
//     {"success":bool,"data":{...}}, HTTP 200 for handled failures with
//     data.error, the request bodies (PlayRequest, ControlRequest,
//     BotChallengeRequest with its externally tagged BotTimeControl), and
//     what each answer's data holds.
//   - apis/src/api/v1/auth/auth_.rs, encode.rs, decode.rs,
//     get_identity_handler.rs: POST /api/v1/auth/token, the JWT (HS256,
//     claims sub, iss, exp, a lifetime of 100 minutes, no refresh
//     endpoint), the Auth extractor's 401s and its 400 "User not found"
//     with data.message, and GET /api/v1/auth/id.
//   - db/src/models/game.rs: the Game row as the games endpoints return it
//     (snake_case, clocks in nanoseconds, signed hashes), get_time_left and
//     get_realtime_time_info_at (the clock frozen while NotStarted, which
//     for game_start "Moves" lasts until ply 2), update_gamestate (the
//     history string "piece destination;" per ply).
//   - engine/src/history.rs (History::new_from_str), piece.rs,
//     direction.rs: how the site reads its own history strings, and how
//     pieces and destinations are spelt.
//   - engine/src/game_status.rs, game_result.rs, color.rs: game_status
//     strings such as "Finished(Winner(w))".
//   - shared_types/src/time_mode.rs ("Real Time" in rows, "RealTime" in
//     challenges), clock.rs (Clock::from_time_parts: which of time_base
//     and time_increment each time control sets),
//     tournament_game_result.rs ("½-½").
//   - apis/src/responses/challenge.rs, user.rs, rating.rs:
//     ChallengeResponse, UserResponse, RatingResponse; game.rs:
//     GameResponse, of which Accept keeps the stable part.
//   - actix-web 4 (actix/actix-web, actix-web/src/error/mod.rs): the
//     plain-text 400 "Json deserialize error: ..." that comes before any
//     envelope.
//
// Older versions of the handlers are still met (other error texts, fewer
// trailing row fields, no bot_username, no user_id in /auth/id); the types
// ignore unknown fields and allow the newer ones to be missing, and nothing
// here depends on an error's exact words, except for the three token
// messages that make the client log in again (ExpiredSignature,
// InvalidToken, InvalidSignature), which jsonwebtoken prints the same way
// in every version.
//
// The files:
//
//   - types.go: Game (with IsTurnOf, Result, TimeLeft, TimeControl),
//     Challenge, UserResponse, RatingResponse, AcceptedGame, and the
//     request bodies CreateChallengeRequest, BotTimeControl, PlayRequest,
//     ControlRequest.
//   - history.go: ParseHistory, FormatHistory and FormatMove, the site's
//     move strings.
//   - envelope.go: DecodeEnvelope, APIError, ParseRetryAfter, and one
//     Decode function for each answer's data.
//   - client.go: Client, which logs in, keeps the token fresh and calls
//     each endpoint.
//
// The package has no mutable state of its own; its codecs may run
// concurrently, and so may a Client's methods.
package hivegame
