package main

import "github.com/spf13/cobra"

// dbFlagHelp documents --db, on every command that has it.
const dbFlagHelp = `the game archive: a SQLite file (default $XDG_DATA_HOME/hivebridge/games.db, or ~/.local/share/hivebridge/games.db), a postgres:// URL, or "none" to keep nothing`

func registerDB(cmd *cobra.Command, db *string) {
	cmd.Flags().StringVar(db, "db", "", dbFlagHelp)
}
