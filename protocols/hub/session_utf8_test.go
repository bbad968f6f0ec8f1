package hub_test

import (
	"testing"
	"unicode/utf8"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/internal/enginetest"
)

// A line that is not valid UTF-8 is answered with an error that quotes
// none of it, whatever its command, and the session goes on; a searcher's
// invalid words are written as valid UTF-8 too.
func TestSessionInvalidUTF8(t *testing.T) {
	s := startSession(t, testConfig(enginetest.Garbling{}, true))
	for _, line := range []string{
		"\xff\xfe",
		"set-param name=\xc3 value=1",
		"pos variant=Base moves=\"wS1;\xe2\x82\"",
		"\xffping",
	} {
		s.send(line)
		if l := s.expect(`error message="the line is not valid UTF-8; ignored"`); !utf8.ValidString(l) {
			t.Errorf("%q answered with %q", line, l)
		}
	}
	s.send("ping")
	s.expect("pong")
	s.send("pos variant=Base", "level depth=1", "go think")
	if l := s.expect(`error message="search: the engine said .*"`); !utf8.ValidString(l) {
		t.Errorf("the searcher's error written as %q", l)
	}
	s.expect(done(moveIn(t, core.Base, nil, -1)))
}
