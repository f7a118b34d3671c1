package emulator

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestLoopbackNames(t *testing.T) {
	t.Parallel()
	for host, want := range map[string]bool{
		"127.0.0.1:8080": true, "127.0.0.1": true, "127.9.8.7:1": true, "[::1]:8080": true, "[::1]": true,
		"localhost:8080": true, "LOCALHOST": true, "app.localhost:3000": true, "localhost.:80": true,
		"evil.example:8080": false, "localhost.evil.example": false, "10.0.0.1:8080": false, "[::2]:80": false, "": false,
		"0.0.0.0:8080": false,
	} {
		if got := loopbackHost(host); got != want {
			t.Errorf("loopbackHost(%q) = %v, want %v", host, got, want)
		}
	}
	for origin, want := range map[string]bool{
		"http://localhost:3000": true, "https://127.0.0.1": true, "http://[::1]:8080": true,
		"https://evil.example": false, "null": false, "file://": false, "http://127.0.0.1.evil.example": false,
	} {
		if got := loopbackOrigin(origin); got != want {
			t.Errorf("loopbackOrigin(%q) = %v, want %v", origin, got, want)
		}
	}
}

// A request addressed to another name (DNS rebinding), or an admin request
// from a foreign web page, is refused before it does anything.
func TestForeignHostAndOriginRefused(t *testing.T) {
	t.Parallel()
	e := New(Options{})
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	send := func(method, path, host, origin string) (int, string) {
		t.Helper()
		req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(`{}`)) //nolint:noctx // a test request
		if err != nil {
			t.Fatal(err)
		}
		if host != "" {
			req.Host = host
		}
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	for _, tc := range []struct {
		name, method, path, host, origin string
		status                           int
		says                             string
	}{
		{"admin reset from a rebound name", http.MethodPost, "/_admin/reset", "evil.example:80", "", 403, "loopback name"},
		{"admin credentials from a foreign page", http.MethodPost, "/_admin/credentials", "", "https://evil.example", 403, "refuses requests from the web origin"},
		{"admin reset from a sandboxed page", http.MethodPost, "/_admin/reset", "", "null", 403, "web origin"},
		{"a service call to a rebound name", http.MethodPost, "/", "evil.example", "", 403, "loopback name"},
		{"admin health from a local page", http.MethodGet, "/_admin/health", "", "http://localhost:3000", 200, `"status":"ok"`},
		{"admin health by name", http.MethodGet, "/_admin/health", "localhost", "", 200, `"status":"ok"`},
	} {
		status, body := send(tc.method, tc.path, tc.host, tc.origin)
		if status != tc.status || !strings.Contains(body, tc.says) {
			t.Errorf("%s: %d %s, want %d saying %q", tc.name, status, body, tc.status, tc.says)
		}
	}
	if n := len(e.Calls()); n != 0 {
		t.Errorf("refused requests reached a service: %d calls logged", n)
	}
}

func TestRequestLogBound(t *testing.T) {
	t.Parallel()
	var l requestLog
	l.max = 100
	for i := range 1000 {
		l.add(Call{Operation: fmt.Sprint(i)})
	}
	calls := l.snapshot()
	if len(calls) > 100 || len(calls) < 90 {
		t.Fatalf("the log holds %d calls, want the latest 90 to 100", len(calls))
	}
	if last := calls[len(calls)-1]; last.Operation != "999" || last.Seq != 1000 {
		t.Errorf("the newest call is %+v, want the 1000th", last)
	}
	if got := l.droppedCalls() + len(calls); got != 1000 {
		t.Errorf("dropped + kept = %d, want 1000", got)
	}
	l.clear()
	if l.droppedCalls() != 0 || len(l.snapshot()) != 0 {
		t.Errorf("clear left %d calls and %d dropped", len(l.snapshot()), l.droppedCalls())
	}
}

// A client that sends its headers and then stalls in its body is cut off
// by the server's read timeout instead of holding the connection.
func TestSlowBodyCutOff(t *testing.T) {
	t.Parallel()
	srv := httptest.NewUnstartedServer(New(Options{}))
	ConfigureServer(srv.Config)
	srv.Config.ReadTimeout = 300 * time.Millisecond // as ReadTimeout, shorter for the test
	srv.Start()
	t.Cleanup(srv.Close)
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /_admin/faults HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")
	start := time.Now()
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	line, err := bufio.NewReader(conn).ReadString('\n')
	took := time.Since(start)
	if took > 5*time.Second {
		t.Fatalf("a stalled body held the connection for %s", took)
	}
	// The server either answers an error for the unfinished body or closes.
	if err == nil && !strings.Contains(line, " 400 ") {
		t.Errorf("answer to a stalled body: %q", line)
	}
	t.Logf("stalled body ended after %s (%q, %v)", took.Round(time.Millisecond), strings.TrimSpace(line), err)
}
