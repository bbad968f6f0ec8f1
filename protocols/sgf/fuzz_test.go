package sgf

import (
	"bytes"
	"os"
	"testing"
)

// FuzzRead reads arbitrary bytes, seeded with the real records and small
// hand-made ones. Read must not panic, and every game it reads must write
// (Write) and read back as the same game.
func FuzzRead(f *testing.F) {
	for _, name := range sampleFiles(f) {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{
		record("hive", "P0[1 Pick W 4 wS1]", "P0[2 Dropb wS1 N 13 .]", "P0[3 Done ]", "P1[4 Move B bS1 M 12 /wS1]", "P1[5 Done ]", "P0[6 Resign ]"),
		record("hive-pielm", "P1[1 PlayWhite ]", "P1[2 Pick W 4 wS1]", "P1[3 Dropb wS1 N 13 .]", "P1[4 Done ]", "P0[5 OfferDraw ]", "P0[6 Done ]", "P1[7 AcceptDraw ]", "P1[8 Done ]"),
		"(;SU[hive]CM[1,0]P0[id \"a\"]P1[id \"b\"];P1[1 movedone W wG1 Z 26 .];P0[2 movedone B bG1 A 1 .])",
		"(;SU[hive-m];P0[1 Move W wS1 A 1 .];P0[2 Done];P1[3 WinOnTime])(;SU[hive-l](;P0[1 Pass]))",
		"(;a[\\]]b[x\\\ny])", "(;SU[hive]GN[\xe9t\xe9])",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		games, _ := Read(data)
		for _, g := range games {
			var buf bytes.Buffer
			if err := Write(&buf, g, nil); err != nil {
				t.Fatalf("game %d read but not written: %v", g.Index, err)
			}
			back, err := Read(buf.Bytes())
			if err != nil || len(back) != 1 {
				t.Fatalf("game %d written but read back as %d games, %v\n%s", g.Index, len(back), err, buf.String())
			}
			if diff := sameGame(g, back[0]); diff != "" {
				t.Fatalf("game %d: %s\n%s", g.Index, diff, buf.String())
			}
		}
	})
}
