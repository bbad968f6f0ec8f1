package archive

import (
	"iter"
	"strconv"
	"strings"
)

// column is a column of the rows a statement takes (dialect.with).
type column struct{ name, pgType string }

// isText reports whether the column's values are strings (else int64).
func (c column) isText() bool { return c.pgType == "text" }

// table holds the rows of columns that statements take (dialect.with),
// column by column: each column's values in one []int64 or []string.
// A row of its own, an []any of boxed values, was the writer's most
// frequent allocation a move (BenchmarkWriterPaced, -memprofile); and
// PostgreSQL takes each column whole, as one array parameter, with no copy.
type table struct {
	columns []column
	ints    [][]int64  // by column; nil for a text column
	texts   [][]string // by column; nil for an integer column
}

// newTable returns an empty table of columns, with room for capacity
// rows (the garbage of a column grown row by row was as much as the rows'
// own bytes). Each column's slice is empty, not nil: the PostgreSQL driver
// sends a nil slice as NULL, not as an array of no values.
func newTable(columns []column, capacity int) *table {
	t := &table{columns: columns, ints: make([][]int64, len(columns)), texts: make([][]string, len(columns))}
	for i, c := range columns {
		if c.isText() {
			t.texts[i] = make([]string, 0, capacity)
		} else {
			t.ints[i] = make([]int64, 0, capacity)
		}
	}
	return t
}

// add appends a row: a value a column, in their order, an int64 or a
// string as the column is (a value of the other type is a programming
// error, and panics).
func (t *table) add(values ...any) {
	if len(values) != len(t.columns) {
		panic("archive: a row of " + strconv.Itoa(len(values)) + " values for " + strconv.Itoa(len(t.columns)) + " columns")
	}
	for i, v := range values {
		if t.columns[i].isText() {
			t.texts[i] = append(t.texts[i], v.(string))
		} else {
			t.ints[i] = append(t.ints[i], v.(int64))
		}
	}
}

// len returns the number of rows.
func (t *table) len() int {
	if t.columns[0].isText() {
		return len(t.texts[0])
	}
	return len(t.ints[0])
}

// chunks yields the bounds [from, to) of the rows of t that each
// statement of the writer's takes, in order (dialect.chunk).
func (d dialect) chunks(t *table) iter.Seq2[int, int] {
	return func(yield func(from, to int) bool) {
		for from := 0; from < t.len(); {
			to := from + d.chunk(t.len()-from, t.columns)
			if !yield(from, to) {
				return
			}
			from = to
		}
	}
}

// with returns a WITH clause that names the rows [from, to) of t as the
// table name, and its parameters: in SQLite a VALUES list, a parameter a
// value; in PostgreSQL one array a column, through unnest, so that the
// statement's text is the same for any number of rows and prepared once.
func (d dialect) with(name string, t *table, from, to int) (string, []any) {
	head := "WITH " + tableHead(name, t.columns)
	if !d.dollar {
		one := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(t.columns)), ", ") + ")"
		args := make([]any, 0, (to-from)*len(t.columns))
		for r := from; r < to; r++ {
			for i, c := range t.columns {
				if c.isText() {
					args = append(args, t.texts[i][r])
				} else {
					args = append(args, t.ints[i][r])
				}
			}
		}
		return head + "(VALUES " + strings.TrimSuffix(strings.Repeat(one+", ", to-from), ", ") + ")", args
	}
	body, args := unnestRows(t, from, to, 0)
	return head + body, args
}

// tableHead names a WITH query's table and its columns: "name (a, b) AS ".
func tableHead(name string, columns []column) string {
	names := make([]string, len(columns))
	for i, c := range columns {
		names[i] = c.name
	}
	return name + " (" + strings.Join(names, ", ") + ") AS "
}

// unnestRows returns PostgreSQL's table of the rows [from, to) of t, one
// array parameter a column, numbered from after+1, and those parameters.
func unnestRows(t *table, from, to, after int) (string, []any) {
	arrays, args := make([]string, len(t.columns)), make([]any, len(t.columns))
	for i, c := range t.columns {
		arrays[i] = "$" + strconv.Itoa(after+i+1) + "::" + c.pgType + "[]"
		if c.isText() {
			args[i] = t.texts[i][from:to]
		} else {
			args[i] = t.ints[i][from:to]
		}
	}
	return "(SELECT * FROM unnest(" + strings.Join(arrays, ", ") + "))", args
}
