// Package archive keeps every game the daemon serves and every game the
// referee plays: who played each side, each move and when it was played,
// and how the game ended. It is a store (SQLite by default, PostgreSQL for
// several daemons that share one archive) and a keeper that writes each
// move as it is played, and a database lost while games go on never stops
// them.
//
// What a process killed outright (SIGKILL) loses is at most the move in
// flight of each game, in this exact sense: a move's write starts when it
// is played and runs while its answer is sent, without the answer waiting
// for it; the game's next change is written after it, and the session's
// next command waits until both have ended (Recorder.Settle) before it is
// answered. So a game has at most one write under way, and an answer a
// session sends after the one to a move proves that move committed, or,
// for a game that ended, kept in the end journal (journal.go), which the
// next process to open the archive writes there. A client that saw its
// move answered and nothing after may find the game archived without that
// move, never without an earlier one.
// (A write that fails is given up after bounded tries, and then counted as
// not archived, rather than waited for.)
package archive

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hivebridge/hivebridge/core"
)

// Status says where a game stands in the archive.
type Status string

// The statuses of a game. A game is interrupted when the process that
// played it stopped before it ended: it can be played on from its
// GameString.
const (
	Playing     Status = "playing"
	Finished    Status = "finished"
	Interrupted Status = "interrupted"
)

// Viewer is the player name of a person at a UHP session: one who plays
// their own moves rather than the backend's.
const Viewer = "viewer"

// Move is one ply as it was played.
type Move struct {
	Ply  int       `json:"ply"`  // from 0
	Text string    `json:"move"` // the MoveString as the game spelled it
	By   string    `json:"by"`   // who played it: a player name
	At   time.Time `json:"at"`
}

// End is how a game ended.
type End struct {
	// Result is the UHP GameState at the end: WhiteWins, BlackWins or
	// Draw; empty when the game ended without one (a disconnect).
	Result string `json:"result"`
	// How is the manner: "state" (the rules ended it), "forfeit",
	// "resignation", "timeout", "disconnect", "error", "interrupted".
	How    string    `json:"how"`
	Reason string    `json:"reason,omitempty"`
	At     time.Time `json:"at"`
}

// status is the status a game ends in: an end "interrupted" (the process
// stopped it, not a player) leaves a game to be played on.
func (e End) status() Status {
	if e.How == "interrupted" {
		return Interrupted
	}
	return Finished
}

// Game is one archived game.
type Game struct {
	ID         int64     `json:"id"`
	Source     string    `json:"source"` // uhp-ws, uhp-tcp, hub-tcp, match, ...
	GameType   string    `json:"game_type"`
	White      string    `json:"white"`
	Black      string    `json:"black"`
	Status     Status    `json:"status"`
	Started    time.Time `json:"started"`
	Ended      time.Time `json:"ended,omitzero"`
	Result     string    `json:"result,omitempty"`
	How        string    `json:"how,omitempty"`
	Reason     string    `json:"reason,omitempty"`
	GameString string    `json:"game_string"`
	Plies      int       `json:"plies"`
	Moves      []Move    `json:"moves,omitempty"` // filled by Get only
}

// Start is what a new game is archived with. Moves are those it starts
// with (a game begun from a GameString, or a game whose first writes the
// database missed).
type Start struct {
	// Key, if not empty, makes Start idempotent: a second Start with the
	// same key updates the game the first archived.
	Key        string
	Source     string
	GameType   string
	White      string
	Black      string
	Started    time.Time
	GameString string
	Moves      []Move
}

// Change brings an archived game up to date in one transaction: the moves
// from ply From on are replaced by Moves (an undo shortens the game), the
// players (those not empty) and GameString set, and the end recorded when
// End is not nil.
type Change struct {
	From       int
	Moves      []Move
	White      string
	Black      string
	GameString string
	End        *End
	// Append makes the change a move's usual write, which a store runs
	// together with other games' in a few statements: Moves are added
	// after the archive's last move, From, the players set where given,
	// and nothing else changes (GameString and End are ignored). The
	// game's row keeps the GameString it
	// had, and readers bring it up to date from the moves after it
	// (gameStringAfter), so the writer of a game may append only where
	// that gives the game's GameString, and only when the archive holds
	// no move from ply From on (its last write succeeded and nothing was
	// taken back since).
	Append bool
	// Synced says the archive holds the game's moves before ply From and
	// none from it on (the game's last write succeeded and nothing was
	// taken back since), as for Append. An end so written is a game's
	// usual last write, which a store runs together with other games'
	// ends: Moves added after From without deleting first, the row and
	// the explorer written for all of them at once. A store may ignore
	// it; a change without it is written whatever the archive holds.
	Synced bool
}

// Outcome is a finished game between two players, for ratings.
type Outcome struct {
	White, Black string
	Result       string // WhiteWins, BlackWins or Draw
}

// ErrNotFound is the error of Get for an id the archive does not hold.
var ErrNotFound = errors.New("no such game")

// Store is an archive of games.
type Store interface {
	// Start archives a new game in progress and returns its id.
	Start(ctx context.Context, s Start) (int64, error)
	// Update applies a change to a game this process started.
	Update(ctx context.Context, id int64, c Change) error
	// InterruptOrphans marks interrupted the games in progress whose
	// process has stopped, and returns how many it marked.
	InterruptOrphans(ctx context.Context) (int, error)
	// List returns one page of the games that pass the filter, newest
	// first, and how many pass it in all.
	List(ctx context.Context, f Filter) ([]Game, int, error)
	// Get returns one game with all its moves, or ErrNotFound.
	Get(ctx context.Context, id int64) (Game, error)
	// Outcomes returns every finished game with a result.
	Outcomes(ctx context.Context) ([]Outcome, error)
	// Prune deletes the games that started before before and are no
	// longer in progress (finished or interrupted), with their moves, and
	// returns how many it deleted: an archive's retention.
	Prune(ctx context.Context, before time.Time) (int, error)
	// Import keeps games from record files as finished, in one
	// transaction, and returns how many it added: a game imported before
	// (the same type, players, date and moves) is kept once.
	Import(ctx context.Context, games []Imported) (added int, err error)
	// Explore returns the moves played from a position of the explorer
	// (its core.Orientation key) in the archive's finished games, the
	// most played first, each with up to games of its games' ids.
	Explore(ctx context.Context, position uint64, games int) ([]ExplorerMove, error)
	// ExplorerGames returns up to n ids of the games that played move
	// from position, newest first, those before the game before when it
	// is not 0.
	ExplorerGames(ctx context.Context, position uint64, move core.OrientedMove, before int64, n int) ([]int64, error)
	// Heartbeat marks this process alive again if the database forgot it
	// (a PostgreSQL server restarted): a writer calls it now and then.
	Heartbeat(ctx context.Context) error
	// Name says which database this is, for messages.
	Name() string
	Close() error
}

// DefaultPath is the SQLite file used when --db names none:
// $XDG_DATA_HOME/hivebridge/games.db, or ~/.local/share/hivebridge/games.db
// when XDG_DATA_HOME is unset (games are data, not configuration).
func DefaultPath() (string, error) {
	dir := os.Getenv("XDG_DATA_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("no --db given and no home directory for the default archive: %w", err)
		}
		dir = filepath.Join(home, ".local", "share")
	}
	return filepath.Join(dir, "hivebridge", "games.db"), nil
}

// Role says what a process opening the archive does with it: a writer
// ("serve", "match") registers itself, so that its games in progress are
// known to be its own while it lives; a Reader only reads.
type Role string

// Reader is the role of a process that only reads the archive.
const Reader Role = ""

// Open opens the archive that --db names: "none" for no archive (nil, nil),
// "" for the default SQLite file, a postgres:// or postgresql:// URL, or the
// path of a SQLite file (created if missing). The schema is migrated to
// this binary's version; an error names the database.
func Open(ctx context.Context, db string, role Role) (Store, error) {
	switch {
	case db == "none":
		return nil, nil
	case IsPostgres(db):
		return openPostgres(ctx, db, role)
	}
	path, err := sqliteFile(db)
	if err != nil {
		return nil, err
	}
	return openSQLite(ctx, path, role)
}

// IsPostgres reports whether --db names a PostgreSQL archive: a
// postgres:// or postgresql:// URL.
func IsPostgres(db string) bool {
	return strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://")
}

// sqliteFile is the SQLite file that --db names when it names neither no
// archive nor PostgreSQL: its path, or the default file for "".
func sqliteFile(db string) (string, error) {
	if db == "" {
		return DefaultPath()
	}
	return db, nil
}
