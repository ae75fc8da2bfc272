package auth

import (
	"crypto/rand"
	"net"
	"net/netip"
)

func newSecret() []byte {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return b
}

// mock derives a verifier for an unknown user from the store's secret: the
// salt is the same on every attempt with the same name, as a real user's
// would be, and the keys match no password.
func (s *Store) mock(user string) Verifier {
	return Verifier{
		Salt:       mac(s.secret, "salt\x00"+user)[:saltLen],
		Iterations: DefaultIterations,
		StoredKey:  mac(s.secret, "stored\x00"+user),
		ServerKey:  mac(s.secret, "server\x00"+user),
	}
}

// IsLoopback reports whether a client address is local to this machine's
// loopback interface: 127.0.0.0/8, ::1 (also as ::ffff:127.x.y.z), or a
// Unix socket.
func IsLoopback(addr net.Addr) bool {
	switch a := addr.(type) {
	case *net.UnixAddr:
		return true
	case *net.TCPAddr:
		ip, ok := netip.AddrFromSlice(a.IP)
		return ok && ip.Unmap().IsLoopback()
	case nil:
		return false
	default:
		ap, err := netip.ParseAddrPort(addr.String())
		return err == nil && ap.Addr().Unmap().IsLoopback()
	}
}
