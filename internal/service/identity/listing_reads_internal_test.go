package identity

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/emulatortest"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
	"github.com/cloudlabs/terraform-provider-cloud/internal/customtypes"
	"github.com/cloudlabs/terraform-provider-cloud/internal/tfmodel"
)

// Within one provider instance, a key's refresh after this instance
// changed or deleted it reads the service again: a refresh after a write
// never gets the answer kept from before it. Refreshes with no write
// between share one listing.
func TestKeyReadAfterWriteIsFresh(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	emu := emulatortest.New(t)
	idc, err := identityclient.New(emu.ClientConfig(), emu.URL)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := idc.CreateUser(ctx, identityclient.CreateUserInput{UserName: "kim"}); err != nil {
		t.Fatal(err)
	}
	id, value, err := emu.Identity.CreateCredentialBehindTheBack("kim", DefaultServiceName, 30, emu.Region())
	if err != nil {
		t.Fatal(err)
	}
	r := &serviceSpecificCredentialResource{clients: &conns.Clients{Region: emu.Region(), Identity: idc, Listings: conns.NewListings(idc)}}
	empty := emptyState(t, r)
	key := serviceSpecificCredentialModel{
		ID: types.StringValue("kim/" + id), UserName: types.StringValue("kim"), ServiceName: types.StringValue(DefaultServiceName),
		CredentialAgeDays: customtypes.NewInt64Value(30), Status: types.StringValue(identityclient.StatusActive), ResetTriggers: types.MapNull(types.StringType),
		RenewBeforeDays: customtypes.NewInt64Null(), ServiceSpecificCredentialID: types.StringValue(id), ServiceAPIKeyValue: types.StringValue(value),
		CreateDate: types.StringNull(), ExpirationDate: types.StringNull(), Region: types.StringValue(emu.Region()), Held: types.BoolValue(true),
	}
	stateOf := func(m serviceSpecificCredentialModel) tfsdk.State {
		st := empty
		if diags := tfmodel.Set(ctx, &st, &m); diags.HasError() {
			t.Fatal(diags)
		}
		return st
	}
	// read refreshes key and returns what the refresh stored, nil when it
	// removed the key.
	read := func() *serviceSpecificCredentialModel {
		t.Helper()
		resp := resource.ReadResponse{State: stateOf(key)}
		r.Read(ctx, resource.ReadRequest{State: stateOf(key)}, &resp)
		if resp.Diagnostics.HasError() {
			t.Fatal(resp.Diagnostics)
		}
		if resp.State.Raw.IsNull() {
			return nil
		}
		var got serviceSpecificCredentialModel
		if diags := tfmodel.Get(ctx, resp.State, &got); diags.HasError() {
			t.Fatal(diags)
		}
		return &got
	}

	read()
	if got := read(); got == nil || got.Status.ValueString() != identityclient.StatusActive {
		t.Fatalf("refreshed key: %s, want it Active", describeKey(got))
	}
	emu.ExpectCalls(t, "ListServiceSpecificCredentials", 1, "two refreshes of a key with no write between")

	planned := key
	planned.Status = types.StringValue(identityclient.StatusInactive)
	update := resource.UpdateResponse{State: empty}
	r.Update(ctx, resource.UpdateRequest{Plan: tfsdk.Plan(stateOf(planned)), State: stateOf(key)}, &update)
	if update.Diagnostics.HasError() {
		t.Fatal(update.Diagnostics)
	}
	if got := read(); got == nil || got.Status.ValueString() != identityclient.StatusInactive {
		t.Errorf("the refresh after this instance deactivated the key: %s, want it Inactive", describeKey(got))
	}

	var deleted resource.DeleteResponse
	r.Delete(ctx, resource.DeleteRequest{State: stateOf(key)}, &deleted)
	if deleted.Diagnostics.HasError() {
		t.Fatal(deleted.Diagnostics)
	}
	if got := read(); got != nil {
		t.Errorf("the refresh after this instance deleted the key kept it: %s", describeKey(got))
	}
	emu.ExpectCalls(t, "ListServiceSpecificCredentials", 3, "a refresh before the writes, and one after each")
}

// describeKey names a refreshed key's id and status (nil: removed),
// never its value.
func describeKey(m *serviceSpecificCredentialModel) string {
	if m == nil {
		return "removed"
	}
	return m.ServiceSpecificCredentialID.ValueString() + " " + m.Status.ValueString()
}
