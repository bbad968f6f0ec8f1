package referee_test

import (
	"strings"
	"testing"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/translate/referee"
)

func TestParseDisagreementPolicy(t *testing.T) {
	for in, want := range map[string]referee.DisagreementPolicy{
		"draw": referee.DisagreementDraw, "void": referee.DisagreementVoid, "referee": referee.DisagreementReferee,
		" Referee ": referee.DisagreementReferee, "VOID": referee.DisagreementVoid,
	} {
		got, err := referee.ParseDisagreementPolicy(in)
		if err != nil || got != want {
			t.Errorf("ParseDisagreementPolicy(%q) = %v, %v; want %v", in, got, err, want)
		}
		if back, err := referee.ParseDisagreementPolicy(got.String()); err != nil || back != got {
			t.Errorf("%v written as %q reads back as %v, %v", got, got.String(), back, err)
		}
	}
	for _, in := range []string{"", "drawn", "forfeit", "white"} {
		if _, err := referee.ParseDisagreementPolicy(in); err == nil || !strings.Contains(err.Error(), "want void, draw or referee") {
			t.Errorf("ParseDisagreementPolicy(%q) = %v, want a refusal", in, err)
		}
	}
	var zero referee.DisagreementPolicy
	if zero != referee.DisagreementDraw {
		t.Errorf("the zero policy is %v, want draw", zero)
	}
}

// TestDisagreementScored: how each policy scores each kind of
// disagreement, as the policies' documentation says.
func TestDisagreementScored(t *testing.T) {
	says := func(r core.Result) referee.Verdict { return referee.Verdict{Stated: true, Result: r} }
	none := referee.Verdict{}
	cases := []struct {
		name           string
		d              referee.Disagreement
		draw, void, by core.Result // the results under draw, void and referee
	}{
		{"white's engine ends a game that goes on",
			referee.Disagreement{Referee: core.InProgress, Engines: [2]referee.Verdict{says(core.Draw), none}},
			core.Draw, core.InProgress, core.BlackWins},
		{"black's engine claims a win in a game that goes on",
			referee.Disagreement{Referee: core.InProgress, Engines: [2]referee.Verdict{says(core.InProgress), says(core.BlackWins)}},
			core.Draw, core.InProgress, core.WhiteWins},
		{"both engines end a game that goes on",
			referee.Disagreement{Referee: core.InProgress, Engines: [2]referee.Verdict{says(core.Draw), says(core.Draw)}},
			core.Draw, core.InProgress, core.Draw},
		{"the referee ends a game an engine says goes on",
			referee.Disagreement{Referee: core.WhiteWins, Engines: [2]referee.Verdict{says(core.InProgress), says(core.WhiteWins)}},
			core.Draw, core.InProgress, core.WhiteWins},
		{"the referee and an engine give different results",
			referee.Disagreement{Referee: core.BlackWins, Engines: [2]referee.Verdict{none, says(core.Draw)}},
			core.Draw, core.InProgress, core.BlackWins},
	}
	for _, c := range cases {
		for _, p := range []struct {
			policy referee.DisagreementPolicy
			want   core.Result
		}{{referee.DisagreementDraw, c.draw}, {referee.DisagreementVoid, c.void}, {referee.DisagreementReferee, c.by}} {
			if got := c.d.Scored(p.policy); got != p.want {
				t.Errorf("%s, policy %v: %v, want %v", c.name, p.policy, got, p.want)
			}
		}
	}
}
