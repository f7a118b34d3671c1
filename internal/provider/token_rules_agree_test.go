package provider_test

import (
	"context"
	"errors"
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
)

// TestTokenRulesAgree: the role blocks' session_name (both blocks) and
// assume_role's duration get the same verdict from the provider block's
// validators and from the emulator's token service, on values derived
// from the shared rules (rules.RoleSessionName, rules.RoleSessionSeconds):
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
			// An empty name is no name: the provider sends its default.
			if v == "" {
				continue
			}
			if p, s := providerRefuses(vs, v), refused(v, "RoleSessionName", &sts.AssumeRoleInput{RoleSessionName: aws.String(v)}); p != s {
				t.Errorf("%s.session_name = %.20q: provider refuses %v, service refuses %v", block, v, p, s)
			}
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
