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
