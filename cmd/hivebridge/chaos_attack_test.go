package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"

	"github.com/hivebridge/hivebridge/protocols/hivejson"
	"github.com/hivebridge/hivebridge/protocols/uhp"
)

// The attackers of the chaos test: clients that ask for endless searches
// and leave in the middle of them, and clients that try to hold a
// token-guarded daemon before logging in, while the chaos sessions play.

// leaveMidSearch, until stop, starts searches with no end in sight on the
// daemons (UHP over TCP and WebSocket, and the JSON API with a deadline an
// hour away) and leaves after a moment, counting each departure. Each
// search the daemon did not cancel would hold one of its engines for
// minutes, and the chaos sessions, which wait for engines, would not
// finish.
func leaveMidSearch(stop <-chan struct{}, daemons []*testDaemon, left *atomic.Int64) {
	rng := rand.New(rand.NewPCG(7, 11))
	for i := 0; ; i++ {
		select {
		case <-stop:
			return
		case <-time.After(50 * time.Millisecond):
		}
		d := daemons[i%len(daemons)]
		stay := time.Duration(50+rng.IntN(200)) * time.Millisecond
		var err error
		switch i % 3 {
		case 0:
			err = leaveTCP(d, stay, []string{"bestmove time 99999:00:00", "bestmove depth 200"}[rng.IntN(2)])
		case 1:
			err = leaveWS(d, stay)
		case 2:
			err = leaveJSON(d, stay)
		}
		if err == nil {
			left.Add(1)
		}
	}
}

func leaveTCP(d *testDaemon, stay time.Duration, search string) error {
	conn, err := net.Dial("tcp", d.uhpAddr)
	if err != nil {
		return err
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	fmt.Fprintf(conn, "newgame %s\n%s\n", midgame, search)
	time.Sleep(stay) // the attack's pace: a random moment into the search, then gone
	return nil
}

func leaveWS(d *testDaemon, stay time.Duration) error {
	ws, _, err := websocket.DefaultDialer.Dial("ws://"+d.httpAddr+"/uhp", nil)
	if err != nil {
		return err
	}
	defer ws.Close()
	ws.WriteMessage(websocket.TextMessage, []byte("newgame "+midgame))
	ws.WriteMessage(websocket.TextMessage, []byte("bestmove time 99999:00:00"))
	time.Sleep(stay) // the attack's pace: a random moment into the search, then gone
	return nil
}

func leaveJSON(d *testDaemon, stay time.Duration) error {
	conn, err := net.Dial("tcp", d.jsonAddr)
	if err != nil {
		return err
	}
	defer conn.Close()
	gs, err := uhp.ParseGameString(midgame)
	if err != nil {
		return err
	}
	g, err := gs.Load()
	if err != nil {
		return err
	}
	req, err := hivejson.NewChooseTurnRequest("leave", "leave", time.Now().UnixMilli(), g)
	if err != nil {
		return err
	}
	hour := time.Now().Add(time.Hour).UnixMilli()
	req.ResponseDeadline = &hour
	ctx, cancel := context.WithTimeout(context.Background(), stay)
	defer cancel()
	hivejson.NewClient(conn, 0).ChooseTurn(ctx, &req)
	return nil
}

// trickleAuth, until stop, keeps tricklers clients on the token daemon d
// sending an auth line a byte at a time and one sending an endless one;
// each comes back when the daemon cuts it off.
func trickleAuth(stop <-chan struct{}, d *testDaemon, tricklers int) {
	attack := func(send func(net.Conn) error) {
		for {
			select {
			case <-stop:
				return
			default:
			}
			conn, err := net.Dial("tcp", d.uhpAddr)
			if err != nil {
				time.Sleep(50 * time.Millisecond) // the attacker's pace: refused, it tries again a moment later
				continue
			}
			go func() { <-stop; conn.Close() }()
			for send(conn) == nil {
			}
			conn.Close()
		}
	}
	trickle := func(conn net.Conn) error {
		time.Sleep(100 * time.Millisecond) // the trickle is the attack: a byte at a time, each pushing back an idle timeout
		_, err := conn.Write([]byte("x"))
		return err
	}
	chunk := []byte(strings.Repeat("y", 64<<10))
	flood := func(conn net.Conn) error {
		_, err := conn.Write(chunk)
		return err
	}
	var wg sync.WaitGroup
	for range tricklers {
		wg.Go(func() { attack(trickle) })
	}
	wg.Go(func() { attack(flood) })
	wg.Wait()
}

// loginUnderAttack, until stop, logs in to the token daemon d with the
// right token again and again, and returns the longest a login took to be
// answered and the logins that failed.
func loginUnderAttack(stop <-chan struct{}, d *testDaemon) (longest time.Duration, failures []string) {
	for {
		select {
		case <-stop:
			return longest, failures
		case <-time.After(200 * time.Millisecond):
		}
		start := time.Now()
		conn, err := net.Dial("tcp", d.uhpAddr)
		if err != nil {
			failures = append(failures, err.Error())
			continue
		}
		conn.SetDeadline(time.Now().Add(10 * time.Second))
		fmt.Fprintln(conn, "auth s3cret")
		line, err := bufio.NewReader(conn).ReadString('\n')
		conn.Close()
		if err != nil && err != io.EOF || !strings.HasPrefix(line, "id hivebridge") {
			failures = append(failures, fmt.Sprintf("%q, %v", line, err))
			continue
		}
		longest = max(longest, time.Since(start))
	}
}
