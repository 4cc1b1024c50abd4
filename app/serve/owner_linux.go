package serve

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/user"
	"strings"
)

// socketOwner is the local user that owns the client's end of a loopback
// TCP connection (local is the server's address, remote the client's), as
// /proc/net/tcp and tcp6 list it: the client's socket is the line whose
// local address is remote and whose remote address is local.
func socketOwner(local, remote net.Addr) (string, bool) {
	l, ok1 := local.(*net.TCPAddr)
	r, ok2 := remote.(*net.TCPAddr)
	if !ok1 || !ok2 {
		return "", false
	}
	for _, f := range []struct {
		path string
		enc  func(*net.TCPAddr) (string, bool)
	}{{"/proc/net/tcp", procAddr4}, {"/proc/net/tcp6", procAddr6}} {
		lk, ok1 := f.enc(r)
		rk, ok2 := f.enc(l)
		if !ok1 || !ok2 {
			continue
		}
		if uid, ok := procUID(f.path, lk, rk); ok {
			if u, err := user.LookupId(uid); err == nil {
				return u.Username + " (uid " + uid + ")", true
			}
			return "uid " + uid, true
		}
	}
	return "", false
}

// procUID is the uid of path's socket line with local address lk and
// remote address rk (the kernel's hex forms).
func procUID(path, lk, rk string) (string, bool) {
	f, err := os.Open(path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) > 7 && fs[1] == lk && fs[2] == rk {
			return fs[7], true
		}
	}
	return "", false
}

// procAddr4 is a as /proc/net/tcp writes it: the IPv4 address's four
// bytes as one little-endian word in hex, then the port.
func procAddr4(a *net.TCPAddr) (string, bool) {
	ip := a.IP.To4()
	if ip == nil {
		return "", false
	}
	return fmt.Sprintf("%02X%02X%02X%02X:%04X", ip[3], ip[2], ip[1], ip[0], a.Port), true
}

// procAddr6 is a as /proc/net/tcp6 writes it: four little-endian words
// (an IPv4 address as ::ffff:a.b.c.d), then the port.
func procAddr6(a *net.TCPAddr) (string, bool) {
	ip := a.IP.To16()
	if ip == nil {
		return "", false
	}
	var b strings.Builder
	for w := 0; w < 16; w += 4 {
		fmt.Fprintf(&b, "%02X%02X%02X%02X", ip[w+3], ip[w+2], ip[w+1], ip[w])
	}
	return fmt.Sprintf("%s:%04X", b.String(), a.Port), true
}
