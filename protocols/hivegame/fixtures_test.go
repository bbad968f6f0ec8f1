package hivegame_test

// Answers shaped as the site writes them (research notes §1.1, §4.2, §6.1):
// serde_json::json! turns every nested value into a Map, which is a
// BTreeMap, so keys come out sorted at every level.

const (
	aliceID = "0190a1b2-3c4d-7e5f-8a9b-0c1d2e3f4a5b" // a person
	botID   = "0190a1b2-3c4d-7e5f-8a9b-0c1d2e3f4a5c" // the bot
	botMail = "bot@example.com"
)

// rowInProgress is a version N row: Black (the bot) to move at turn 3 in a
// 10+5 game, with nullable fields null, a negative hash, a null hash and a
// field no version has.
const rowInProgress = `{"arena_move_due_at":null,"arena_ordinal":null,"black_berserked":false,` +
	`"black_id":"` + botID + `","black_rating":null,"black_rating_change":null,` +
	`"black_time_left":598500000000,"conclusion":"Unknown","created_at":"2025-06-01T10:00:00.123456Z",` +
	`"current_player_id":"` + botID + `","finished":false,"finished_at":null,"game_control_history":"",` +
	`"game_start":"Moves","game_status":"InProgress","game_type":"Base+MLP",` +
	`"hashes":[-5834719043985310207,1234567890123,null],"history":"wS1 ;bG1 -wS1;wA1 wS1/;",` +
	`"id":"0190a1b2-0000-7000-8000-000000000001","last_interaction":"2025-06-01T10:01:30.5Z",` +
	`"move_times":[600000000000,598500000000,603000000000],"nanoid":"qaTq1dsIi3-i","rated":true,"speed":"Rapid",` +
	`"time_base":600,"time_increment":5,"time_mode":"Real Time","timeout_at":"2025-06-01T10:11:29Z",` +
	`"tournament_game_result":"Unknown","tournament_id":null,"tournament_queen_rule":true,` +
	`"tournament_slot_id":null,"turn":3,"updated_at":"2025-06-01T10:01:30.5Z","white_berserked":false,` +
	`"white_id":"` + aliceID + `","white_rating":null,"white_rating_change":null,` +
	`"white_time_left":603000000000,"zz_future":{"nested":[1,2]}}`

// rowFinishedDraw is a finished correspondence game drawn by repetition,
// with ratings set and the tournament result's "½-½".
const rowFinishedDraw = `{"black_id":"` + botID + `","black_rating":1523.25,"black_rating_change":-1.5,` +
	`"black_time_left":172800000000000,"conclusion":"Repetition","created_at":"2025-05-01T00:00:00Z",` +
	`"current_player_id":"` + aliceID + `","finished":true,"finished_at":"2025-05-09T12:00:00Z",` +
	`"game_control_history":"5. DrawOffer(w);6. DrawReject(b);","game_start":"Moves",` +
	`"game_status":"Finished(Draw)","game_type":"Base","hashes":[],"history":"wS1 ;bS1 wS1-;pass ;wQ -wS1;",` +
	`"id":"0190a1b2-0000-7000-8000-000000000002","last_interaction":"2025-05-09T12:00:00Z","move_times":[null,null],` +
	`"nanoid":"H1-jt7m6dZfi","rated":true,"speed":"Correspondence","time_base":null,"time_increment":259200,` +
	`"time_mode":"Correspondence","timeout_at":null,"tournament_game_result":"½-½","tournament_id":null,` +
	`"tournament_queen_rule":true,"turn":4,"updated_at":"2025-05-09T12:00:00Z","white_id":"` + aliceID + `",` +
	`"white_rating":1490.0,"white_rating_change":1.5,"white_time_left":259200000000000}`

// rowOldNotStarted is a row of an older version (no game_start, no
// berserk, no finished_at...): a new untimed game, the bot White at turn 0.
const rowOldNotStarted = `{"black_id":"` + aliceID + `","black_rating":null,"black_rating_change":null,` +
	`"black_time_left":null,"conclusion":"Unknown","created_at":"2024-02-03T04:05:06.789Z",` +
	`"current_player_id":"` + botID + `","finished":false,"game_control_history":"",` +
	`"game_status":"NotStarted","game_type":"Base+MLP","hashes":[],"history":"",` +
	`"id":"0190a1b2-0000-7000-8000-000000000003","last_interaction":null,"move_times":[],` +
	`"nanoid":"iLGbFmm7C9Xn","rated":false,"speed":"Untimed","time_base":null,"time_increment":null,` +
	`"time_mode":"Untimed","tournament_queen_rule":true,"turn":0,"updated_at":"2024-02-03T04:05:06.789Z",` +
	`"white_id":"` + botID + `","white_rating":null,"white_rating_change":null,"white_time_left":null}`

func gamesBody(rows ...string) string {
	b := `{"data":{"bot":"` + botMail + `","bot_username":"hivebridge-bot","games":[`
	for i, r := range rows {
		if i > 0 {
			b += ","
		}
		b += r
	}
	return b + `]},"success":true}`
}

const ratingsJSON = `{"Blitz":{"certainty":"Provisional","draw":0,"loss":2,"played":5,"rating":1512,"speed":"Blitz","user_uid":"` + aliceID + `","win":3},` +
	`"Bullet":{"certainty":"Clueless","draw":0,"loss":0,"played":0,"rating":1500,"speed":"Bullet","user_uid":"` + aliceID + `","win":0},` +
	`"Classic":{"certainty":"Clueless","draw":0,"loss":0,"played":0,"rating":1500,"speed":"Classic","user_uid":"` + aliceID + `","win":0},` +
	`"Correspondence":{"certainty":"Rankable","draw":4,"loss":10,"played":40,"rating":1633,"speed":"Correspondence","user_uid":"` + aliceID + `","win":26},` +
	`"Rapid":{"certainty":"Clueless","draw":0,"loss":0,"played":0,"rating":1500,"speed":"Rapid","user_uid":"` + aliceID + `","win":0}}`

// challengeDirect is a direct challenge from a person to the bot.
const challengeDirect = `{"band_lower":null,"band_upper":null,"challenge_id":"H1-jt7m6dZfi",` +
	`"challenger":{"admin":false,"bot":false,"deleted":false,"lang":"en","patreon":true,"ratings":` + ratingsJSON + `,` +
	`"takeback":"CasualOnly","uid":"` + aliceID + `","username":"alice"},"challenger_rating":1512,` +
	`"color_choice":"Random","created_at":"2025-06-01T09:59:00.000001Z","game_type":"Base+MLP",` +
	`"id":"0190a1b2-0000-7000-8000-0000000000c1","opponent":{"admin":false,"bot":true,"deleted":false,"lang":null,` +
	`"patreon":false,"ratings":{},"takeback":"Never","uid":"` + botID + `","username":"hivebridge-bot"},` +
	`"rated":true,"speed":"Blitz","time_base":300,"time_increment":3,"time_mode":"RealTime","visibility":"Direct"}`

// challengeOwnOld is the bot's own public challenge as an older version
// writes it: a UserResponse of three fields, no opponent.
const challengeOwnOld = `{"challenge_id":"Zx_9-aaBBcc1","challenger":{"ratings":{},"uid":"` + botID + `","username":"hivebridge-bot"},` +
	`"challenger_rating":1500,"color_choice":"White","created_at":"2025-06-01T09:00:00Z","game_type":"Base",` +
	`"id":"0190a1b2-0000-7000-8000-0000000000c2","opponent":null,"rated":false,"speed":"Correspondence",` +
	`"time_base":null,"time_increment":86400,"time_mode":"Correspondence","visibility":"Public"}`

func challengesBody(cs ...string) string {
	b := `{"data":{"bot":"` + botMail + `","bot_username":"hivebridge-bot","challenges":[`
	for i, c := range cs {
		if i > 0 {
			b += ","
		}
		b += c
	}
	return b + `]},"success":true}`
}

// Other answers of the site.
const (
	bodyNotYourTurn   = `{"data":{"error":"Not your turn"},"success":false}`
	bodyExpired       = `{"data":{"message":"ExpiredSignature"},"success":false}`
	bodyNoToken       = `{"data":{"message":"No token provided"},"success":false}`
	bodyUserNotFound  = `{"data":{"message":"User not found"},"success":false}`
	bodyBadPassword   = `{"data":{"message":"error running server function: Password does not match."},"success":false}`
	bodyJSONError     = "Json deserialize error: missing field `piece_pos` at line 1 column 25"
	bodyPlayed        = `{"data":{"bot":"` + botMail + `","bot_username":"hivebridge-bot","history":"wS1 ;bG1 -wS1;wA1 wS1/;bQ \\bG1;"},"success":true}`
	bodyIdentity      = `{"data":{"bot":"` + botMail + `","user_id":"` + botID + `"},"success":true}`
	bodyIdentityOld   = `{"data":{"bot":"` + botMail + `"},"success":true}`
	bodyControl       = `{"data":{"bot":"` + botMail + `","bot_username":"hivebridge-bot","finished":true,"game_id":"qaTq1dsIi3-i"},"success":true}`
	bodyDeleted       = `{"data":{"bot":"` + botMail + `","bot_username":"hivebridge-bot","challenge_id":"H1-jt7m6dZfi"},"success":true}`
	bodyGameNotFound  = `{"data":{"error":"Not found: Not found."},"success":false}`
	bodyHTMLFallthru  = "<!DOCTYPE html>\n<html lang=\"en\">\n  <head>\n    <title>hivegame.com</title>\n  </head>\n  <body>\n    <main>Page not found</main>\n  </body>\n</html>\n"
	bodyProxy502      = "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n"
	bodyDBUnavailable = `{"data":{"message":"Database connection error"},"success":false}`
)

// bodyAccepted is a GameResponse as challenge/accept answers it, with the
// serde enum spellings the game rows do not use.
const bodyAccepted = `{"data":{"bot":"` + botMail + `","bot_username":"hivebridge-bot","game":{` +
	`"black_player":{"admin":false,"bot":true,"deleted":false,"lang":null,"patreon":false,"ratings":{},"takeback":"Never","uid":"` + botID + `","username":"hivebridge-bot"},` +
	`"black_time_left":{"nanos":0,"secs":300},"current_player_id":"` + aliceID + `","finished":false,` +
	`"game_control_history":[],"game_id":"H1-jt7m6dZfi","game_start":"Moves","game_status":"NotStarted","game_type":"MLP",` +
	`"hashes":[],"history":[],"moves":{},"rated":true,"repetitions":[],"reserve_black":{"Queen":["bQ"]},"reserve_white":{"Queen":["wQ"]},` +
	`"spawns":[],"speed":"Blitz","time_base":300,"time_increment":3,"time_mode":"RealTime","tournament":null,` +
	`"tournament_game_result":"Unknown","tournament_queen_rule":true,"turn":0,"uuid":"0190a1b2-0000-7000-8000-000000000009",` +
	`"white_player":{"admin":false,"bot":false,"deleted":false,"lang":"en","patreon":true,"ratings":{},"takeback":"CasualOnly","uid":"` + aliceID + `","username":"alice"},` +
	`"white_time_left":{"nanos":0,"secs":300}}},"success":true}`
