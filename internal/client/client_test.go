package client_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
)

func newClient(t *testing.T, url string) *client.Client {
	t.Helper()
	c, err := client.New(client.Config{
		Region:         "us-east-1",
		Credentials:    client.Credentials{AccessKeyID: "AKIDTESTTESTTEST01", SecretAccessKey: "secret"},
		MaxRetries:     2,
		RetryBaseDelay: time.Millisecond,
		RetryMaxDelay:  2 * time.Millisecond,
		AttemptTimeout: 500 * time.Millisecond,
	}, "identity", url)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// hangUp closes the connection without an answer.
func hangUp(w http.ResponseWriter) {
	conn, _, _ := w.(http.Hijacker).Hijack()
	_ = conn.Close()
}

func TestDoRetries(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name       string
		idempotent bool
		// answers are played in order, one per attempt; the last repeats.
		answers      []func(http.ResponseWriter)
		wantAttempts int32
		wantStatus   int
		wantErr      error
	}{
		{
			name: "5xx then success", answers: []func(http.ResponseWriter){
				func(w http.ResponseWriter) { w.WriteHeader(503) },
				func(w http.ResponseWriter) { w.WriteHeader(200) },
			},
			wantAttempts: 2, wantStatus: 200,
		},
		{
			name: "query throttling is retried", answers: []func(http.ResponseWriter){
				func(w http.ResponseWriter) {
					w.WriteHeader(400)
					_, _ = w.Write([]byte("<ErrorResponse><Error><Code>Throttling</Code></Error></ErrorResponse>"))
				},
				func(w http.ResponseWriter) { w.WriteHeader(200) },
			},
			wantAttempts: 2, wantStatus: 200,
		},
		{
			name: "429 is retried", answers: []func(http.ResponseWriter){
				func(w http.ResponseWriter) { w.WriteHeader(429) },
				func(w http.ResponseWriter) { w.WriteHeader(200) },
			},
			wantAttempts: 2, wantStatus: 200,
		},
		{
			name: "client error is not retried", answers: []func(http.ResponseWriter){
				func(w http.ResponseWriter) { w.WriteHeader(404) },
			},
			wantAttempts: 1, wantStatus: 404,
		},
		{
			name: "retries run out: the last answer is returned", answers: []func(http.ResponseWriter){
				func(w http.ResponseWriter) { w.WriteHeader(500) },
			},
			wantAttempts: 3, wantStatus: 500,
		},
		{
			name: "lost answer of an idempotent call is retried", idempotent: true, answers: []func(http.ResponseWriter){
				hangUp,
				func(w http.ResponseWriter) { w.WriteHeader(200) },
			},
			wantAttempts: 2, wantStatus: 200,
		},
		{
			name: "lost answer of a non-idempotent call is never repeated", answers: []func(http.ResponseWriter){
				hangUp,
				func(w http.ResponseWriter) { w.WriteHeader(200) },
			},
			wantAttempts: 1, wantErr: client.ErrOutcomeUnknown,
		},
		{
			name: "slow answer of a non-idempotent call is never repeated", answers: []func(http.ResponseWriter){
				func(w http.ResponseWriter) { time.Sleep(time.Second); w.WriteHeader(200) },
			},
			wantAttempts: 1, wantErr: client.ErrOutcomeUnknown,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var attempts atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				n := int(attempts.Add(1)) - 1
				if !strings.HasPrefix(r.Header.Get("Authorization"), "AWS4-HMAC-SHA256 Credential=AKIDTESTTESTTEST01/") {
					t.Errorf("request %d is not SigV4-signed: %q", n, r.Header.Get("Authorization"))
				}
				tc.answers[min(n, len(tc.answers)-1)](w)
			}))
			defer srv.Close()
			resp, err := newClient(t, srv.URL).Do(context.Background(), &client.Request{
				Operation: "Test", Method: http.MethodPost, Path: "/", Body: []byte("Action=Test"), Idempotent: tc.idempotent,
			})
			if got := attempts.Load(); got != tc.wantAttempts {
				t.Errorf("attempts = %d, want %d", got, tc.wantAttempts)
			}
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("error = %v, want %v", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if resp.StatusCode != tc.wantStatus {
				t.Errorf("status = %d, want %d", resp.StatusCode, tc.wantStatus)
			}
		})
	}
}

// A request that never left (nothing listens) is retried even when it is
// not idempotent, and ends in an ordinary error.
func TestDoConnectionRefusedIsRetried(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	_, err := newClient(t, url).Do(context.Background(), &client.Request{Operation: "CreateUser", Method: http.MethodPost, Path: "/"})
	if err == nil || errors.Is(err, client.ErrOutcomeUnknown) || !strings.Contains(err.Error(), "giving up after 3 attempts") {
		t.Fatalf("error = %v, want a plain error after 3 attempts", err)
	}
}

func TestRedact(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		`<ServiceApiKeyValue>CLOUDKabc+/=</ServiceApiKeyValue>`:                           `<ServiceApiKeyValue>***</ServiceApiKeyValue>`,
		`{"MasterUserPassword": "hunter2", "x": 1}`:                                       `{"MasterUserPassword":"***", "x": 1}`,
		`{"MasterUserPassword":"a\"b"}`:                                                   `{"MasterUserPassword":"***"}`,
		`Action=X&MasterUserPassword=hunter2&Y=1`:                                         `Action=X&MasterUserPassword=***&Y=1`,
		`Authorization: Bearer abc.def`:                                                   `Authorization: Bearer ***`,
		`token models-api-key-QUJDRA== here`:                                              `token models-api-key-*** here`,
		`?X-Amz-Signature=abcd&X-Amz-Credential=AKID%2F`:                                  `?X-Amz-Signature=***&X-Amz-Credential=***`,
		`{"UserName":"alice"}`:                                                            `{"UserName":"alice"}`,
		`Action=AssumeRoleWithWebIdentity&WebIdentityToken=abc.def.ghi&RoleArn=x`:         `Action=AssumeRoleWithWebIdentity&WebIdentityToken=***&RoleArn=x`,
		`unable to read file at eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJjaSJ9.c2ln: no such file`: `unable to read file at ***: no such file`,
	}
	for in, want := range cases {
		if got := client.Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestConnectionsReused: bursts of as many concurrent requests as
// Terraform's -parallelism=50 reuse the connections of the first burst.
func TestConnectionsReused(t *testing.T) {
	t.Parallel()
	const concurrent, bursts = 50, 3
	var opened atomic.Int32
	arrived := make(chan struct{}, concurrent)
	release := make(chan struct{})
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		arrived <- struct{}{}
		<-release // the whole burst is in flight at once, each on its own connection
		w.WriteHeader(http.StatusOK)
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			opened.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	c, err := client.New(client.Config{
		Region:      "us-east-1",
		Credentials: client.Credentials{AccessKeyID: "AKIDTESTTESTTEST01", SecretAccessKey: "secret"},
	}, "identity", srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	for range bursts {
		errs := make(chan error, concurrent)
		for range concurrent {
			go func() {
				_, err := c.Do(context.Background(), &client.Request{Operation: "GetUser", Method: http.MethodPost, Path: "/", Idempotent: true})
				errs <- err
			}()
		}
		for range concurrent {
			<-arrived
		}
		for range concurrent {
			release <- struct{}{}
		}
		for range concurrent {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}
	}
	if n := opened.Load(); n > concurrent {
		t.Errorf("%d bursts of %d concurrent requests opened %d connections, want at most %d", bursts, concurrent, n, concurrent)
	}
}
