// Package ai is hivebridge's native Hive engine: a static evaluation built
// on Queen pressure and piece mobility, linear in named features whose
// weights are fitted to game results (Evaluate, Extract, weights.go), or,
// when asked (SetEval; the native engine of package translate asks by
// default), a learned network whose accumulators follow every move the
// search plays and takes back (package nnue), and
// an iterative deepening search over a lock-free transposition table shared
// by its threads (Searcher): principal variation search with aspiration
// windows, null move, reverse futility, late-move reductions and pruning
// that never touch moves next to a Queen, and at the horizon a quiescence
// search of the moves that close in on an enemy Queen already half
// surrounded (Hive's captures), with a look for a move that closes a
// Queen's last cell. It finds the best N moves as well (MultiPV, see
// Search), and given no limit it analyses until stopped. It reads
// positions only through core and keeps no state between searches other
// than its tables and per-thread scratch space (move-ordering history), so
// a protocol session can own one Searcher and call it once per move.
// docs/strength.md records how each part was measured.
package ai
