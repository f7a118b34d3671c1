package search

import (
	"maps"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/service/search/shape"
	"github.com/cloudlabs/terraform-provider-cloud/internal/tfvalue"
)

// A section's digest moves with what the service shows of it and with
// nothing else; the master user (kept from the state, never returned) does
// not move it.
func TestSectionDigests(t *testing.T) {
	t.Parallel()
	secs, err := shape.Read(decodeAnswer(t), priorWithMasterUser(t, resourceSchema(t)))
	if err != nil {
		t.Fatal(err)
	}
	before := sectionDigests(secs)
	if len(before) != len(shape.ResourceAttributes()) || !maps.Equal(before, sectionDigests(secs)) {
		t.Fatalf("digests of the same sections differ or are missing: %v", before)
	}

	moved := maps.Clone(secs)
	shape.WithPending(moved, []searchclient.ModifyingProperty{{Name: new("SnapshotOptions.AutomatedSnapshotStartHour"), PendingValue: new("23"), ValueType: new("PLAIN_TEXT")}})
	aso := tfvalue.Attributes(moved["advanced_security_options"])
	mu := tfvalue.Attributes(aso["master_user_options"])
	mu["master_user_password"] = tftypes.NewValue(tftypes.String, "another-password")
	aso["master_user_options"] = tftypes.NewValue(aso["master_user_options"].Type(), mu)
	moved["advanced_security_options"] = tftypes.NewValue(moved["advanced_security_options"].Type(), aso)

	after := sectionDigests(moved)
	for name, d := range before {
		if changed := after[name] != d; changed != (name == "snapshot_options") {
			t.Errorf("%s: digest changed %v", name, changed)
		}
	}
}
