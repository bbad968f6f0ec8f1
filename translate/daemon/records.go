package daemon

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"

	"github.com/hivebridge/hivebridge/translate/records"
)

// maxRecordFile bounds a game record file POST /records reads: a
// BoardSpace game is a few kilobytes, and a file of thousands of PGN games
// still fits.
const maxRecordFile = 8 << 20

// contentType is the media type a record file is served as. PGN's and
// SGF's are the ones chess and go software register for those files.
func contentType(f records.Format) string {
	switch f {
	case records.PGN:
		return "application/x-chess-pgn"
	case records.SGF:
		return "application/x-go-sgf"
	case records.JSONL:
		return "application/x-ndjson"
	}
	return "text/plain; charset=utf-8"
}

// recordsRoutes serves POST /records, which reads a game record file (Hive
// PGN, BoardSpace SGF, GameStrings or JSON lines, told apart by content,
// as `games convert` reads them) so that the viewer can replay a file
// without the rules in JavaScript, and writes a game as a record for the
// viewer to download.
//
// Without ?to, the answer is JSON: {"games": [...], "invalid": [...]},
// each game as a line of `--format jsonl`, each game that could not be
// read in the words `games convert` uses (?name= names the file in them);
// a file from which no game could be read is a 400 listing why. With
// ?to=pgn|sgf|gamestring|jsonl the answer is the file converted, and a file
// with any invalid game is a 400, as convert exits 1: a download is whole
// or not made.
func (s *Server) recordsRoutes(mux *http.ServeMux) {
	mux.HandleFunc("POST /records", func(w http.ResponseWriter, r *http.Request) {
		q, err := url.ParseQuery(r.URL.RawQuery)
		if err == nil {
			for k := range q {
				if k != "to" && k != "name" {
					err = fmt.Errorf("unknown parameter %q: POST /records takes to and name", k)
				}
			}
		}
		var to records.Format
		if err == nil && q.Has("to") {
			to, err = records.ParseFormat(q.Get("to"))
		}
		if err != nil {
			httpError(w, http.StatusBadRequest, err)
			return
		}
		name := q.Get("name")
		if name == "" {
			name = "the file"
		}
		data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxRecordFile))
		if err != nil {
			var tooLarge *http.MaxBytesError
			if errors.As(err, &tooLarge) {
				httpError(w, http.StatusRequestEntityTooLarge, fmt.Errorf("%s is larger than %d MiB: convert it with `hivebridge games convert`", name, maxRecordFile>>20))
				return
			}
			httpError(w, http.StatusBadRequest, fmt.Errorf("reading %s: %w", name, err))
			return
		}
		recs, errs := records.Read(name, data)
		invalid := make([]string, len(errs))
		for i, e := range errs {
			invalid[i] = e.Error()
		}
		if len(recs) == 0 || (to != "" && len(errs) > 0) {
			if len(errs) == 0 {
				errs = []error{fmt.Errorf("%s holds no game", name)}
				invalid = []string{errs[0].Error()}
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			writeJSON(w, map[string]any{"error": errs[0].Error(), "invalid": invalid})
			return
		}
		if to == "" {
			writeJSON(w, map[string]any{"games": recs, "invalid": invalid})
			return
		}
		var buf bytes.Buffer
		if err := records.Write(&buf, to, recs...); err != nil {
			httpError(w, http.StatusInternalServerError, err)
			return
		}
		w.Header().Set("Content-Type", contentType(to))
		w.Write(buf.Bytes())
	})
}
