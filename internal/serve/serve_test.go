package serve

import (
	"testing"

	"github.com/google/go-cmp/cmp"
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
