package webhooks

import (
	"fmt"
	"net"
	"net/http"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"
)

// Self is the address the sandbox listens on, once it does. A delivery or
// an authorization call whose connection would reach it is not made: it
// fails with a reason that says so. Requests the sandbox sends carry
// web.SenderHeader besides, which the sandbox refuses however they reach
// it (through a proxy, a port Docker maps, a name it does not know).
type Self struct {
	addr atomic.Pointer[net.TCPAddr]
}

// Listening records the address the sandbox listens on.
func (s *Self) Listening(a net.Addr) {
	if t, ok := a.(*net.TCPAddr); ok {
		s.addr.Store(t)
	}
}

// refuse is a dialer's Control: it fails a connection to the sandbox's own
// listener (its address, or with an unspecified one, any address of the
// machine at its port), once the name has been resolved.
func (s *Self) refuse(_, address string, _ syscall.RawConn) error {
	own := s.addr.Load()
	if own == nil {
		return nil
	}
	host, port, err := net.SplitHostPort(address)
	ip := net.ParseIP(host)
	if err != nil || ip == nil || port != strconv.Itoa(own.Port) {
		return nil
	}
	if ip.Equal(own.IP) || own.IP.IsUnspecified() && isLocal(ip) {
		return fmt.Errorf("%s is the sandbox's own address: the sandbox does not send requests to itself", address)
	}
	return nil
}

// isLocal reports whether ip is an address of this machine.
func isLocal(ip net.IP) bool {
	if ip.IsLoopback() || ip.IsUnspecified() {
		return true
	}
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.Equal(ip) {
			return true
		}
	}
	return false
}

// transport is the default transport whose connections self refuses to
// make to the sandbox (nil: the default transport).
func transport(self *Self) http.RoundTripper {
	if self == nil {
		return http.DefaultTransport
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	d := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second, Control: self.refuse}
	t.DialContext = d.DialContext
	return t
}
