package emulator_test

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/emulatortest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
)

// A role allowed reads, the simulation of one principal and dry runs only
// (search:DryRun = "true"): its reads and dry runs pass, a real
// UpdateDomainConfig, a simulation of another principal and a CreateUser
// with tags (a TagUser too) are refused naming the action, and the
// request log records the action each call was authorized for.
func TestRoleAuthorizationOfSearchAndIdentity(t *testing.T) {
	t.Parallel()
	srv := emulatortest.New(t)
	e := srv.Emulator
	ctx := context.Background()
	const role = "arn:cloud:identity::123456789012:role/plan"
	if _, err := e.Identity.AttachPrincipalPolicy(role, "plan", []byte(`{"Version":"2012-10-17","Statement":[
  {"Effect":"Allow","Action":["identity:Get*","search:Describe*","identity:CreateUser"],"Resource":"*"},
  {"Effect":"Allow","Action":"identity:SimulatePrincipalPolicy","Resource":"arn:cloud:identity::123456789012:role/apply"},
  {"Effect":"Allow","Action":"search:UpdateDomainConfig","Resource":"*","Condition":{"Bool":{"search:DryRun":"true"}}}]}`)); err != nil {
		t.Fatal(err)
	}
	// The apply role exists (a simulation of a role that does not is
	// NoSuchEntity): it has a policy of its own.
	if _, err := e.Identity.AttachPrincipalPolicy("arn:cloud:identity::123456789012:role/apply", "apply", []byte(`{"Version":"2012-10-17","Statement":[
  {"Effect":"Allow","Action":"identity:*","Resource":"*"}]}`)); err != nil {
		t.Fatal(err)
	}
	if st, b := admin(t, http.MethodPost, srv.URL+"/_admin/credentials",
		`{"access_key_id":"AKIAPLANROLE0000001","secret_access_key":"plan-secret","principal":"`+role+`"}`); st != http.StatusCreated {
		t.Fatalf("adding the role's key: %d %s", st, b)
	}
	cfg := client.Config{Region: emulator.DefaultRegion, Credentials: client.Credentials{AccessKeyID: "AKIAPLANROLE0000001", SecretAccessKey: "plan-secret"}, MaxRetries: -1}
	sc, err := searchclient.New(cfg, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	idc, err := identityclient.New(cfg, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	change := func(dry bool) error {
		_, err := sc.UpdateDomainConfig(ctx, &searchclient.UpdateDomainConfigInput{DomainName: "demo", DryRun: &dry,
			Sections: map[string]any{"SnapshotOptions": map[string]any{"AutomatedSnapshotStartHour": 4}}})
		return err
	}
	simulate := func(principal string) error {
		_, err := idc.SimulatePrincipalPolicy(ctx, identityclient.SimulatePrincipalPolicyInput{PolicySourceArn: principal, ActionNames: []string{"identity:CreateUser"}})
		return err
	}
	if _, err := sc.DescribeDomainConfig(ctx, "demo"); err != nil {
		t.Errorf("a read: %v", err)
	}
	if err := change(true); err != nil {
		t.Errorf("a dry run: %v", err)
	}
	if err := simulate("arn:cloud:identity::123456789012:role/apply"); err != nil {
		t.Errorf("simulating the apply role: %v", err)
	}
	refused := []struct {
		name, action string
		err          error
	}{
		{"a real change", "search:UpdateDomainConfig on resource: arn:cloud:search:" + emulator.DefaultRegion + ":123456789012:domain/demo", change(false)},
		{"simulating another principal", "identity:SimulatePrincipalPolicy on resource: arn:cloud:identity::123456789012:role/admin", simulate("arn:cloud:identity::123456789012:role/admin")},
		{"a CreateUser with tags", "identity:TagUser", func() error {
			_, err := idc.CreateUser(ctx, identityclient.CreateUserInput{UserName: "tagged", Tags: []identityclient.Tag{{Key: "k", Value: "v"}}})
			return err
		}()},
	}
	for _, r := range refused {
		if !errors.Is(r.err, client.ErrAccessDenied) || !strings.Contains(r.err.Error(), "not authorized to perform: "+r.action) {
			t.Errorf("%s: %v, want AccessDenied naming %s", r.name, r.err, r.action)
		}
	}
	var logged []string
	for _, c := range e.Calls() {
		logged = append(logged, c.Operation+"="+strings.Join(c.Actions, "+"))
	}
	want := []string{"DescribeDomainConfig=search:DescribeDomainConfig", "UpdateDomainConfig=search:UpdateDomainConfig", "SimulatePrincipalPolicy=identity:SimulatePrincipalPolicy",
		"UpdateDomainConfig=search:UpdateDomainConfig", "SimulatePrincipalPolicy=identity:SimulatePrincipalPolicy", "CreateUser=identity:CreateUser+identity:TagUser"}
	if !slices.Equal(logged, want) {
		t.Errorf("logged %v, want %v", logged, want)
	}
}
