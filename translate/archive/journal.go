package archive

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// The end journal keeps, in a local file, each ended game whose commit a
// session's next command would otherwise wait for. A session that asks
// for a new game the moment its last one ended (a quick game, or ten
// thousand long ones ending together) waited for that end's commit: the
// SIGKILL promise says that an answer after a move proves the move kept.
// That commit is the writer's and the database's turn to run on a busy
// machine, 0.3 to 3 ms, where appending the game to a file is one
// write(2) of the session's own, a few microseconds: the file is the
// operating system's once written, and outlives the process as SQLite's
// WAL does (neither is synced: a power loss may take both). The game's
// commit goes on behind it (endPatience), and once it is in the archive
// its line in the journal is done.
//
// Each process writes two files of its own in the journal's directory,
// locked (flock) while it lives, and takes the other once one has grown
// past journalLimit and every game in the other is committed, which it
// then empties; a process that closes with every game committed removes
// them. A process that opens the archive replays the files no live
// process holds (those of a process killed, or one that closed while the
// database was down), writing each game whole unless the archive holds it
// finished already, and removes them.

// journalLimit is the size past which the journal moves to its other
// file, once every game in that one is committed.
const journalLimit = 1 << 20

// journalSuffix ends the name of every journal file.
const journalSuffix = ".ends"

// endJournal is a process's journal of ended games (above).
type endJournal struct {
	mu    sync.Mutex
	files [2]*os.File
	size  [2]int64
	open  [2]int // the games of each file not committed yet
	cur   int    // the file written to
}

// journalLine is an ended game as the journal keeps it: all it takes to
// write it whole.
type journalLine struct {
	Key        string        `json:"key"`
	Source     string        `json:"source"`
	GameType   string        `json:"game_type"`
	White      string        `json:"white"`
	Black      string        `json:"black"`
	Started    int64         `json:"started_ms"`
	GameString string        `json:"game_string"` // at its end
	Moves      []journalMove `json:"moves"`       // its plies from 0
	Result     string        `json:"result,omitempty"`
	How        string        `json:"how"`
	Reason     string        `json:"reason,omitempty"`
	Ended      int64         `json:"ended_ms"`
}

// journalMove is a move of a journalLine: its ply is its place there.
type journalMove struct {
	Text string `json:"t"`
	By   string `json:"b"`
	At   int64  `json:"a"`
}

// endedGame is a game as it ended (Recorder.Ended), what its journal line
// is made of should a session come to wait for its end.
type endedGame struct {
	start        Start
	white, black string
	moves        []Move
	gameString   string
	end          End
}

func (g *endedGame) line() journalLine {
	l := journalLine{Key: g.start.Key, Source: g.start.Source, GameType: g.start.GameType, White: g.white, Black: g.black,
		Started: ms(g.start.Started), GameString: g.gameString, Result: g.end.Result, How: g.end.How, Reason: g.end.Reason,
		Ended: ms(g.end.At), Moves: make([]journalMove, len(g.moves))}
	for i, m := range g.moves {
		l.Moves[i] = journalMove{Text: m.Text, By: m.By, At: ms(m.At)}
	}
	return l
}

// start and end return the writes that bring the archive to the game of
// l: its start with every move, and its end.
func (l journalLine) start() Start {
	st := Start{Key: l.Key, Source: l.Source, GameType: l.GameType, White: l.White, Black: l.Black,
		Started: fromMS(l.Started), GameString: l.GameString, Moves: make([]Move, len(l.Moves))}
	for i, m := range l.Moves {
		st.Moves[i] = Move{Ply: i, Text: m.Text, By: m.By, At: fromMS(m.At)}
	}
	return st
}

func (l journalLine) end() End {
	return End{Result: l.Result, How: l.How, Reason: l.Reason, At: fromMS(l.Ended)}
}

// openEndJournal starts this process's journal in dir, making it if need
// be.
func openEndJournal(dir string) (*endJournal, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	j := &endJournal{}
	name := strconv.FormatInt(time.Now().UnixNano(), 10) + "-" + strconv.Itoa(os.Getpid())
	for i := range j.files {
		f, err := os.OpenFile(filepath.Join(dir, name+"-"+strconv.Itoa(i)+journalSuffix), os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o644)
		if err == nil {
			if err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
				f.Close()
			}
		}
		if err != nil {
			j.abandon()
			return nil, err
		}
		j.files[i] = f
	}
	return j, nil
}

// journalTicket is a game's line in the journal, done once the game is
// committed.
type journalTicket struct {
	j     *endJournal
	file  int
	fired atomic.Bool
}

// add appends a game's line, in one write.
func (j *endJournal) add(l journalLine) (*journalTicket, error) {
	b, err := json.Marshal(l)
	if err != nil {
		return nil, err
	}
	b = append(b, '\n')
	j.mu.Lock()
	defer j.mu.Unlock()
	other := 1 - j.cur
	if j.size[j.cur] >= journalLimit && j.open[other] == 0 {
		j.cur = other
	}
	f := j.files[j.cur]
	if f == nil {
		return nil, errors.New("the journal is closed")
	}
	n, err := f.Write(b)
	j.size[j.cur] += int64(n)
	if err != nil {
		// A part of a line is skipped when the journal is replayed.
		return nil, err
	}
	j.open[j.cur]++
	return &journalTicket{j: j, file: j.cur}, nil
}

// done says the ticket's game is committed: a file whose games all are
// is emptied.
func (t *journalTicket) done() {
	if !t.fired.CompareAndSwap(false, true) {
		return
	}
	j := t.j
	j.mu.Lock()
	defer j.mu.Unlock()
	j.open[t.file]--
	if j.open[t.file] == 0 && j.size[t.file] > 0 && j.files[t.file] != nil {
		if j.files[t.file].Truncate(0) == nil {
			j.size[t.file] = 0
		}
	}
}

// close removes the journal's files when every game in them is
// committed, and otherwise leaves them to be replayed; it reports how
// many games it left.
func (j *endJournal) close() (left int) {
	j.mu.Lock()
	defer j.mu.Unlock()
	for i, f := range j.files {
		if f == nil {
			continue
		}
		if j.open[i] == 0 {
			os.Remove(f.Name())
		}
		left += j.open[i]
		f.Close()
		j.files[i] = nil
	}
	return left
}

// abandon closes the files of a journal not opened whole, removing them.
func (j *endJournal) abandon() {
	for i, f := range j.files {
		if f != nil {
			os.Remove(f.Name())
			f.Close()
			j.files[i] = nil
		}
	}
}

// endKeeper is a store that writes an ended game whole from its journal
// line, idempotently.
type endKeeper interface {
	keepEnded(ctx context.Context, st Start, end End) error
}

// replayJournals writes the games of the journal files in dir that no
// live process holds, and removes each file once its games are written.
// A file whose games could not all be written (the database down) is left
// for the next process to open the archive. It returns how many games it
// wrote and how many lines it skipped (a line cut short by the process's
// death, or a game the database refused).
func replayJournals(ctx context.Context, dir string, store endKeeper, timeout time.Duration) (written, skipped int, err error) {
	names, err := filepath.Glob(filepath.Join(dir, "*"+journalSuffix))
	if err != nil {
		return 0, 0, err
	}
	for _, name := range names {
		w, s, err := replayJournal(ctx, name, store, timeout)
		written, skipped = written+w, skipped+s
		if err != nil {
			return written, skipped, fmt.Errorf("replaying %s: %w", name, err)
		}
	}
	return written, skipped, nil
}

// replayJournal replays one file of the journal (replayJournals), unless
// a live process holds it.
func replayJournal(ctx context.Context, name string, store endKeeper, timeout time.Duration) (written, skipped int, err error) {
	f, err := os.OpenFile(name, os.O_RDWR, 0)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return 0, 0, nil // its process closed meanwhile
		}
		return 0, 0, err
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return 0, 0, nil // a live process's
		}
		return 0, 0, err
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var l journalLine
		if json.Unmarshal(bytes.TrimSpace(sc.Bytes()), &l) != nil || l.Key == "" {
			skipped++
			continue
		}
		wctx, cancel := context.WithTimeout(ctx, timeout)
		err := store.keepEnded(wctx, l.start(), l.end())
		cancel()
		switch {
		case err == nil:
			written++
		case RefusalCause(err) != "":
			skipped++
		default:
			return written, skipped, err
		}
	}
	if err := sc.Err(); err != nil {
		return written, skipped, err
	}
	return written, skipped, os.Remove(name)
}

// DefaultJournal is the end journal's directory for the archive that
// --db names (Open's spec): beside a SQLite file, and for PostgreSQL in
// the directory of the default archive, named by a hash of the URL, so
// that the daemons of one machine sharing a database replay each other's.
// It is "" for no archive.
func DefaultJournal(db string) (string, error) {
	switch {
	case db == "none":
		return "", nil
	case IsPostgres(db):
		path, err := DefaultPath()
		if err != nil {
			return "", err
		}
		h := fnv.New64a()
		h.Write([]byte(db))
		return filepath.Join(filepath.Dir(path), fmt.Sprintf("postgres-%016x%s", h.Sum64(), journalSuffix)), nil
	}
	path, err := sqliteFile(db)
	if err != nil {
		return "", err
	}
	return path + journalSuffix, nil
}
