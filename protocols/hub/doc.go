// Package hub holds the codecs of the Hub protocol (specs/hub-v2.txt,
// written for draughts by Fabien Letouzey for Scan and the Hub GUI) in the
// Hive dialect of design/hub-hive.md: "The line syntax, the command set and
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
//   - hive.go and message.go: what the lines of the Hive dialect mean.
//     Every command the GUI sends (hub, set-param, init, pos, level, go,
//     ponder-hit, stop, new-game, ping, quit) and every answer of the engine
//     (id, param, wait, ready, info, done, pong, error) is a typed Message
//     with a Line method to write it and a Parse function to read it;
//     DecodeCommand and DecodeAnswer dispatch on the command word, so that a
//     session, on either side, is one switch over the message types. Moves
//     are UHP MoveStrings (package uhp), a position is a game type plus the
//     moves from the start, a score a real number with forced results at
//     ±(1000-N).
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
//   - clock.go: the time a level allows one search (Level.Limit,
//     Allocate), the one rule of time allocation that the match referee
//     shares.
//   - params.go: engine parameters to and from UHP options (SettingOf,
//     OptionOf), so that a backend's options are a Hub GUI's parameters
//     and a Hub engine's parameters are --engine-option's.
//
// The package keeps no state of its own: everything is a value, or belongs
// to the Session or Client that holds it.
package hub
