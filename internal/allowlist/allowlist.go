// Package allowlist says which clients a listener answers: the addresses
// and networks of an --allow-from flag. The JSON API has no way to carry a
// token, so an address list is the one gate a daemon can put before it;
// the other listeners take the same list, so that one rule covers them
// all.
package allowlist

import (
	"fmt"
	"net"
	"net/netip"
	"strings"
)

// List is a set of addresses and networks. The zero List, and one parsed
// from no entries, allows every client: the listener's own address (the
// loopback one unless told otherwise) is then the only bound.
type List struct {
	prefixes []netip.Prefix
}

// Parse reads entries, each an IP address (127.0.0.1, ::1) or a network in
// CIDR notation (10.0.0.0/8, fd00::/8); an entry may hold several,
// separated by commas.
func Parse(entries []string) (List, error) {
	var l List
	for _, entry := range entries {
		for _, s := range strings.Split(entry, ",") {
			s = strings.TrimSpace(s)
			if s == "" {
				continue
			}
			p, err := parseOne(s)
			if err != nil {
				return List{}, err
			}
			l.prefixes = append(l.prefixes, p)
		}
	}
	return l, nil
}

func parseOne(s string) (netip.Prefix, error) {
	if strings.Contains(s, "/") {
		p, err := netip.ParsePrefix(s)
		if err != nil {
			return netip.Prefix{}, fmt.Errorf("%q is neither an IP address nor a network such as 10.0.0.0/8", s)
		}
		if p.Addr().Is4In6() && p.Bits() >= 96 {
			p = netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-96)
		}
		return p.Masked(), nil
	}
	a, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Prefix{}, fmt.Errorf("%q is neither an IP address nor a network such as 10.0.0.0/8", s)
	}
	a = a.Unmap().WithZone("")
	return netip.PrefixFrom(a, a.BitLen()), nil
}

// Everyone reports whether the list allows every client.
func (l List) Everyone() bool { return len(l.prefixes) == 0 }

// Allows reports whether a client at addr (a connection's remote address)
// may connect. An address that is no IP address (a Unix socket's) is
// allowed only when everyone is.
func (l List) Allows(addr net.Addr) bool {
	if l.Everyone() {
		return true
	}
	var ip netip.Addr
	switch a := addr.(type) {
	case *net.TCPAddr:
		ip, _ = netip.AddrFromSlice(a.IP)
	case *net.UDPAddr:
		ip, _ = netip.AddrFromSlice(a.IP)
	default:
		ap, err := netip.ParseAddrPort(addr.String())
		if err != nil {
			return false
		}
		ip = ap.Addr()
	}
	return l.allowsIP(ip)
}

// AllowsHostPort is Allows for an address written host:port, as an HTTP
// request's RemoteAddr is.
func (l List) AllowsHostPort(hostport string) bool {
	if l.Everyone() {
		return true
	}
	ap, err := netip.ParseAddrPort(hostport)
	if err != nil {
		return false
	}
	return l.allowsIP(ap.Addr())
}

func (l List) allowsIP(ip netip.Addr) bool {
	if !ip.IsValid() {
		return false
	}
	ip = ip.Unmap().WithZone("")
	for _, p := range l.prefixes {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// String writes the list as Parse reads it, "everyone" when it is empty.
func (l List) String() string {
	if l.Everyone() {
		return "everyone"
	}
	s := make([]string, len(l.prefixes))
	for i, p := range l.prefixes {
		if p.IsSingleIP() {
			s[i] = p.Addr().String()
		} else {
			s[i] = p.String()
		}
	}
	return strings.Join(s, ",")
}

// Refusal is what a client at remote (an address, with or without its
// port) is told when the list does not allow it, in every protocol.
func Refusal(remote string) error {
	if host, _, err := net.SplitHostPort(remote); err == nil {
		remote = host
	}
	return fmt.Errorf("Connections from %s are not allowed (--allow-from).", remote)
}
