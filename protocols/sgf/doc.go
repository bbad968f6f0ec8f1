// Package sgf reads and writes BoardSpace.net's game records of Hive: SGF
// files, one node per player action, with the cells of BoardSpace's own
// board. The format is described, with its sources, in the notes' sgf.md:
// what BoardSpace's Java client writes (Hivemovespec, HiveGameBoard,
// HiveGameViewer in ddyer0/boardspace.net) and how Mzinga's
// GameRecording.LoadSGF reads it; the test data are the records of
// Mzinga's test assets, each with the PGN that Mzinga made of it.
//
// There are two layers:
//
//   - parse.go: a generic SGF reader, Parse, giving game trees of nodes
//     with properties, escapes undone; it knows nothing of Hive.
//   - game.go, read.go, grid.go, write.go: the Hive dialect. Read replays
//     each game's actions (Pick, Dropb, Move, Done, Pass, Resign, ...) on a
//     core.Game, turning BoardSpace's grid cells into the core's cells and
//     checking every turn by the core's rules; Write writes a core game
//     back as BoardSpace does.
//
// The moves are core.Moves. The text BoardSpace writes after a drop's cell
// ("wS1-", UHP's relative position) is only a hint for people, which
// BoardSpace itself does not read back; Read ignores it, and Write takes
// it from a function that its caller gives (UHP's MoveString lives in
// another package) or writes BoardSpace's own.
//
// The package has no mutable state of its own; its functions may run
// concurrently.
package sgf
