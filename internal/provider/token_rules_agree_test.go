package provider_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/aws/smithy-go"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/emulatortest"
	cloudprovider "github.com/cloudlabs/terraform-provider-cloud/internal/provider"
	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
	"github.com/cloudlabs/terraform-provider-cloud/internal/validators"
)

// TestTokenRulesAgree: the role blocks' session_name (both blocks),
// assume_role's external_id and duration and the web identity's token get the same verdict from the provider block's
// validators and from the emulator's token service, on values derived
// from the shared rules (rules.RoleSessionName, rules.ExternalID,
// rules.WebIdentityToken, rules.RoleSessionSeconds):
// each limit and one past, empty, values not of the form. A refusal
// agrees only when the service's message names the member.
func TestTokenRulesAgree(t *testing.T) {
	t.Parallel()
	srv := emulatortest.New(t)
	e := srv.Emulator
	ctx := context.Background()
	trust := `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"AWS":"arn:cloud:identity::123456789012:user/emulator-admin"},"Action":"sts:AssumeRole"}]}`
	if _, err := e.Identity.PutRole("deploy", []byte(trust), nil, 12*time.Hour); err != nil {
		t.Fatal(err)
	}
	c := sts.New(sts.Options{Region: e.Region(), BaseEndpoint: aws.String(srv.URL), RetryMaxAttempts: 1,
		Credentials: credentials.NewStaticCredentialsProvider(e.AccessKeyID(), e.SecretAccessKey(), "")})
	// refused says whether the token service refuses in for member.
	refused := func(what, member string, in *sts.AssumeRoleInput) bool {
		t.Helper()
		in.RoleArn = aws.String("arn:cloud:identity::123456789012:role/deploy")
		_, err := c.AssumeRole(ctx, in)
		if err == nil {
			return false
		}
		var api smithy.APIError
		if !errors.As(err, &api) || api.ErrorCode() != "ValidationError" || !strings.Contains(api.ErrorMessage(), member) {
			t.Fatalf("%s: the service refuses for another reason than %s: %v", what, member, err)
		}
		return true
	}

	p := cloudprovider.New("test")()
	var presp provider.SchemaResponse
	p.Schema(ctx, provider.SchemaRequest{}, &presp)
	attr := func(block, name string) []validator.String {
		return presp.Schema.Blocks[block].(schema.SingleNestedBlock).Attributes[name].(schema.StringAttribute).Validators
	}
	providerRefuses := func(vs []validator.String, v string) bool {
		var resp validator.StringResponse
		for _, x := range vs {
			x.ValidateString(ctx, validator.StringRequest{Path: path.Root("x"), ConfigValue: types.StringValue(v)}, &resp)
		}
		return resp.Diagnostics.HasError()
	}

	names := []string{"", "a", "ab", strings.Repeat("s", 64), strings.Repeat("s", 65), rules.RoleSessionName.Form.Example,
		"ci+run=1,x.y@z_w-v", "has space", "a/b", "é"}
	for _, block := range []string{"assume_role", "assume_role_with_web_identity"} {
		vs := attr(block, "session_name")
		for _, v := range names {
			if p, s := providerRefuses(vs, v), refused(v, "RoleSessionName", &sts.AssumeRoleInput{RoleSessionName: aws.String(v)}); p != s {
				t.Errorf("%s.session_name = %.20q: provider refuses %v, service refuses %v", block, v, p, s)
			}
		}
	}

	ids := []string{"", "a", "ab", strings.Repeat("x", 1224), strings.Repeat("x", 1225), rules.ExternalID.Form.Example, "a:b/c@d", "has space", "a#b", "é"}
	for _, v := range ids {
		if p, s := providerRefuses(attr("assume_role", "external_id"), v), refused(v, "ExternalId", &sts.AssumeRoleInput{RoleSessionName: aws.String("probe"), ExternalId: aws.String(v)}); p != s {
			t.Errorf("assume_role.external_id = %.20q: provider refuses %v, service refuses %v", v, p, s)
		}
	}

	// A token of the right length is no JWT: the service refuses it as
	// InvalidIdentityToken, after the value rule passed.
	anon := sts.New(sts.Options{Region: e.Region(), BaseEndpoint: aws.String(srv.URL), RetryMaxAttempts: 1, Credentials: aws.AnonymousCredentials{}})
	for _, n := range []int{3, 4, 20000, 20001} {
		v := strings.Repeat("t", n)
		_, err := anon.AssumeRoleWithWebIdentity(ctx, &sts.AssumeRoleWithWebIdentityInput{
			RoleArn: aws.String("arn:cloud:identity::123456789012:role/deploy"), RoleSessionName: aws.String("probe"), WebIdentityToken: aws.String(v)})
		var api smithy.APIError
		if !errors.As(err, &api) {
			t.Fatalf("web_identity_token of %d: want a refusal, got %v", n, err)
		}
		s := api.ErrorCode() == "ValidationError" && strings.Contains(api.ErrorMessage(), "WebIdentityToken")
		if !s && api.ErrorCode() != "InvalidIdentityToken" {
			t.Fatalf("web_identity_token of %d: refused for another reason: %v", n, err)
		}
		// Its other validator, ConflictsWith, needs the whole configuration.
		vs := slices.DeleteFunc(attr("assume_role_with_web_identity", "web_identity_token"), func(x validator.String) bool {
			_, ruled := x.(validators.Ruled)
			return !ruled
		})
		if p := providerRefuses(vs, v); p != s {
			t.Errorf("assume_role_with_web_identity.web_identity_token of %d characters: provider refuses %v, service refuses %v", n, p, s)
		}
	}

	r := *rules.RoleSessionSeconds.Range
	vs := attr("assume_role", "duration")
	for _, secs := range []int64{r.Min - 1, r.Min, 3600, r.Max, r.Max + 1} {
		d := (time.Duration(secs) * time.Second).String()
		if p, s := providerRefuses(vs, d), refused(d, "DurationSeconds", &sts.AssumeRoleInput{RoleSessionName: aws.String("probe"), DurationSeconds: aws.Int32(int32(secs))}); p != s {
			t.Errorf("assume_role.duration = %s: provider refuses %v, service refuses %v", d, p, s)
		}
	}
}
