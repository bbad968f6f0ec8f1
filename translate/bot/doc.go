// Package bot plays games at hivegame.com for bot accounts, each through
// any backend hivebridge speaks to (the native searcher, a UHP or Hub
// engine process, a Choose-Turn JSON module), over the site's HTTP bot API
// (protocols/hivegame).
//
// The site keeps every game's state; the bot keeps none it could not read
// again. Each account has one goroutine that polls the site: the games where
// it is to move every PollInterval, all its games every SweepInterval (to
// see those that ended and take up those it did not know, which is how a
// bot started again resumes its games where they stand), and its
// challenges, accepting those its Policy allows and issuing its own. Each
// turn runs in a goroutine of its own, never two for one game:
//
//   - the game is brought in step with the site's history, the site's own
//     spelling of the moves and the passes it made by itself, replayed by
//     hivebridge's rules; the game's engine, kept from turn to turn, is
//     told the opponent's moves, or the whole game when it is not in step;
//   - the move's budget is its share of the clock the site says is left,
//     less a margin for the network; the engine is asked with a
//     deadline, and one that fails or misses it is given up (and opened
//     afresh at the next turn) while the native searcher plays a quick move
//     in the time kept for it, so that the bot never loses on time for its
//     own slowness;
//   - the move is posted in the site's format, and posted once: an answer
//     lost is checked against the game's state before anything is sent
//     again, and a refusal resynchronises from the site's state.
//
// Every game is kept in the archive when one is given, with the site's
// link as the opponent's name; metrics go to the registry the caller
// passes, logs to its zerolog logger. Credentials are read by the caller
// (LoadConfig, ReadCredentials) and never logged.
package bot
