package archive

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// migrations are the schema's versions, in order: version i+1 is reached
// by migrations[i]. A released version is never edited; a change of
// schema is a new version. "{{serial}}" is each dialect's auto-numbered
// key.
var migrations = [][]string{
	{ // 1: games, their moves, and the processes that write them
		`CREATE TABLE owners (
			id {{serial}},
			kind TEXT NOT NULL,
			host TEXT NOT NULL,
			pid BIGINT NOT NULL,
			started_ms BIGINT NOT NULL)`,
		`CREATE TABLE games (
			id {{serial}},
			owner BIGINT NOT NULL,
			game_key TEXT UNIQUE,
			source TEXT NOT NULL,
			game_type TEXT NOT NULL,
			white TEXT NOT NULL,
			black TEXT NOT NULL,
			status TEXT NOT NULL,
			started_ms BIGINT NOT NULL,
			ended_ms BIGINT,
			result TEXT NOT NULL DEFAULT '',
			how TEXT NOT NULL DEFAULT '',
			reason TEXT NOT NULL DEFAULT '',
			game_string TEXT NOT NULL,
			plies INTEGER NOT NULL DEFAULT 0)`,
		`CREATE INDEX games_started ON games (started_ms DESC, id DESC)`,
		`CREATE INDEX games_status_owner ON games (status, owner)`,
		`CREATE INDEX games_white ON games (white)`,
		`CREATE INDEX games_black ON games (black)`,
		`CREATE TABLE moves (
			game BIGINT NOT NULL REFERENCES games (id),
			ply INTEGER NOT NULL,
			text TEXT NOT NULL,
			by_player TEXT NOT NULL,
			at_ms BIGINT NOT NULL,
			PRIMARY KEY (game, ply))`,
	},
	{ // 2: viewers waiting for a partner on any daemon (PostgreSQL pairing)
		`CREATE TABLE pair_requests (
			id {{serial}},
			channel TEXT NOT NULL,
			game_type TEXT NOT NULL,
			color INTEGER NOT NULL,
			named INTEGER NOT NULL,
			taken INTEGER NOT NULL DEFAULT 0,
			created_ms BIGINT NOT NULL)`,
	},
	{ // 3: the opening explorer (explorer.go); the games already archived are indexed by indexArchived
		`CREATE TABLE explorer (
			game BIGINT NOT NULL REFERENCES games (id),
			ply INTEGER NOT NULL,
			position BIGINT NOT NULL,
			move BIGINT NOT NULL,
			result INTEGER NOT NULL,
			PRIMARY KEY (game, ply))`,
		`CREATE INDEX explorer_position ON explorer (position, move, game DESC)`,
		`CREATE TABLE explorer_moves (
			position BIGINT NOT NULL,
			move BIGINT NOT NULL,
			white INTEGER NOT NULL,
			draws INTEGER NOT NULL,
			black INTEGER NOT NULL,
			PRIMARY KEY (position, move))`,
	},
	{ // 4: the games ended but not yet indexed for the explorer (indexer.go)
		`ALTER TABLE games ADD COLUMN explorer_pending INTEGER NOT NULL DEFAULT 0`,
		`CREATE INDEX games_explorer_pending ON games (id) WHERE explorer_pending = 1`,
	},
	{ // 5: SQLite's explorer tables without rowids (withoutRowids)
	},
}

// migrationCode returns what reaching version v takes beyond its SQL, or
// nil: work on the rows that needs Go, in the migration's transaction.
func migrationCode(v int) func(ctx context.Context, tx *sql.Tx, d dialect) error {
	switch v {
	case 3:
		return indexArchived
	case 5:
		return withoutRowids
	}
	return nil
}

// withoutRowids makes SQLite's explorer tables again as WITHOUT ROWID
// tables, their rows copied: each then is one B-tree ordered by its
// primary key, where a rowid table is two, the rows by rowid and an index
// of the key besides. The index of a game's plies writes a row to random
// places of two of the explorer's B-trees a ply (explorer_position, and
// the counts of explorer_moves), and with rowids a count's update wrote
// a random page of each of the counts' two B-trees. Indexing games in
// transactions of 300, as the writer does when many end at once, took
// 381 and 389 µs a game at 18,000 games without rowids, against 431 to
// 447 µs with them (BenchmarkExplorerIndex, two runs each, 2026-11-27).
// PostgreSQL keeps its rows in a heap with no such second tree: nothing
// to do there.
func withoutRowids(ctx context.Context, tx *sql.Tx, d dialect) error {
	if d.dollar {
		return nil
	}
	tables := []struct{ name, columns, names, key string }{
		{"explorer", `game BIGINT NOT NULL REFERENCES games (id), ply INTEGER NOT NULL, position BIGINT NOT NULL,
			move BIGINT NOT NULL, result INTEGER NOT NULL`, "game, ply, position, move, result", "game, ply"},
		{"explorer_moves", `position BIGINT NOT NULL, move BIGINT NOT NULL, white INTEGER NOT NULL,
			draws INTEGER NOT NULL, black INTEGER NOT NULL`, "position, move, white, draws, black", "position, move"},
	}
	var stmts []string
	for _, t := range tables {
		stmts = append(stmts,
			`CREATE TABLE `+t.name+`_copy (`+t.columns+`, PRIMARY KEY (`+t.key+`)) WITHOUT ROWID`,
			`INSERT INTO `+t.name+`_copy SELECT `+t.names+` FROM `+t.name+` ORDER BY `+t.key,
			`DROP TABLE `+t.name,
			`ALTER TABLE `+t.name+`_copy RENAME TO `+t.name)
	}
	stmts = append(stmts, `CREATE INDEX explorer_position ON explorer (position, move, game DESC)`)
	for _, stmt := range stmts {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return err
		}
	}
	return nil
}

// schemaVersion is the version this binary writes.
var schemaVersion = len(migrations)

// migrate brings the schema to schemaVersion in one transaction (lock
// takes the dialect's lock against another process migrating at once). A
// database newer than the binary is refused rather than written wrongly.
func migrate(ctx context.Context, db *sql.DB, d dialect) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if d.lock != "" {
		if _, err := tx.ExecContext(ctx, d.lock); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)`); err != nil {
		return err
	}
	var have int
	err = tx.QueryRowContext(ctx, `SELECT version FROM schema_version`).Scan(&have)
	switch {
	case err == sql.ErrNoRows:
		if _, err := tx.ExecContext(ctx, `INSERT INTO schema_version (version) VALUES (0)`); err != nil {
			return err
		}
	case err != nil:
		return err
	}
	if have > schemaVersion {
		return fmt.Errorf("its schema is version %d, newer than this hivebridge knows (%d): use a newer hivebridge", have, schemaVersion)
	}
	for v := have; v < schemaVersion; v++ {
		for _, stmt := range migrations[v] {
			if _, err := tx.ExecContext(ctx, strings.ReplaceAll(stmt, "{{serial}}", d.serial)); err != nil {
				return fmt.Errorf("migrating to version %d: %w", v+1, err)
			}
		}
		if code := migrationCode(v + 1); code != nil {
			if err := code(ctx, tx, d); err != nil {
				return fmt.Errorf("migrating to version %d: %w", v+1, err)
			}
		}
	}
	if have != schemaVersion {
		if _, err := tx.ExecContext(ctx, d.rebind(`UPDATE schema_version SET version = ?`), schemaVersion); err != nil {
			return err
		}
	}
	return tx.Commit()
}
