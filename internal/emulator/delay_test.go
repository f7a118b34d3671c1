package emulator_test

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
)

// identityClient is the provider's identity client aimed at base.
func identityClient(t *testing.T, e *emulator.Emulator, base string) *identityclient.Client {
	t.Helper()
	c, err := identityclient.New(client.Config{
		Region:      e.Region(),
		Credentials: client.Credentials{AccessKeyID: e.AccessKeyID(), SecretAccessKey: e.SecretAccessKey()},
		MaxRetries:  -1,
	}, base)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// A delay fault longer than the server's read timeout still answers: the
// read deadline covers the request, not the time the answer is held.
func TestDelayOutlastsReadTimeout(t *testing.T) {
	t.Parallel()
	e := emulator.New(emulator.Options{})
	srv := httptest.NewUnstartedServer(e)
	emulator.ConfigureServer(srv.Config)
	srv.Config.ReadTimeout = 200 * time.Millisecond
	srv.Start()
	t.Cleanup(srv.Close)
	if err := e.InjectFault(emulator.Fault{Operation: "CreateUser", Kind: emulator.FaultDelay, Delay: 600 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := identityClient(t, e, srv.URL).CreateUser(context.Background(), identityclient.CreateUserInput{UserName: "patient"}); err != nil {
		t.Fatalf("a delayed answer past the read timeout: %v", err)
	}
	if d := time.Since(start); d < 600*time.Millisecond {
		t.Errorf("answered after %s, before the delay", d)
	}
}
