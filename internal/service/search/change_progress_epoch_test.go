package search

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
)

func TestEpochString(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		in   *searchclient.EpochSeconds
		want *string
	}{
		{"nil stays nil", nil, nil},
		{"whole seconds", new(searchclient.EpochSeconds(1700000000)), new("2023-11-14T22:13:20Z")},
		{"milliseconds round to the second", new(searchclient.EpochSeconds(1700000000.6)), new("2023-11-14T22:13:21Z")},
		{"epoch", new(searchclient.EpochSeconds(0)), new("1970-01-01T00:00:00Z")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if d := cmp.Diff(tc.want, epochString(tc.in)); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}
