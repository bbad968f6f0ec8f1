// Package referee plays engine-vs-engine matches on one machine (the
// hivebridge match command): hivebridge holds the canonical game, asks the
// engine of the side to move for its move through any backend (package
// translate), checks it, and tells both engines. It is the "three engine
// model" of the UHP remote-play proposal with hivebridge as the third. The
// referee is its own package, beneath translate and beside the archive,
// because it is a client of the backends, not one of them: it drives two
// translate.Engines the way a front end drives one.
//
// A match (Config, Run) alternates colours over shared openings, so that
// each opening is played from both sides, and plays several games at once.
// Its files, by job:
//   - match.go: the Config of a match and the checks made before any game
//     (a bad spec, option, time control or game type stops the match at
//     once rather than forfeiting every game);
//   - timecontrol.go: TimeControl, a fixed depth, a time per move or a
//     Fischer clock, and what a UHP engine can be told of it fairly;
//   - openings.go: the start positions, from a file of GameStrings or
//     random plies that every machine and run draws alike;
//   - run.go: Run, which hands out the games to concurrent workers,
//     gathers their records, and stops early on an SPRT verdict, a void
//     game or the caller's context;
//   - game.go: one game, from starting its engines to its end by the
//     rules, the move cap, a forfeit, a refusal or a disagreement;
//   - record.go: GameRecord and the kinds of Ending, which the statistics
//     and the match's output count apart;
//   - match_stats.go: engine A's Score, its Elo difference with a 95%
//     margin, the likelihood of superiority and the SPRT, in the model
//     chess engine testers share, so that the figures read as
//     cutechess-cli's do;
//   - disagreement.go: the engines' own verdicts of the game, heard after
//     every move, and how a game ended by a rules disagreement is scored;
//   - archive.go: each refereed game kept in the archive as it is played.
package referee
