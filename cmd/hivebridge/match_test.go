package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/translate/referee"
)

// TestMatchSummaryCountsDisagreementsApart: the --out summary and the table
// count games lost by an engine's failure, games ended by a rules
// disagreement and games voided by an engine's refusal of hivebridge's
// command apart, list each disagreement with both verdicts and its
// position, and leave void games out of the score.
func TestMatchSummaryCountsDisagreementsApart(t *testing.T) {
	const position = "Base;InProgress;White[4];wS1;bS1 wS1-;wQ /wS1;bQ bS1-;wS2 wQ\\;bA1 bS1\\"
	games := []referee.GameRecord{
		{Index: 0, AWhite: true, Result: core.BlackWins, Ending: referee.ByForfeit,
			Reason:     `white forfeits on bestmove (depth 1): engine fake exited while answering "bestmove depth 1"; restarted`,
			GameString: "Base;NotStarted;White[1]"},
		{Index: 1, AWhite: false, Result: core.InProgress, Ending: referee.ByDisagreement,
			Reason: "rules disagreement: at ply 6 the referee says InProgress, white's engine states none, black's engine Draw; void (disagreement policy void)",
			Disagree: &referee.Disagreement{Ply: 6, Referee: core.InProgress,
				Engines: [2]referee.Verdict{{}, {Stated: true, Result: core.Draw}}},
			GameString: position, Plies: 6},
		{Index: 2, AWhite: true, Result: core.WhiteWins, Ending: referee.ByRules, Reason: "black queen surrounded",
			GameString: "Base;WhiteWins;Black[12]"},
		{Index: 3, AWhite: false, Result: core.InProgress, Ending: referee.ByDisagreement,
			Reason: "rules disagreement: at ply 41 the referee says Draw, white's engine Draw, black's engine InProgress; void (disagreement policy void)",
			Disagree: &referee.Disagreement{Ply: 41, Referee: core.Draw,
				Engines: [2]referee.Verdict{{Stated: true, Result: core.Draw}, {Stated: true, Result: core.InProgress}}},
			GameString: position, Plies: 41},
		{Index: 4, AWhite: true, Result: core.InProgress, Ending: referee.ByRefusal,
			Reason:     `void: black refused hivebridge's command on bestmove (depth 1), which may be hivebridge's doing as much as the engine's: engine fake answered "bestmove depth 1" with "err UnrecognizedCommand(\"depth 1\")"`,
			GameString: "Base;InProgress;Black[1];wS1", Plies: 1},
	}
	res := referee.Result{Games: games}
	for _, g := range games {
		res.Stats.Add(g)
	}
	cfg := referee.Config{White: "native", Black: "uhp:fake", Games: 5, Concurrency: 1, MaxPlies: 400,
		TC: referee.TimeControl{Depth: 1}, Disagreement: referee.DisagreementVoid}
	f := &matchFlags{out: filepath.Join(t.TempDir(), "games.tsv")}

	if err := writeSummary(f.out+".json", f, cfg, res); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(f.out + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Total              wld              `json:"a_total"`
		Endings            map[string]int   `json:"endings"`
		Forfeits           int              `json:"forfeits"`
		RulesDisagreements int              `json:"rules_disagreements"`
		Refusals           int              `json:"refusals"`
		DisagreementPolicy string           `json:"disagreement_policy"`
		Disagreements      []map[string]any `json:"disagreements"`
	}
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if got.Forfeits != 1 || got.RulesDisagreements != 2 || got.Refusals != 1 || got.DisagreementPolicy != "void" {
		t.Errorf("forfeits %d, rules disagreements %d, refusals %d, policy %q; want 1, 2, 1, void\n%s", got.Forfeits, got.RulesDisagreements, got.Refusals, got.DisagreementPolicy, data)
	}
	if want := (wld{Wins: 1, Losses: 1}); got.Total != want {
		t.Errorf("A's total %+v, want %+v: void games have no result", got.Total, want)
	}
	wantEndings := map[string]int{"white forfeits on bestmove (depth 1)": 1, "rules disagreement": 2, "black queen surrounded": 1, "void": 1}
	if !reflect.DeepEqual(got.Endings, wantEndings) {
		t.Errorf("endings %v, want %v", got.Endings, wantEndings)
	}
	wantList := []map[string]any{
		{"game": 1.0, "ply": 6.0, "position": position, "referee": "InProgress", "white_engine": nil, "black_engine": "Draw", "result": "Void"},
		{"game": 3.0, "ply": 41.0, "position": position, "referee": "Draw", "white_engine": "Draw", "black_engine": "InProgress", "result": "Void"},
	}
	if !reflect.DeepEqual(got.Disagreements, wantList) {
		t.Errorf("disagreements %v\nwant %v", got.Disagreements, wantList)
	}

	var table bytes.Buffer
	printTable(&table, f, cfg, res)
	for _, want := range []string{
		"\ntotal             2      1      1      0    50.0%\n",
		"\nEndings: 2 rules disagreement, 1 black queen surrounded, 1 void, 1 white forfeits on bestmove (depth 1)\n",
		"\nForfeits: 1; rules disagreements: 2 (--disagreement void: left out of the score); refusals of hivebridge's commands: 1 (void)\n",
	} {
		if !strings.Contains(table.String(), want) {
			t.Errorf("the table has no %q:\n%s", want, table.String())
		}
	}
	if line := gameLine(games[1]); line != position+"\tVoid\t"+games[1].Reason+"\tgame=1\twhite=B\tevals=\tending=disagreement" {
		t.Errorf("games file line %q", line)
	}
}
