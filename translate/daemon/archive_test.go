package daemon

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/internal/archivetest"
	"github.com/hivebridge/hivebridge/internal/uhptest"
	"github.com/hivebridge/hivebridge/protocols/uhp"
	"github.com/hivebridge/hivebridge/translate/archive"
)

// TestArchiveInvalidUTF8Event: a session's game events carrying bytes
// that are not UTF-8 (a forfeit's reason, a player's name) are archived,
// each bad byte as U+FFFD, and the archive stays healthy.
func TestArchiveInvalidUTF8Event(t *testing.T) {
	archivetest.EachDB(t, func(t *testing.T, db string) {
		store, err := archive.Open(context.Background(), db, "serve")
		if err != nil {
			t.Fatal(err)
		}
		defer store.Close()
		k := archive.NewKeeper(store, archive.KeeperConfig{Log: zerolog.Nop(), Pause: time.Hour})
		s := &Server{archive: &serverArchive{store: store, keeper: k}}
		parse := func(text string) uhp.GameString {
			gs, err := uhp.ParseGameString(text)
			if err != nil {
				t.Fatal(err)
			}
			return gs
		}
		g := &gameLog{s: s, source: "uhp-tcp"}
		g.event(uhp.GameEvent{Kind: uhp.GameBegun, Game: parse("Base;NotStarted;White[1]"), White: "x\xffy", Black: uhp.PlayerViewer})
		g.event(uhp.GameEvent{Kind: uhp.MovePlayed, Game: parse("Base;InProgress;Black[1];wS1"), Move: "wS1", By: "x\xffy"})
		g.event(uhp.GameEvent{Kind: uhp.GameEnded, Game: parse("Base;WhiteWins;Black[1];wS1"), How: "forfeit", Reason: "Black forfeited: x\xff"})
		g.settle()
		if err := k.Health(context.Background()); err != nil {
			t.Errorf("Health: %v", err)
		}
		k.Close()
		games := archivetest.AllGames(t, store)
		if len(games) != 1 || games[0].Reason != "Black forfeited: x\uFFFD" || games[0].White != "x\uFFFDy" || archivetest.MoveTexts(games[0]) != "wS1/x\uFFFDy" {
			t.Errorf("archived %+v", games)
		}
	})
}

// TestArchiveRetention: with a retention (--archive-retention), the
// daemon's sweep deletes the games that started longer ago and are over,
// and keeps the rest; a negative one is refused.
func TestArchiveRetention(t *testing.T) {
	archivetest.EachDB(t, func(t *testing.T, db string) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		writer, err := archive.Open(ctx, db, "match")
		if err != nil {
			t.Fatal(err)
		}
		game := func(started time.Time, end bool) int64 {
			id, err := writer.Start(ctx, archive.Start{Source: "match", GameType: "Base", White: "a", Black: "b", Started: started,
				GameString: "Base;InProgress;Black[1];wS1", Moves: []archive.Move{{Ply: 0, Text: "wS1", By: "a", At: started}}})
			if err != nil {
				t.Fatal(err)
			}
			if end {
				if err := writer.Update(ctx, id, archive.Change{From: 1, White: "a", Black: "b", GameString: "Base;InProgress;Black[1];wS1",
					End: &archive.End{How: "disconnect", At: started}}); err != nil {
					t.Fatal(err)
				}
			}
			return id
		}
		now := time.Now()
		game(now.AddDate(0, 0, -40), true)
		game(now.AddDate(0, 0, -31), true)
		playing := game(now.AddDate(0, 0, -40), false) // its writer lives on
		recent := game(now.AddDate(0, 0, -29), true)
		defer writer.Close()

		s := &Server{cfg: Config{DB: db, ArchiveRetention: 30 * 24 * time.Hour, ArchiveJournal: t.TempDir()}, log: zerolog.Nop(), metrics: newMetrics()}
		if err := s.openArchive(ctx); err != nil {
			t.Fatal(err)
		}
		defer s.archive.close()
		games := archivetest.AllGames(t, archivetest.Read(t, db))
		if len(games) != 2 || games[0].ID != playing || games[1].ID != recent {
			t.Errorf("%+v left; want the game in progress and the one of 29 days ago", games)
		}

		bad := &Server{cfg: Config{DB: db, ArchiveRetention: -time.Hour}, log: zerolog.Nop(), metrics: newMetrics()}
		if err := bad.openArchive(ctx); err == nil || !strings.Contains(err.Error(), "--archive-retention") {
			t.Errorf("a negative retention: %v", err)
		}
	})
}

// startGated is an archive whose game starts wait until open is closed.
type startGated struct {
	archive.Store
	open chan struct{}
}

func (s *startGated) Start(ctx context.Context, st archive.Start) (int64, error) {
	select {
	case <-s.open:
	case <-ctx.Done():
		return 0, ctx.Err()
	}
	return s.Store.Start(ctx, st)
}

// TestFirstMoveDoesNotWaitForStart: a game reaches the archive with its
// first move, in one write, so that the move is recorded (and answered)
// while the game's start is still being committed: from a UHP session's
// newgame, from newgame with a GameString the viewer plays on, and from a
// Hub position of two moves. A start then a move, two writes, would make
// the move wait for the start's commit. Each game is archived whole once
// the start goes through.
func TestFirstMoveDoesNotWaitForStart(t *testing.T) {
	parse := func(text string) uhp.GameString {
		gs, err := uhp.ParseGameString(text)
		if err != nil {
			t.Fatal(err)
		}
		return gs
	}
	for _, tc := range []struct {
		name   string
		record func(s *Server, k *archive.Keeper) (settle func())
		want   string // the archived moves, each with who played it
	}{
		{"newgame", func(s *Server, k *archive.Keeper) func() {
			g := &gameLog{s: s, source: "uhp-ws"}
			g.event(uhp.GameEvent{Kind: uhp.GameBegun, Game: parse("Base;NotStarted;White[1]")})
			g.event(uhp.GameEvent{Kind: uhp.MovePlayed, Game: parse("Base;InProgress;Black[1];wS1"), Move: "wS1", By: uhp.PlayerBackend})
			return g.settle
		}, "wS1/" + (&Server{}).backendName()},
		{"newgame GameString", func(s *Server, k *archive.Keeper) func() {
			g := &gameLog{s: s, source: "uhp-ws"}
			g.event(uhp.GameEvent{Kind: uhp.GameBegun, Game: parse("Base;InProgress;Black[1];wS1")})
			g.event(uhp.GameEvent{Kind: uhp.MovePlayed, Game: parse("Base;InProgress;White[2];wS1;bS1 wS1-"), Move: "bS1 wS1-", By: uhp.PlayerViewer})
			return g.settle
		}, "wS1/viewer, bS1 wS1-/viewer"},
		{"Hub position", func(s *Server, k *archive.Keeper) func() {
			l := &positionLog{keeper: k, source: "hub-tcp", backend: "native", other: HubGUI, drained: func() bool { return false }, gameType: core.Base}
			l.position(uhptest.Load(t, "Base;InProgress;White[2];wS1;bS1 wS1-"))
			return l.settle
		}, "wS1/Hub GUI, bS1 wS1-/Hub GUI"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "games.db")
			store, err := archive.Open(context.Background(), db, "serve")
			if err != nil {
				t.Fatal(err)
			}
			defer store.Close()
			gated := &startGated{Store: store, open: make(chan struct{})}
			k := archive.NewKeeper(gated, archive.KeeperConfig{Timeout: time.Minute})
			s := &Server{archive: &serverArchive{store: gated, keeper: k}}
			recorded := make(chan func(), 1)
			go func() { recorded <- tc.record(s, k) }()
			var settle func()
			select {
			case settle = <-recorded:
			case <-time.After(10 * time.Second):
				close(gated.open)
				t.Fatal("the first move waited for the game's start to be committed")
			}
			close(gated.open)
			settle()
			k.Close()
			games := archivetest.AllGames(t, store)
			if len(games) != 1 || archivetest.MoveTexts(games[0]) != tc.want {
				t.Fatalf("archived %+v; want one game, moves %s", games, tc.want)
			}
		})
	}
}
