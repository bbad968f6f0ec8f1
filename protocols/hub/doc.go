// Package hub will speak the Hub protocol of draughts GUIs, in the Hive
// dialect of shared/design/hub-hive.md: the line lexer and printer, and
// the engine and GUI sides of a session.
package hub
