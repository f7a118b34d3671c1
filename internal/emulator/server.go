package emulator

import (
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Timeouts of the emulator's HTTP servers: a client that stalls while
// sending headers or a body is cut off instead of holding a connection.
const (
	ReadHeaderTimeout = 10 * time.Second
	ReadTimeout       = 60 * time.Second
	IdleTimeout       = 2 * time.Minute
)

// ConfigureServer sets the emulator's timeouts on srv (cmd/emulator's
// server, or an httptest server's Config before Start). There is no write
// timeout: a delay fault holds an answer as long as it was told to.
func ConfigureServer(srv *http.Server) {
	srv.ReadHeaderTimeout = ReadHeaderTimeout
	srv.ReadTimeout = ReadTimeout
	srv.IdleTimeout = IdleTimeout
}

// loopbackHost reports whether a Host header names this machine: localhost
// (and names under .localhost, which resolve to loopback by definition),
// or an address of 127.0.0.0/8 or ::1, with or without a port.
func loopbackHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if ip := net.ParseIP(host); ip != nil {
		return ip.IsLoopback()
	}
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	return host == "localhost" || strings.HasSuffix(host, ".localhost")
}

// loopbackOrigin reports whether an Origin header names a page served from
// this machine ("null", a sandboxed or file page, does not).
func loopbackOrigin(origin string) bool {
	u, err := url.Parse(origin)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && loopbackHost(u.Host)
}
