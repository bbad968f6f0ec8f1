package translate

import (
	"bufio"
	"fmt"
	"io"
	"os/exec"
	"syscall"
	"time"

	"github.com/rs/zerolog"
)

// child is one run of an engine program, whatever its protocol: started
// never through a shell, in a process group of its own (so that a signal
// reaches whatever the engine starts in turn), its standard error drained to
// the log.
type child struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	exited chan struct{} // closed once the program has exited
	log    zerolog.Logger
}

// spawn starts program with args. connect is given the program's standard
// output and input, sets up the protocol client that reads and writes them,
// and returns a channel closed once the output has been read to its end:
// only then is the program waited for, since waiting closes the pipes and
// the engine's last words would be lost.
func spawn(program string, args []string, log zerolog.Logger, connect func(stdout io.Reader, stdin io.Writer) (outputRead <-chan struct{})) (*child, error) {
	cmd := exec.Command(program, args...)
	cmd.SysProcAttr = childAttributes()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("cannot start engine %s: %w", program, err)
	}
	c := &child{cmd: cmd, stdin: stdin, exited: make(chan struct{}), log: log.With().Str("engine", program).Int("pid", cmd.Process.Pid).Logger()}
	outputRead := connect(stdout, stdin)
	stderrDone := make(chan struct{})
	go func() {
		drainStderr(stderr, c.log)
		close(stderrDone)
	}()
	go func() {
		<-outputRead
		<-stderrDone
		err := cmd.Wait()
		c.log.Debug().AnErr("status", err).Msg("engine exited")
		close(c.exited)
	}()
	return c, nil
}

// endingClient is what a run needs of its protocol's client: a channel
// closed once the engine's output has been read to its end (see spawn).
type endingClient interface{ Ended() <-chan struct{} }

// run is one run of an engine program with the protocol client that talks
// to it; the UHP and Hub backends differ only in the client.
type run[C endingClient] struct {
	*child
	client C
}

// startRun spawns program with args and connects the client newClient makes
// over its output and input (uhp.NewClient, hub.NewClient).
func startRun[C endingClient](program string, args []string, log zerolog.Logger, newClient func(stdout io.Reader, stdin io.Writer) C) (*run[C], error) {
	var client C
	c, err := spawn(program, args, log, func(stdout io.Reader, stdin io.Writer) <-chan struct{} {
		client = newClient(stdout, stdin)
		return client.Ended()
	})
	if err != nil {
		return nil, err
	}
	return &run[C]{child: c, client: client}, nil
}

// launcher is what a backend process keeps to start its program, and start
// it again after a failure: the program, its arguments, the configuration
// and the log, named after the program until the engine has named itself.
type launcher struct {
	program string
	args    []string
	cfg     Config
	log     zerolog.Logger
}

// newLauncher fills in cfg's defaults.
func newLauncher(program string, args []string, cfg Config) launcher {
	cfg = cfg.WithDefaults()
	return launcher{program: program, args: args, cfg: cfg, log: cfg.Log.With().Str("engine", program).Logger()}
}

// restarting logs why a failed engine is started again and tells
// cfg.OnRestart, before the backend kills the old run and starts a new one.
func (l *launcher) restarting(why string) {
	l.log.Warn().Str("why", why).Msg("restarting engine")
	if l.cfg.OnRestart != nil {
		l.cfg.OnRestart()
	}
}

// pid is the program's process id.
func (c *child) pid() int { return c.cmd.Process.Pid }

// signal sends sig to the program's whole process group.
func (c *child) signal(sig syscall.Signal) {
	syscall.Kill(-c.cmd.Process.Pid, sig)
}

// kill ends the program's process group and waits for the program to exit.
func (c *child) kill() {
	c.signal(syscall.SIGKILL)
	c.stdin.Close()
	select {
	case <-c.exited:
	case <-time.After(5 * time.Second):
		c.log.Error().Msg("engine did not exit after SIGKILL")
	}
}

// close gives the program grace to exit on its own, once it has been told
// to quit, and then ends its process group.
func (c *child) close(grace time.Duration) {
	c.stdin.Close()
	select {
	case <-c.exited:
	case <-time.After(grace):
	}
	c.kill()
}

// stderrLinesPerSecond bounds how much of an engine's standard error is
// logged: a flood is counted, not copied.
const stderrLinesPerSecond = 50

// drainStderr logs the engine's standard error, line by line, never mixing
// it into protocol output, and keeps reading so a chatty engine never
// blocks on a full pipe.
func drainStderr(r io.Reader, log zerolog.Logger) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), 64*1024)
	window, logged, dropped := time.Now(), 0, 0
	for sc.Scan() {
		if now := time.Now(); now.Sub(window) >= time.Second {
			if dropped > 0 {
				log.Warn().Int("lines", dropped).Msg("engine standard error flooded; lines dropped")
			}
			window, logged, dropped = now, 0, 0
		}
		switch {
		case logged < stderrLinesPerSecond:
			log.Info().Str("stderr", sc.Text()).Msg("engine said")
			logged++
		case dropped == 0:
			log.Warn().Int("per_second", stderrLinesPerSecond).Msg("engine standard error flooded; logging it in part")
			dropped++
		default:
			dropped++
		}
	}
	if dropped > 0 {
		log.Warn().Int("lines", dropped).Msg("engine standard error flooded; lines dropped")
	}
}

// settings are the options set on an engine process so far, in the order
// set, so that a process started again after a failure gets them again.
type settings [][2]string

// set records name = value, replacing an earlier value of name.
func (s *settings) set(name, value string) {
	for i := range *s {
		if (*s)[i][0] == name {
			(*s)[i][1] = value
			return
		}
	}
	*s = append(*s, [2]string{name, value})
}
