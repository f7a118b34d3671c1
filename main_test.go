package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/cloudlabs/terraform-provider-cloud/internal/provider"
)

func TestQuietLogs(t *testing.T) {
	t.Parallel()
	quiet := []string{"TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK", "TF_LOG_PROVIDER_CLOUD"}
	for _, tc := range []struct {
		name    string
		environ []string
		want    []string
	}{
		{"nothing asked", []string{"HOME=/root", "TF_IN_AUTOMATION=1", "TF_LOG_PATH=/tmp/tf.log", "TF_LOG_CORE=TRACE"}, quiet},
		{"empty values ask for nothing", []string{"TF_LOG=", "TF_LOG_PROVIDER="}, quiet},
		{"OFF asks for nothing", []string{"TF_LOG=off", "TF_LOG_PROVIDER_CLOUD_HTTP=OFF"}, quiet},
		{"TF_LOG", []string{"TF_LOG=trace"}, nil},
		{"TF_LOG=JSON", []string{"TF_LOG=JSON"}, nil},
		{"TF_LOG_PROVIDER", []string{"TF_LOG_PROVIDER=DEBUG"}, nil},
		{"our provider", []string{"TF_LOG_PROVIDER_CLOUD=INFO"}, nil},
		{"our http subsystem", []string{"TF_LOG_PROVIDER_CLOUD_HTTP=TRACE"}, nil},
		{"SDK", []string{"TF_LOG_SDK=TRACE"}, nil},
		{"SDK protocol", []string{"TF_LOG_SDK_PROTO=TRACE"}, nil},
		{"framework", []string{"TF_LOG_SDK_FRAMEWORK=TRACE"}, nil},
		{"acceptance test log", []string{"TF_ACC_LOG_PATH=/tmp/acc.log"}, nil},
		{"Terraform's temporary log", []string{"TF_TEMP_LOG_PATH=/tmp/tmp.log"}, nil},
		{"another provider's level asks nothing of ours", []string{"TF_LOG_PROVIDER_AWS=TRACE"}, quiet},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tc.want, quietLogs(tc.environ)); diff != "" {
				t.Errorf("quietLogs(%q) (-want +got):\n%s", tc.environ, diff)
			}
		})
	}
}

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

// The provider ends once the process that started it is gone: a child of
// a shell that exits at once must not outlive it by more than a few polls.
func TestExitWithParent(t *testing.T) {
	if os.Getenv("EXIT_WITH_PARENT_CHILD") == "1" {
		exitWithParent(50*time.Millisecond, func() { os.Exit(3) })
		time.Sleep(30 * time.Second)
		os.Exit(0)
	}
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	sh := exec.CommandContext(ctx, "sh", "-c", os.Args[0]+" -test.run='^TestExitWithParent$' >/dev/null 2>&1 & echo $!; sleep 1")
	sh.Env = append(os.Environ(), "EXIT_WITH_PARENT_CHILD=1")
	out, err := sh.Output()
	if err != nil {
		t.Fatal(err)
	}
	pid := strings.TrimSpace(string(out))
	start := time.Now()
	for {
		stat, err := os.ReadFile("/proc/" + pid + "/stat")
		// Gone, or a zombie its new parent has not reaped.
		if err != nil || strings.Contains(string(stat), ") Z ") {
			break
		}
		if time.Since(start) > 10*time.Second {
			t.Fatalf("the child %s outlived its parent by %s", pid, time.Since(start))
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("the child ended %s after its parent", time.Since(start).Round(time.Millisecond))
}

// TestTuneGC checks that the provider collects garbage less often than Go's
// default, unless GOGC says otherwise.
func TestTuneGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	for _, tc := range []struct {
		gogc string
		want int
	}{{"", gcPercent}, {"50", 50}} {
		t.Setenv("GOGC", tc.gogc)
		debug.SetGCPercent(50)
		tuneGC()
		if got := debug.SetGCPercent(100); got != tc.want {
			t.Errorf("GOGC=%q: the collector's target is %d, want %d", tc.gogc, got, tc.want)
		}
	}
}
