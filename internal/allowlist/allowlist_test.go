package allowlist

import (
	"net"
	"strings"
	"testing"
)

func TestAllows(t *testing.T) {
	l, err := Parse([]string{"127.0.0.1", "10.0.0.0/8, 192.168.1.0/24", "::1", "fd00::/8", "::ffff:172.16.0.0/108"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := l.String(), "127.0.0.1,10.0.0.0/8,192.168.1.0/24,::1,fd00::/8,172.16.0.0/12"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	for addr, want := range map[string]bool{
		"127.0.0.1:5000":         true,
		"127.0.0.2:5000":         false,
		"10.255.3.4:1":           true,
		"11.0.0.1:1":             false,
		"192.168.1.77:80":        true,
		"192.168.2.1:80":         false,
		"[::1]:9":                true,
		"[::2]:9":                false,
		"[fd12:3456::1]:9":       true,
		"[::ffff:10.1.2.3]:7":    true, // an IPv4 client on a dual-stack socket
		"[::ffff:127.0.0.1]:7":   true,
		"172.31.255.255:1":       true,
		"172.32.0.0:1":           false,
		"[fe80::1%eth0]:7":       false,
		"not an address at all":  false,
		"[::ffff:192.168.1.1]:1": true,
	} {
		if got := l.AllowsHostPort(addr); got != want {
			t.Errorf("AllowsHostPort(%q) = %v, want %v", addr, got, want)
		}
		if tcp, err := net.ResolveTCPAddr("tcp", addr); err == nil {
			if got := l.Allows(tcp); got != want {
				t.Errorf("Allows(%v) = %v, want %v", tcp, got, want)
			}
		}
	}
	if !l.Allows(&net.TCPAddr{IP: net.IPv4(10, 0, 0, 1).To16(), Port: 1}) {
		t.Error("a 16-byte IPv4 address is not allowed by 10.0.0.0/8")
	}
	if l.Allows(&net.UnixAddr{Name: "/tmp/sock", Net: "unix"}) {
		t.Error("a Unix socket's address is allowed by a list of IP networks")
	}
}

func TestEveryone(t *testing.T) {
	for _, entries := range [][]string{nil, {}, {""}, {" , "}} {
		l, err := Parse(entries)
		if err != nil || !l.Everyone() || l.String() != "everyone" {
			t.Errorf("Parse(%q) = %v, %v; want everyone", entries, l, err)
		}
		if !l.AllowsHostPort("203.0.113.9:1") || !l.Allows(&net.UnixAddr{Name: "x", Net: "unix"}) {
			t.Errorf("Parse(%q) refuses a client", entries)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, bad := range []string{"localhost", "10.0.0.0/33", "1.2.3", "10.0.0.0/8/8", "::1/129", "1.2.3.4:80"} {
		if _, err := Parse([]string{bad}); err == nil || !strings.Contains(err.Error(), "is neither an IP address nor a network") {
			t.Errorf("Parse(%q) = %v, want an error", bad, err)
		}
	}
}

// FuzzParse reads arbitrary flag values: Parse never panics, and a list it
// accepts writes itself back as a list that allows the same clients.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"127.0.0.1", "10.0.0.0/8,::1", "::ffff:10.0.0.0/104", "fe80::1%eth0", "", "1.2.3.4/0", "x"} {
		f.Add(s, "10.1.2.3:4")
	}
	f.Fuzz(func(t *testing.T, entries, client string) {
		l, err := Parse([]string{entries})
		if err != nil {
			return
		}
		s := l.String()
		if l.Everyone() {
			return
		}
		back, err := Parse([]string{s})
		if err != nil {
			t.Fatalf("%q wrote %q, which does not parse: %v", entries, s, err)
		}
		if back.String() != s {
			t.Fatalf("%q wrote %q, which writes %q", entries, s, back.String())
		}
		if l.AllowsHostPort(client) != back.AllowsHostPort(client) {
			t.Fatalf("%q and %q disagree on %q", entries, s, client)
		}
	})
}
