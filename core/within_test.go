package core

import "testing"

// TestWithin checks Cell.within against the hexagonal distance computed
// from the axial offset, for every cell of the grid and every offset
// within the reach of one hive (29 steps on each axis): a cell that near
// is always within, and a cell further off is never taken for one unless
// it is at least 17 steps away (where the index difference aliases a near
// offset), which is the only slack its callers rely on.
func TestWithin(t *testing.T) {
	for c := Cell(0); c < gridCells; c++ {
		for dq := -29; dq <= 29; dq++ {
			for dr := -29; dr <= 29; dr++ {
				far := max(abs(dq), abs(dr), abs(dq+dr))
				to := c.Step(dq, dr)
				for _, n := range []int{0, 1, 3, 14} {
					got := c.within(to, n)
					if far <= n && !got {
						t.Fatalf("cell %d, offset (%d,%d): %d steps, not within %d", c, dq, dr, far, n)
					}
					if far > n && got && far < 17 {
						t.Fatalf("cell %d, offset (%d,%d): %d steps, within %d", c, dq, dr, far, n)
					}
				}
			}
		}
		if c.within(NoCell, 14) || NoCell.within(c, 14) {
			t.Fatalf("cell %d: NoCell within reach", c)
		}
	}
}

// TestOffset checks Cell.Offset against the cells CellAt and Step place at
// known offsets, from every cell of the grid.
func TestOffset(t *testing.T) {
	for c := Cell(0); c < gridCells; c++ {
		for dq := -16; dq <= 15; dq++ {
			for dr := -16; dr <= 15; dr++ {
				if q, r := c.Offset(c.Step(dq, dr)); q != dq || r != dr {
					t.Fatalf("cell %d: offset to the cell (%d,%d) away read as (%d,%d)", c, dq, dr, q, r)
				}
			}
		}
	}
	if q, r := Origin.Offset(CellAt(3, -2)); q != 3 || r != -2 {
		t.Fatalf("Origin to CellAt(3,-2): (%d,%d)", q, r)
	}
}
