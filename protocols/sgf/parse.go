package sgf

import (
	"fmt"
	"strings"
)

// MaxDepth bounds how deeply Parse lets game trees nest. BoardSpace's Hive
// records never nest at all (one game tree, or two side by side); other
// programs' variations nest one level per branch, and no real record comes
// near a thousand. Parse itself needs no bound (it keeps its own stack),
// but code walking a Tree recursively would.
const MaxDepth = 1000

// Property is one property of a node: its identifier and its values, in
// the order written, with the SGF escapes undone.
type Property struct {
	// ID is the property's identifier as SGF FF[4] reads it: the
	// lower-case letters that FF[1]-FF[3] allowed in identifiers
	// ("AddBlack" for AB) are dropped. BoardSpace's identifiers also hold
	// digits and a minus sign (P0, P1, P-1), which are kept.
	ID string
	// Values are the bracketed values, unescaped: "\]" is "]", "\\" is
	// "\", a backslash before a line break removes both (a soft break),
	// and a backslash before any other character stands for that
	// character. Line breaks and other white space are kept.
	Values []string
}

// Node is one node of a game tree: for BoardSpace, the header or one
// player action.
type Node struct {
	Props []Property
}

// Value returns the first value of the node's first property id, and
// whether there is one.
func (n *Node) Value(id string) (string, bool) {
	for _, p := range n.Props {
		if p.ID == id && len(p.Values) > 0 {
			return p.Values[0], true
		}
	}
	return "", false
}

// Tree is one game tree: a sequence of nodes followed by its variations.
type Tree struct {
	Nodes      []*Node
	Variations []*Tree
}

// MainLine returns the tree's main line: its nodes, then those of its first
// variation, and so on. That is the game as played; a Hive record has no
// other line, and SGF's convention makes the first variation the main one.
func (t *Tree) MainLine() []*Node {
	var nodes []*Node
	for ; t != nil; t = first(t.Variations) {
		nodes = append(nodes, t.Nodes...)
	}
	return nodes
}

func first(ts []*Tree) *Tree {
	if len(ts) == 0 {
		return nil
	}
	return ts[0]
}

// SyntaxError is an error in the SGF text itself: Offset is the byte
// offset in the input where it was found.
type SyntaxError struct {
	Offset int
	Msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("sgf: syntax error at byte %d: %s", e.Offset, e.Msg)
}

// Parse reads an SGF collection: one or more game trees, each "(" then
// nodes ";" with properties ID[value][value]..., then nested trees, then
// ")". It follows the grammar of SGF FF[4] (red-bean.com/sgf/sgf4.html),
// with what BoardSpace writes beyond it: a leading space before the first
// "(" and a space and line break after the last ")" (white space is
// allowed between any two tokens), and identifiers with digits and a minus
// sign (P0, P-1), as its sgf_property and commonMove write them. Anything
// else outside a value is an error, and so is an empty collection.
//
// The work is linear in the input, with no recursion; nesting deeper than
// MaxDepth is refused.
func Parse(data []byte) ([]*Tree, error) {
	p := parser{data: data}
	return p.collection()
}

type parser struct {
	data []byte
	pos  int
}

func (p *parser) errorf(format string, args ...any) error {
	return &SyntaxError{Offset: p.pos, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r', '\v', '\f':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) collection() ([]*Tree, error) {
	var trees, stack []*Tree
	var node *Node
	if len(p.data) >= 3 && string(p.data[:3]) == "\xef\xbb\xbf" {
		p.pos = 3 // a UTF-8 byte-order mark, as Windows editors save
	}
	for {
		p.skipSpace()
		if p.pos == len(p.data) {
			break
		}
		c := p.data[p.pos]
		switch {
		case c == '(':
			if len(stack) >= MaxDepth {
				return nil, p.errorf("game trees nested deeper than %d", MaxDepth)
			}
			if n := len(stack); n > 0 && len(stack[n-1].Nodes) == 0 {
				return nil, p.errorf("a game tree must start with a node (;) before its variations")
			}
			t := &Tree{}
			if n := len(stack); n == 0 {
				trees = append(trees, t)
			} else {
				stack[n-1].Variations = append(stack[n-1].Variations, t)
			}
			stack = append(stack, t)
			node = nil
			p.pos++
		case c == ')':
			n := len(stack)
			if n == 0 {
				return nil, p.errorf("unbalanced ')'")
			}
			if len(stack[n-1].Nodes) == 0 {
				return nil, p.errorf("empty game tree")
			}
			stack = stack[:n-1]
			node = nil
			p.pos++
		case c == ';':
			n := len(stack)
			if n == 0 {
				return nil, p.errorf("a node outside any game tree")
			}
			if len(stack[n-1].Variations) > 0 {
				return nil, p.errorf("a node after the variations of its game tree")
			}
			node = &Node{}
			stack[n-1].Nodes = append(stack[n-1].Nodes, node)
			p.pos++
		case isIDStart(c):
			if node == nil {
				return nil, p.errorf("a property outside any node")
			}
			prop, err := p.property()
			if err != nil {
				return nil, err
			}
			node.Props = append(node.Props, prop)
		default:
			if len(stack) == 0 {
				return nil, p.errorf("unexpected %q outside any game tree", c)
			}
			return nil, p.errorf("unexpected %q: want a property, ';', '(' or ')'", c)
		}
	}
	if len(stack) > 0 {
		return nil, p.errorf("the input ends inside a game tree (a missing ')')")
	}
	if len(trees) == 0 {
		return nil, p.errorf("no game tree")
	}
	return trees, nil
}

func isIDStart(c byte) bool { return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' }

func isIDChar(c byte) bool { return isIDStart(c) || '0' <= c && c <= '9' || c == '-' }

// property reads an identifier and its values.
func (p *parser) property() (Property, error) {
	start := p.pos
	for p.pos < len(p.data) && isIDChar(p.data[p.pos]) {
		p.pos++
	}
	prop := Property{ID: propertyID(string(p.data[start:p.pos]))}
	for {
		p.skipSpace()
		if p.pos == len(p.data) || p.data[p.pos] != '[' {
			break
		}
		v, err := p.value()
		if err != nil {
			return Property{}, err
		}
		prop.Values = append(prop.Values, v)
	}
	if len(prop.Values) == 0 {
		return Property{}, p.errorf("property %s has no value", prop.ID)
	}
	return prop, nil
}

// propertyID normalises an identifier: SGF FF[4] says that "lowercase
// letters in PropIdents of older FF versions should be ignored", so
// AddBlack is AB. An identifier that would not then start with an
// upper-case letter (tm, or a1B) is upper-cased whole instead, so that it
// neither vanishes nor becomes one that cannot be written back.
func propertyID(raw string) string {
	var b strings.Builder
	for i := 0; i < len(raw); i++ {
		if c := raw[i]; c < 'a' || c > 'z' {
			b.WriteByte(c)
		}
	}
	if id := b.String(); id != "" && 'A' <= id[0] && id[0] <= 'Z' {
		return id
	}
	return strings.ToUpper(raw)
}

// value reads one bracketed value, the '[' at p.pos.
func (p *parser) value() (string, error) {
	open := p.pos
	p.pos++
	var b []byte
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		switch c {
		case ']':
			p.pos++
			return string(b), nil
		case '\\':
			p.pos++
			if p.pos == len(p.data) {
				continue
			}
			switch e := p.data[p.pos]; e {
			case '\n', '\r':
				// A soft line break: removed, with the other half of a
				// CR LF or LF CR pair.
				p.pos++
				if p.pos < len(p.data) && (p.data[p.pos] == '\n' || p.data[p.pos] == '\r') && p.data[p.pos] != e {
					p.pos++
				}
			default:
				b = append(b, e)
				p.pos++
			}
		default:
			b = append(b, c)
			p.pos++
		}
	}
	p.pos = open
	return "", p.errorf("a value that is never closed (no ']')")
}
