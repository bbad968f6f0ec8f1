package sgf

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	trees, err := Parse([]byte("\xef\xbb\xbf (;GM[27]AddBlack[aa][bb]\n; P0[1 Dropb bQ M 11 bB1\\\\] P-1[Pop P0\\[0 Start P0\\]]C[two\\\nlines\nkept]\n(;B[a];W[b])(;B[c]))\n(;GN[x]) \n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(trees) != 2 {
		t.Fatalf("%d trees, want 2", len(trees))
	}
	root := trees[0].Nodes[0]
	if v, _ := root.Value("GM"); v != "27" {
		t.Errorf("GM = %q", v)
	}
	if p := root.Props[1]; p.ID != "AB" || !slices.Equal(p.Values, []string{"aa", "bb"}) {
		t.Errorf("FF[3] identifier read as %+v, want AB[aa][bb]", p)
	}
	n := trees[0].Nodes[1]
	if v, _ := n.Value("P0"); v != `1 Dropb bQ M 11 bB1\` {
		t.Errorf("P0 = %q", v)
	}
	if v, _ := n.Value("P-1"); v != "Pop P0[0 Start P0]" {
		t.Errorf("P-1 = %q", v)
	}
	if v, _ := n.Value("C"); v != "twolines\nkept" {
		t.Errorf("C = %q, want the soft break removed and the hard one kept", v)
	}
	main := trees[0].MainLine()
	if len(main) != 4 {
		t.Fatalf("main line of %d nodes, want 4", len(main))
	}
	if v, _ := main[3].Value("W"); v != "b" {
		t.Errorf("main line ends with %v", main[3].Props)
	}
}

func TestParseErrors(t *testing.T) {
	for _, s := range []string{
		"", "  \n", "(", "()", "(;", "(;A[b]", "(;A[b", "(;A)", ";A[b]", "(;A[b]))", "(;A[b]);", "x(;A[b])",
		"(;A[b](;C[d]);E[f])", "(;A[b]#)", "((;A[b]))", "(;[b])",
		strings.Repeat("(;A[b]", MaxDepth+1) + strings.Repeat(")", MaxDepth+1),
	} {
		_, err := Parse([]byte(s))
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Parse(%.40q) = %v, want a *SyntaxError", s, err)
		}
	}
	deep := strings.Repeat("(;A[b]", MaxDepth) + strings.Repeat(")", MaxDepth)
	if _, err := Parse([]byte(deep)); err != nil {
		t.Errorf("%d levels: %v", MaxDepth, err)
	}
}
