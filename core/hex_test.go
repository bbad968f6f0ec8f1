package core_test

import (
	"testing"

	"github.com/hivebridge/hivebridge/core"
)

// TestDirectionAxial checks each direction's axial offset against the
// grid: a step by the offset lands on the neighbour, and opposite
// directions cancel.
func TestDirectionAxial(t *testing.T) {
	for d := core.Direction(0); d < core.NumDirections; d++ {
		dq, dr := d.Axial()
		if got := core.Origin.Step(dq, dr); got != core.Origin.Neighbor(d) {
			t.Errorf("direction %d: Step(%d,%d) = %d, Neighbor = %d", d, dq, dr, got, core.Origin.Neighbor(d))
		}
		oq, or := d.Opposite().Axial()
		if dq+oq != 0 || dr+or != 0 {
			t.Errorf("direction %d and its opposite do not cancel", d)
		}
	}
}

// TestAdjacent compares Adjacent with DirectionTo for every cell of the
// grid and every cell within the reach of one hive from it (29 steps on
// each axis), and checks that NoCell is nobody's neighbour.
func TestAdjacent(t *testing.T) {
	neighbours := 0
	for c := core.Cell(0); c < 1024; c++ {
		for dq := -29; dq <= 29; dq++ {
			for dr := -29; dr <= 29; dr++ {
				n := c.Step(dq, dr)
				_, want := c.DirectionTo(n)
				if got := c.Adjacent(n); got != want {
					t.Fatalf("cell %d, offset (%d,%d): Adjacent %v, DirectionTo %v", c, dq, dr, got, want)
				}
				if want {
					neighbours++
				}
			}
		}
		if c.Adjacent(core.NoCell) || core.NoCell.Adjacent(c) {
			t.Fatalf("cell %d: NoCell counted as a neighbour", c)
		}
	}
	if neighbours != 6*1024 {
		t.Errorf("%d neighbour pairs, want %d", neighbours, 6*1024)
	}
}
