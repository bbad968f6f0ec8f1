package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hivebridge/hivebridge/core"
	"github.com/hivebridge/hivebridge/internal/syncbuf"
	"github.com/hivebridge/hivebridge/protocols/hivejson"
)

// startHivejson runs hivebridge hivejson with args in the test process,
// listening on a free loopback port, and returns its address once it
// listens. At the end of the test it stops it as SIGTERM would, and checks
// that it returned without error and left no goroutine behind.
func startHivejson(t *testing.T, args ...string) string {
	t.Helper()
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	out := &syncbuf.Buffer{}
	root := NewCmdRoot()
	root.SetArgs(append([]string{"hivejson", "--listen", "127.0.0.1:0", "--log-level", "disabled"}, args...))
	root.SetOut(out)
	root.SetErr(out)
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx) }()
	listening := regexp.MustCompile(`hivejson listening on (\S+)`)
	var addr string
	t.Cleanup(func() {
		if addr == "" {
			cancel()
			t.Logf("hivejson's output:\n%s", out.String())
		}
	})
	waitFor(t, 10*time.Second, "hivejson to listen", func() bool {
		select {
		case err := <-done:
			t.Fatalf("hivejson ended before listening: %v", err)
		default:
		}
		if m := listening.FindStringSubmatch(out.String()); m != nil {
			addr = m[1]
		}
		return addr != ""
	})
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("hivejson: %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Fatal("hivejson did not stop")
		}
		(&testDaemon{goroutines: before}).checkNoGoroutineLeft(t)
	})
	return addr
}

// TestHivejsonWholeGames plays whole games between UHP sessions whose
// backend is a JSON AI module, hivebridge hivejson (hivebridge uhp
// --backend hivejson://ADDR), two viewers at once on the one module: every
// move is checked against an independent copy of the game. Half the
// searches have a time limit, sent as response_deadline; the other half a
// depth, which the protocol cannot say, so the module thinks for its
// --default-time.
func TestHivejsonWholeGames(t *testing.T) {
	if testing.Short() {
		t.Skip("plays whole games")
	}
	addr := startHivejson(t, "--default-time", "20ms")
	for v := range 2 {
		t.Run(fmt.Sprint("viewer", v), func(t *testing.T) {
			t.Parallel()
			viewer := hivebridge(t, "uhp", "--backend", "hivejson://"+addr)
			if id := do(t, viewer, "info")[0]; id != "id hivebridge v"+version+" via hivebridge "+version {
				t.Errorf("info: %s", id)
			}
			rng := rand.New(rand.NewPCG(6, uint64(v)))
			ended := 0
			for game := range 2 {
				if playWholeGame(t, viewer, rng, game, func(ply int) string {
					if ply%2 == 1 {
						return "bestmove time 00:00:00.05"
					}
					return "bestmove depth 2"
				}) {
					ended++
				}
			}
			checkSomeEnded(t, ended)
		})
	}
}

// TestHivejsonProcess runs hivebridge hivejson as a real process: it
// prints its address, answers a controller, and exits 0 on SIGTERM with
// the controller still connected.
func TestHivejsonProcess(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "hivejson", "--listen", ":0", "--default-time", "50ms")
			cmd.Env = append(os.Environ(), runMainVar+"=1")
			cmd.Stderr = io.Discard
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			lines := make(chan string, 1)
			go func() {
				line, _ := bufio.NewReader(stdout).ReadString('\n')
				lines <- line
				io.Copy(io.Discard, stdout)
				exited <- cmd.Wait()
			}()
			var line string
			select {
			case line = <-lines:
			case <-time.After(10 * time.Second):
				cmd.Process.Kill()
				t.Fatal("hivebridge hivejson printed no address")
			}
			addr, ok := strings.CutPrefix(strings.TrimSpace(line), "hivejson listening on ")
			if !ok || !strings.HasPrefix(addr, "127.0.0.1:") {
				cmd.Process.Kill()
				t.Fatalf("first line %q; want it listening on loopback", line)
			}
			conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
			if err != nil {
				cmd.Process.Kill()
				t.Fatal(err)
			}
			defer conn.Close()
			client := hivejson.NewClient(conn, 0)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			hello, err := client.Greet(ctx, "k5i7O")
			if err != nil || !hello.Active || hello.Name != "hivebridge" || hello.Version != version || hello.Description == "" || hello.ID() != "k5i7O" {
				t.Errorf("Greetings answered %+v, %v", hello, err)
			}
			req, _ := hivejson.NewChooseTurnRequest("r1", "g1", time.Now().UnixMilli(), core.NewGame(core.AllExpansions))
			if resp, err := client.ChooseTurn(ctx, &req); err != nil || resp.TurnType != hivejson.TurnPlacement || resp.Destination != "0,0" {
				t.Errorf("Choose Turn answered %+v, %v", resp, err)
			}
			cmd.Process.Signal(sig)
			select {
			case err := <-exited:
				if err != nil {
					t.Errorf("hivebridge hivejson exited with %v after %v, want 0", err, sig)
				}
			case <-time.After(10 * time.Second):
				cmd.Process.Kill()
				t.Fatalf("hivebridge hivejson did not exit on %v", sig)
			}
		})
	}
}
