package serve

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/cloudlabs/terraform-provider-cloud/internal/provider"
)

type valueKey struct{}

// TestReleasableContext: a request's context as the framework sees it
// forwards to the request's until the request returns, then is a
// cancelled context with no values.
func TestReleasableContext(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.WithValue(context.Background(), valueKey{}, "v"))
	defer cancel()
	var seen context.Context
	_, err := serve(ctx, "req", func(ctx context.Context, _ string) (string, error) {
		seen = ctx
		if got := ctx.Value(valueKey{}); got != "v" {
			t.Errorf("during the request Value = %v, want v", got)
		}
		if ctx.Err() != nil {
			t.Errorf("during the request Err = %v, want nil", ctx.Err())
		}
		return "", nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := seen.Value(valueKey{}); got != nil {
		t.Errorf("after the request Value = %v, want nil", got)
	}
	if !errors.Is(seen.Err(), context.Canceled) {
		t.Errorf("after the request Err = %v, want context.Canceled", seen.Err())
	}
	select {
	case <-seen.Done():
	default:
		t.Error("after the request Done is not closed")
	}
}

// TestReleasingServer_letsGoOfRequestContexts: the framework's server
// keeps every request's context until StopProvider; wrapped, a request's
// context can be collected once the request returns. Should the first
// case fail, the framework has stopped keeping them and releasingServer
// can go.
func TestReleasingServer_letsGoOfRequestContexts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name          string
		wrap          bool
		wantCollected bool
	}{
		{"the framework's server alone", false, false},
		{"wrapped", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fw, ok := providerserver.NewProtocol6(provider.New("test")())().(frameworkServer)
			if !ok {
				t.Fatal("the framework's server does not implement every RPC interface")
			}
			var s tfprotov6.ProviderServer = fw
			if tc.wrap {
				s = releasingServer{fw}
			}
			collected := validateWithContextValue(s)
			got := false
			for range 20 {
				runtime.GC()
				select {
				case <-collected:
					got = true
				case <-time.After(10 * time.Millisecond):
				}
				if got {
					break
				}
			}
			if got != tc.wantCollected {
				t.Errorf("request context collected = %t, want %t", got, tc.wantCollected)
			}
			runtime.KeepAlive(s)
		})
	}
}

// validateWithContextValue makes one ValidateResourceConfig call with a
// context holding a value, and returns a channel closed once that value
// has been garbage collected.
//
//go:noinline
func validateWithContextValue(s tfprotov6.ProviderServer) <-chan struct{} {
	collected := make(chan struct{})
	v := new([1 << 10]byte)
	runtime.AddCleanup(v, func(ch chan struct{}) { close(ch) }, collected)
	ctx := context.WithValue(context.Background(), valueKey{}, v)
	_, _ = s.ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{TypeName: "cloud_identity_user"})
	return collected
}

// The wrapper serves every optional RPC interface the framework's server
// does (tf6server looks for them with type assertions).
var (
	_ tfprotov6.ProviderServer     = releasingServer{}
	_ tfprotov6.ListResourceServer = releasingServer{}
	_ tfprotov6.ActionServer       = releasingServer{}
	_ tfprotov6.StateStoreServer   = releasingServer{}
)
