// Package pgtest starts a PostgreSQL server of a test's own, from the
// binaries of Debian's postgresql package, on a temporary directory and a
// free port. Without them a test is skipped, unless HIVEBRIDGE_PG_TESTS=1
// (CI, whose setup installs the package) makes it fail.
package pgtest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Server is a running PostgreSQL server.
type Server struct {
	// URL reaches the server's postgres database as its superuser.
	URL  string
	bin  string
	data string
	sock string
	log  string
	port int
	as   []string // runs a command as the server's owner
	uid  int      // the owner's, when the test runs as root; else -1
	gid  int
}

// Required reports whether the PostgreSQL tests must run rather than skip.
func Required() bool { return os.Getenv("HIVEBRIDGE_PG_TESTS") == "1" }

// binDir finds the newest installed PostgreSQL's programs.
func binDir() string {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool {
		a, _ := strconv.Atoi(filepath.Base(filepath.Dir(dirs[i])))
		b, _ := strconv.Atoi(filepath.Base(filepath.Dir(dirs[j])))
		return a > b
	})
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d
		}
	}
	return ""
}

// Start starts a server for the test and stops it at the test's end.
func Start(t testing.TB) *Server {
	t.Helper()
	bin := binDir()
	if bin == "" {
		if Required() {
			t.Fatal("HIVEBRIDGE_PG_TESTS=1 but PostgreSQL is not installed (/usr/lib/postgresql/*/bin/initdb): run .ci/setup")
		}
		t.Skip("PostgreSQL is not installed (Debian's postgresql package; .ci/setup installs it); set HIVEBRIDGE_PG_TESTS=1 to require these tests")
	}
	root, err := os.MkdirTemp("", "hivebridge-pg-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	s := &Server{bin: bin, data: filepath.Join(root, "data"), sock: filepath.Join(root, "sock"), log: filepath.Join(root, "log"), uid: -1}
	for _, d := range []string{s.data, s.sock} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if os.Geteuid() == 0 {
		// PostgreSQL refuses to run as root: run it as the package's
		// postgres user, who must reach and own its directories.
		u, err := user.Lookup("postgres")
		if err != nil {
			t.Fatalf("running as root and there is no postgres user to run PostgreSQL as: %v", err)
		}
		s.uid, _ = strconv.Atoi(u.Uid)
		s.gid, _ = strconv.Atoi(u.Gid)
		uid, gid := s.uid, s.gid
		os.Chmod(root, 0o755)
		for _, d := range []string{s.data, s.sock} {
			if err := os.Chown(d, uid, gid); err != nil {
				t.Fatal(err)
			}
		}
		if f, err := os.Create(s.log); err == nil {
			f.Close()
			os.Chown(s.log, uid, gid)
		}
		s.as = []string{"runuser", "-u", "postgres", "--"}
	}
	template, err := s.template(t)
	if err != nil {
		t.Fatal(err)
	}
	s.runAs(t, "cp", "-a", template+"/.", s.data)
	s.port = freePort(t)
	s.URL = fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", s.port)
	s.Start(t)
	t.Cleanup(func() { s.stop(t, "immediate") })
	return s
}

func freePort(t testing.TB) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// template returns a cluster made by initdb once for every test on the
// machine (initdb takes seconds; a copy, milliseconds), made on first use.
func (s *Server) template(t testing.TB) (string, error) {
	t.Helper()
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("hivebridge-pg-template-%s-%d", filepath.Base(filepath.Dir(s.bin)), os.Geteuid()))
	if _, err := os.Stat(filepath.Join(dir, "PG_VERSION")); err == nil {
		return dir, nil
	}
	fresh := filepath.Join(filepath.Dir(s.data), "template")
	if err := os.Mkdir(fresh, 0o700); err != nil {
		return "", err
	}
	if s.uid >= 0 {
		if err := os.Chown(fresh, s.uid, s.gid); err != nil {
			return "", err
		}
	}
	s.run(t, "initdb", "-D", fresh, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8", "--locale=C")
	if err := os.Rename(fresh, dir); err != nil && !os.IsExist(err) {
		if _, serr := os.Stat(filepath.Join(dir, "PG_VERSION")); serr != nil {
			return "", err // not another test's template either
		}
	}
	return dir, nil
}

// run runs one of PostgreSQL's programs as the server's owner.
func (s *Server) run(t testing.TB, prog string, args ...string) {
	t.Helper()
	s.runAs(t, filepath.Join(s.bin, prog), args...)
}

// runAs runs a command as the server's owner.
func (s *Server) runAs(t testing.TB, prog string, args ...string) {
	t.Helper()
	argv := append(append([]string{}, s.as...), append([]string{prog}, args...)...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = os.TempDir()
	out, err := cmd.CombinedOutput()
	if err != nil {
		logText, _ := os.ReadFile(s.log)
		t.Fatalf("%s: %v\n%s\n%s", strings.Join(argv, " "), err, out, logText)
	}
}

// Start starts the server (again), and waits until it takes connections.
func (s *Server) Start(t testing.TB) {
	t.Helper()
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300", s.port, s.sock)
	s.run(t, "pg_ctl", "-D", s.data, "-l", s.log, "-o", opts, "-w", "-t", "30", "start")
}

// Stop stops the server at once, as a crash would: connections are cut.
func (s *Server) Stop(t testing.TB) { s.stop(t, "immediate") }

func (s *Server) stop(t testing.TB, mode string) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(s.data, "postmaster.pid")); err != nil {
		return
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		argv := append(append([]string{}, s.as...), filepath.Join(s.bin, "pg_ctl"), "-D", s.data, "-m", mode, "-w", "-t", "30", "stop")
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Dir = os.TempDir()
		if out, err := cmd.CombinedOutput(); err == nil || time.Now().After(deadline) {
			if err != nil {
				t.Errorf("pg_ctl stop: %v\n%s", err, out)
			}
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}
