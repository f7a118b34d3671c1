package models

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	modelsclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/models"
	"github.com/cloudlabs/terraform-provider-cloud/internal/conns"
)

// A key is signed with the credentials of the moment it is opened, not
// those Configure saw: with a role session renewed since, it carries the new
// session's key id and ends with the new session, not with what was left of
// the first one.
func TestShortTermKeyUsesCurrentCredentials(t *testing.T) {
	t.Parallel()
	now := time.Now().UTC().Truncate(time.Second)
	configured := client.Credentials{AccessKeyID: "ASIAFIRSTSESSION0001", SecretAccessKey: "s1", SessionToken: "t1", Expires: now.Add(10 * time.Minute)}
	renewedEnd := now.Add(time.Hour)
	renewed := aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
		return aws.Credentials{AccessKeyID: "ASIARENEWEDSESSION01", SecretAccessKey: "s2", SessionToken: "t2", CanExpire: true, Expires: renewedEnd}, nil
	})
	e := &shortTermAPIKeyEphemeralResource{clients: &conns.Clients{
		Region: "us-east-1",
		Config: client.Config{Region: "us-east-1", Credentials: configured, CredentialsProvider: renewed},
		Tokens: modelsclient.NewTokenCache(modelsclient.MaxCachedTokens),
	}}
	ctx := context.Background()
	var sr ephemeral.SchemaResponse
	e.Schema(ctx, ephemeral.SchemaRequest{}, &sr)
	typ := sr.Schema.Type().TerraformType(ctx)
	cfg := tftypes.NewValue(typ, map[string]tftypes.Value{
		"region": tftypes.NewValue(tftypes.String, nil), "expires_in": tftypes.NewValue(tftypes.String, "12h"),
		"token": tftypes.NewValue(tftypes.String, nil), "expires_at": tftypes.NewValue(tftypes.String, nil),
	})
	resp := &ephemeral.OpenResponse{Result: tfsdk.EphemeralResultData{Schema: sr.Schema, Raw: tftypes.NewValue(typ, nil)}}
	e.Open(ctx, ephemeral.OpenRequest{Config: tfsdk.Config{Schema: sr.Schema, Raw: cfg}}, resp)
	if resp.Diagnostics.HasError() {
		t.Fatalf("Open: %v", resp.Diagnostics)
	}
	var m shortTermAPIKeyModel
	resp.Diagnostics.Append(resp.Result.Get(ctx, &m)...)
	u, err := modelsclient.DecodeToken(m.Token.ValueString())
	if err != nil {
		t.Fatal(err)
	}
	if c := u.Query().Get("X-Amz-Credential"); !strings.HasPrefix(c, "ASIARENEWEDSESSION01/") {
		t.Errorf("the key is signed by %s, want the renewed session ASIARENEWEDSESSION01", c)
	}
	exp, err := time.Parse(time.RFC3339, m.ExpiresAt.ValueString())
	if err != nil {
		t.Fatal(err)
	}
	if exp.After(renewedEnd) || exp.Before(renewedEnd.Add(-time.Minute)) {
		t.Errorf("expires_at %s, want the renewed session's end %s (the first session ends %s)", exp, renewedEnd, configured.Expires)
	}
}
