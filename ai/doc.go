// Package ai is hivebridge's native Hive engine: a static evaluation built
// on Queen pressure and piece mobility (Evaluate), and an iterative
// deepening alpha-beta search over a lock-free transposition table shared
// by its threads (Searcher). It reads positions only through core and keeps
// no state between searches other than its table and per-thread scratch
// space, so a protocol session can own one Searcher and call it once per
// move.
package ai
