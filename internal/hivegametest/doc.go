// Package hivegametest is a stand-in for hivegame.com's bot REST API, for the
// tests of hivebridge's client of it: the site cannot be reached from a test,
// and a mock written from the client's own idea of the API would pass the
// client's mistakes. This one is written from the site's source instead
// (GitHub hiveboardgame/hive, newest stored snapshot, commit 3217311874…),
// and answers as its handlers do: the same paths, fields, spellings, status
// codes and error texts, the same order of checks, the same clock and token
// rules. Each game is kept by hivebridge's rules engine (core), so a move the
// site refuses is refused here.
//
// What comes from where:
//
//   - apis/src/main.rs: the registered routes, exactly (trailing slashes
//     included); anything else is a 404 page, not JSON.
//   - apis/src/api/v1/auth/{auth_,encode,decode,get_token_handler,
//     get_identity_handler}.rs and jsonwebtoken 9 (Validation::default):
//     HS256 tokens {sub, iss:"hivegame.com", exp} with a typ JWT header,
//     100 minutes, accepted until exp+60 s; the Auth extractor's 401/400
//     bodies with data.message; the scheme word of Authorization is not
//     checked (split(" ").nth(1)). jsonwebtoken reads the claims into the
//     site's Claims before validating them, so a token without exp fails
//     as "JSON error: missing field `exp` …", not "Missing required claim".
//   - apis/src/api/v1/bot/{games,play,challenges,users}.rs: the envelopes
//     {"success":…,"data":…} with HTTP 200 for handled failures, the
//     validation order and texts of play, control and challenge creation,
//     accepting as a GET, deleting challenges.
//   - actix-web 4 (error/mod.rs, types/path.rs, Json extractor): a body that
//     is not JSON is a plain-text 400 "Json deserialize error: …" (413 over
//     2 MiB, 400 "Content type error" without a JSON Content-Type), raised
//     before the token is looked at, since extractors run in parameter
//     order.
//   - db/src/models/game.rs and db/src/game_command/execute.rs: the game row
//     (snake_case, "Real Time", nanosecond clocks, "Finished(Winner(w))"),
//     clocks frozen until Black's first move (an untimed game takes the
//     engine's status, InProgress from White's first move, which makes it
//     a "resumed opening" that may be resigned but not aborted at turn 1),
//     increments, the automatic
//     pass's increment, correspondence days per move, timeouts
//     (settle_deadline), resign/abort rules (validate_control), deleting an
//     aborted game, deleting the RealTime challenges of both players on
//     accept (create_and_delete_challenges), the history string
//     (update_gamestate: "piece dest;" per ply, "wS1 ;" first, "pass ;").
//   - engine/src/{piece,bug,color,position,game_error,history}.rs: what the
//     play endpoint's parser accepts (ply 0 is the piece alone, chars 0-2;
//     bug letters in either case, colour lower case only; an unanchored
//     position regex; Debug-quoted "Found … which is not a valid …").
//   - engine/src/{state,board,direction}.rs: how the site writes a move
//     into its history (update_history: the piece beneath for a climb, else
//     the first occupied neighbour in the order NW, SE, NE, SW, W, E, as
//     Board::get_neighbor and Position::positions_around list them, with
//     Direction::to_history_string), the automatic pass (is_shutout: only a
//     player whose Queen is down is passed for), and threefold repetition
//     (three_fold_repetition: the third occurrence of a position, passes
//     included, draws).
//
// Where the stand-in departs from the site, on purpose or for want of
// knowledge:
//
//   - Legality is core's. The site's engine and core agree on the rules as
//     far as hivebridge's tests know; where they differ, core decides. The
//     site's repetition hash also treats rotated and mirrored positions as
//     equal and tells apart the piece a Pillbug just threw; core's does
//     neither, so repetitions reached only by rotation are not drawn here.
//   - A piece that does not exist in the game (wS3, wM in Base) parses as
//     on the site and is then refused with "Invalid input"; what the site
//     does with one (its turn_spawn checks no reserve) was not determined,
//     nor what its 2-bit order field makes of wA4…wA9.
//   - Timeouts are settled whenever the server is asked anything, as if the
//     site's timeout_sweeper ran at once; the site may list a just-expired
//     game until its sweeper runs. Unstarted non-correspondence games
//     vanish after 12 h and non-public challenges after 7 days (the site's
//     cleanup jobs), measured on the same clock.
//   - Ratings are not modelled: every rating is 1500 and every change 0.
//     Zobrist hashes are core's PositionKey, not the site's values.
//   - serde_json's messages inside "Json deserialize error: …" follow its
//     wording for the common cases (missing field, invalid type, unknown
//     variant, syntax); exotic inputs may be worded differently, and so may
//     the jsonwebtoken and base64 texts for mangled tokens and the uuid
//     crate's text for a malformed user id (a plain-text 404).
//   - The web app's answer to an unregistered path (a 404 HTML page here)
//     was not determined; nor what N's control endpoint reports as
//     "finished" for an aborted, deleted game (false here: the row as it
//     was).
//   - GameResponse (accept only) carries every field; moves and spawns are
//     those of the empty board, the only position an accepted game can
//     have.
//
// Beyond the site, for tests only: faults to inject (500, 429 with
// Retry-After, a hang until the client gives up, an answer lost after the
// request took effect), counters of requests per path and of plays per
// game, a controllable clock, and methods that arrange the world (users,
// challenges, the human opponent's moves and resignation).
package hivegametest
