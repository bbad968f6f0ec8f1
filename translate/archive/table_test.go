package archive

import (
	"reflect"
	"testing"
)

// TestTableWith: a table's rows reach a statement as SQLite's VALUES, a
// parameter a value row by row, or as PostgreSQL's arrays, a parameter a
// column; the rows asked for and no others, and an empty column as an
// empty array, not as NULL.
func TestTableWith(t *testing.T) {
	moves := newTable(movesColumns(), 0)
	moves.add(int64(7), int64(0), "wS1", "alice", int64(1000))
	moves.add(int64(7), int64(1), "bS1 -wS1", "bob", int64(2000))
	moves.add(int64(9), int64(0), `wQ "quoted"`, "carol", int64(3000))

	sql, args := sqliteDialect.with("v", moves, 1, 3)
	if want := "WITH v (game, ply, text, by_player, at_ms) AS (VALUES (?, ?, ?, ?, ?), (?, ?, ?, ?, ?))"; sql != want {
		t.Errorf("SQLite:\n got %s\nwant %s", sql, want)
	}
	if want := []any{int64(7), int64(1), "bS1 -wS1", "bob", int64(2000), int64(9), int64(0), `wQ "quoted"`, "carol", int64(3000)}; !reflect.DeepEqual(args, want) {
		t.Errorf("SQLite's parameters: %#v, want %#v", args, want)
	}

	sql, args = postgresDialect.with("v", moves, 1, 3)
	if want := "WITH v (game, ply, text, by_player, at_ms) AS (SELECT * FROM unnest($1::bigint[], $2::integer[], $3::text[], $4::text[], $5::bigint[]))"; sql != want {
		t.Errorf("PostgreSQL:\n got %s\nwant %s", sql, want)
	}
	if want := []any{[]int64{7, 9}, []int64{1, 0}, []string{"bS1 -wS1", `wQ "quoted"`}, []string{"bob", "carol"}, []int64{2000, 3000}}; !reflect.DeepEqual(args, want) {
		t.Errorf("PostgreSQL's parameters: %#v, want %#v", args, want)
	}

	_, args = postgresDialect.with("v", newTable(namesColumns(), 0), 0, 0)
	for i, a := range args {
		if v := reflect.ValueOf(a); v.Len() != 0 || v.IsNil() {
			t.Errorf("an empty table's column %d: %#v, want an empty array, not nil", i, a)
		}
	}
}

// TestTableChunks: the chunks of a table cover its rows once, in order,
// each of the size dialect.chunk gives.
func TestTableChunks(t *testing.T) {
	ids := newTable(idColumns(), 0)
	for i := range 450 {
		ids.add(int64(i))
	}
	var got [][2]int
	for from, to := range sqliteDialect.chunks(ids) {
		got = append(got, [2]int{from, to})
	}
	// 200 rows a statement, then the powers of two of the 50 left.
	if want := [][2]int{{0, 200}, {200, 400}, {400, 432}, {432, 448}, {448, 450}}; !reflect.DeepEqual(got, want) {
		t.Errorf("SQLite's chunks of 450 rows: %v, want %v", got, want)
	}
	got = nil
	for from, to := range postgresDialect.chunks(ids) {
		got = append(got, [2]int{from, to})
	}
	if want := [][2]int{{0, 450}}; !reflect.DeepEqual(got, want) {
		t.Errorf("PostgreSQL's chunks of 450 rows: %v, want %v", got, want)
	}
	for range sqliteDialect.chunks(newTable(idColumns(), 0)) {
		t.Error("an empty table has a chunk")
	}
}

// TestTableRowOfWrongLength: a row with a value too many or too few is a
// programming error, caught at once rather than shifting the columns.
func TestTableRowOfWrongLength(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("a row of 2 values for 3 columns was taken")
		}
	}()
	newTable(namesColumns(), 0).add(int64(1), "alice")
}
