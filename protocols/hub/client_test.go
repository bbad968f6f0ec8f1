package hub_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/protocols/hub"
)

// The client reads a session's answers: the handshake, a search with its
// info lines, and a stop.
func TestClientAgainstSession(t *testing.T) {
	toEngineR, toEngineW := io.Pipe()
	fromEngineR, fromEngineW := io.Pipe()
	ended := make(chan error, 1)
	go func() {
		ended <- hub.NewSession(testConfig(untilStopped{}, true)).Run(context.Background(), toEngineR, fromEngineW)
		fromEngineW.Close()
	}()
	c := hub.NewClient(fromEngineR, toEngineW)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()

	var params []hub.Param
	var id hub.ID
	c.Send(hub.Hub{})
	if _, err := c.Await(ctx, hub.CmdWait, func(a hub.Answer) {
		switch m := a.Message.(type) {
		case hub.ID:
			id = m
		case hub.Param:
			params = append(params, m)
		}
	}); err != nil {
		t.Fatal(err)
	}
	if id.Name != "test" || len(params) != 2 || params[0].Name != hub.ParamVariant {
		t.Fatalf("id %+v, params %+v", id, params)
	}
	c.Send(hub.PosOf(core.NewGame(core.Base)))
	c.Send(hub.Level{Infinite: true})
	c.Send(hub.Go{Mode: hub.Think})
	var infos int
	// Long enough for the first info line on a loaded machine; the
	// search never ends by itself.
	short, cancelShort := context.WithTimeout(ctx, time.Second)
	_, err := c.Await(short, hub.CmdDone, func(a hub.Answer) {
		if _, ok := a.Message.(hub.Info); ok {
			infos++
		}
	})
	cancelShort()
	if !errors.Is(err, context.DeadlineExceeded) || infos != 1 {
		t.Fatalf("Await during an infinite search = %v with %d info lines; want the deadline, one info", err, infos)
	}
	c.Send(hub.Stop{})
	m, err := c.Await(ctx, hub.CmdDone, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := m.(hub.Done); d.Move != moveIn(t, core.Base, nil, 1) {
		t.Errorf("done %+v", d)
	}
	toEngineW.Close()
	if _, err := c.Await(ctx, hub.CmdDone, nil); !errors.Is(err, hub.ErrEngineGone) {
		t.Errorf("Await after the end = %v, want ErrEngineGone", err)
	}
	<-c.Ended()
	if err := <-ended; err != nil {
		t.Errorf("Run: %v", err)
	}
}

// Free text is an Unknown answer, a line that does not read is passed on
// with its error; a bad line of
// the awaited command ends the wait with its error.
func TestClientGarbage(t *testing.T) {
	out := "Scan 3.1 loading bitbases...\n\ninfo depth=x\nerror message=\"careful\"\nready\ndone\n"
	c := hub.NewClient(strings.NewReader(out), io.Discard)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var seen []string
	if _, err := c.Await(ctx, hub.CmdReady, func(a hub.Answer) {
		if a.Err != nil {
			seen = append(seen, "bad: "+a.Text)
		} else {
			seen = append(seen, a.Message.Line().String())
		}
	}); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(seen, " | "); got != `Scan 3.1 loading bitbases... | bad: info depth=x | error message=careful` {
		t.Errorf("answers before ready: %s", got)
	}
	if _, err := c.Await(ctx, hub.CmdDone, nil); err == nil || !strings.Contains(err.Error(), "done: move= is missing") {
		t.Errorf("a done without a move: %v", err)
	}
}

// An engine line longer than the client reads ends the engine's output.
func TestClientLineTooLong(t *testing.T) {
	c := hub.NewClient(strings.NewReader("info pv="+strings.Repeat("x", 2<<20)+"\ndone move=wS1\n"), io.Discard)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := c.Await(ctx, hub.CmdDone, nil); !errors.Is(err, hub.ErrEngineGone) || !strings.Contains(err.Error(), "too long") {
		t.Errorf("Await = %v, want ErrEngineGone for a line too long", err)
	}
}
