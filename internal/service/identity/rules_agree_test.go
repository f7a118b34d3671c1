package identity

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/emulatortest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
)

// identityInput is one value the provider sends to the identity service:
// the attribute that holds it (of a resource, or of a list resource's
// configuration) and the request that carries it.
type identityInput struct {
	res    resource.Resource
	list   list.ListResource
	attr   string
	values []string // derived from the rule
	ints   []int64  // for a whole number
	// form is the request carrying v (a user of that name exists, with a
	// key whose id is key).
	form func(v, key string) url.Values
}

// TestIdentityRulesAgree: every identity input the provider sends (user
// names, path, policy ARN, service name, credential age, key status, and
// the list resources' user name, service name and path prefix) gets the
// same verdict from the attribute's validators and from the emulator, on
// values derived from the shared rules (rules.UserName, rules.UserPath,
// rules.UserPathPrefix, rules.PolicyARN, rules.CredentialAgeDays) or the
// enumeration: each limit and one past, empty, a value of the form and
// values not of it, another case, 2^53+1. Every disagreement is printed.
// The resources' schemas and the list resources' configuration schemas
// drive it: an attribute with validators and no probe fails it
// (everyRuleProbed).
func TestIdentityRulesAgree(t *testing.T) {
	t.Parallel()
	srv := emulatortest.New(t)
	emu := srv.Emulator
	ctx := context.Background()
	raw, err := client.New(client.Config{Region: emu.Region(), Credentials: client.Credentials{AccessKeyID: emu.AccessKeyID(), SecretAccessKey: emu.SecretAccessKey()}, MaxRetries: -1}, "identity", srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	send := func(form url.Values) (int, string) {
		form.Set("Version", "2010-05-08")
		resp, err := raw.Do(ctx, &client.Request{Operation: form.Get("Action"), Method: http.MethodPost, Path: "/",
			Header: http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}, Body: []byte(form.Encode())})
		if err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode, string(resp.Body)
	}
	// fresh is a new user with one key: each probe has its own.
	fresh := func() (user, key string) {
		n++
		user = fmt.Sprintf("probe%d", n)
		if s, b := send(url.Values{"Action": {"CreateUser"}, "UserName": {user}}); s != http.StatusOK {
			t.Fatalf("CreateUser: %d %s", s, b)
		}
		id, _, err := emu.Identity.CreateCredentialBehindTheBack(user, DefaultServiceName, 30, emu.Region())
		if err != nil {
			t.Fatal(err)
		}
		return user, id
	}
	str := func(r rules.Value) []string {
		out := []string{"", "has space", "http://x", strings.ToUpper(r.Form.Example)}
		out = append(out, r.Form.Example)
		if l := r.Length; l != nil {
			// k characters of the form: the example's first and last
			// with letters between.
			ex := r.Form.Example
			for _, k := range []int64{l.Min, l.Max, l.Max + 1} {
				if k < 2 {
					out = append(out, ex[:k])
					continue
				}
				out = append(out, ex[:1]+strings.Repeat("m", int(k)-2)+ex[len(ex)-1:])
			}
		}
		return out
	}
	age := *rules.CredentialAgeDays.Range
	inputs := []identityInput{
		{res: NewUserResource(), attr: "user_name", values: append(str(rules.UserName), "a/b", "é"),
			form: func(v, _ string) url.Values { return url.Values{"Action": {"CreateUser"}, "UserName": {v}} }},
		{res: NewUserResource(), attr: "path", values: append(str(rules.UserPath), "/", "//", "/a b/", "team/"),
			form: func(v, _ string) url.Values {
				n++
				return url.Values{"Action": {"CreateUser"}, "UserName": {fmt.Sprintf("path%d", n)}, "Path": {v}}
			}},
		{res: NewUserPolicyAttachmentResource(), attr: "policy_arn", values: append(str(rules.PolicyARN), "arn:cloud:identity::1234:policy/x"),
			form: func(v, _ string) url.Values {
				user, _ := fresh()
				return url.Values{"Action": {"AttachUserPolicy"}, "UserName": {user}, "PolicyArn": {v}}
			}},
		{res: NewServiceSpecificCredentialResource(), attr: "service_name", values: []string{DefaultServiceName, "", "mo", "other.cloud.example", strings.ToUpper(DefaultServiceName)},
			form: func(v, _ string) url.Values {
				user, _ := fresh()
				return url.Values{"Action": {"CreateServiceSpecificCredential"}, "UserName": {user}, "ServiceName": {v}, "CredentialAgeDays": {"30"}}
			}},
		{res: NewServiceSpecificCredentialResource(), attr: "credential_age_days", ints: []int64{age.Min - 1, age.Min, age.Max, age.Max + 1, 1<<53 + 1, -1},
			form: func(v, _ string) url.Values {
				n++
				user := fmt.Sprintf("age%d", n)
				send(url.Values{"Action": {"CreateUser"}, "UserName": {user}})
				return url.Values{"Action": {"CreateServiceSpecificCredential"}, "UserName": {user}, "ServiceName": {DefaultServiceName}, "CredentialAgeDays": {v}}
			}},
		{res: NewServiceSpecificCredentialResource(), attr: "user_name", values: append(str(rules.UserName), "a/b"),
			form: func(v, _ string) url.Values {
				send(url.Values{"Action": {"CreateUser"}, "UserName": {v}}) // so that a valid name exists
				return url.Values{"Action": {"CreateServiceSpecificCredential"}, "UserName": {v}, "ServiceName": {DefaultServiceName}, "CredentialAgeDays": {"30"}}
			}},
		{res: NewUserPolicyAttachmentResource(), attr: "user_name", values: append(str(rules.UserName), "a/b"),
			form: func(v, _ string) url.Values {
				send(url.Values{"Action": {"CreateUser"}, "UserName": {v}}) // so that a valid name exists
				return url.Values{"Action": {"AttachUserPolicy"}, "UserName": {v}, "PolicyArn": {rules.PolicyARN.Form.Example}}
			}},
		{res: NewServiceSpecificCredentialResource(), attr: "status", values: []string{"Active", "Inactive", "", "Disabled", "active"},
			form: func(v, _ string) url.Values {
				user, key := fresh()
				return url.Values{"Action": {"UpdateServiceSpecificCredential"}, "UserName": {user}, "ServiceSpecificCredentialId": {key}, "Status": {v}}
			}},
		{list: NewUserList(), attr: "path_prefix", values: append(str(rules.UserPathPrefix), "/", "apps/", "/a b/", "/é/"),
			form: func(v, _ string) url.Values { return url.Values{"Action": {"ListUsers"}, "PathPrefix": {v}} }},
		{list: NewUserPolicyAttachmentList(), attr: "user_name", values: append(str(rules.UserName), "a/b"),
			form: func(v, _ string) url.Values {
				send(url.Values{"Action": {"CreateUser"}, "UserName": {v}}) // so that a valid name exists
				return url.Values{"Action": {"ListAttachedUserPolicies"}, "UserName": {v}}
			}},
		{list: NewServiceSpecificCredentialList(), attr: "user_name", values: append(str(rules.UserName), "a/b"),
			form: func(v, _ string) url.Values {
				send(url.Values{"Action": {"CreateUser"}, "UserName": {v}}) // so that a valid name exists
				return url.Values{"Action": {"ListServiceSpecificCredentials"}, "UserName": {v}}
			}},
		// An empty service_name is none: the client sends no ServiceName.
		{list: NewServiceSpecificCredentialList(), attr: "service_name", values: []string{DefaultServiceName, "mo", "other.cloud.example", strings.ToUpper(DefaultServiceName)},
			form: func(v, _ string) url.Values {
				user, _ := fresh()
				return url.Values{"Action": {"ListServiceSpecificCredentials"}, "UserName": {user}, "ServiceName": {v}}
			}},
	}
	everyRuleProbed(t, inputs)
	disagree := 0
	for _, in := range inputs {
		a := in.attribute()
		check := func(v string, providerRefuses bool) {
			status, body := send(in.form(v, ""))
			// A name taken already (409) passed the value's checks.
			if status != http.StatusOK && status != http.StatusBadRequest && !strings.Contains(body, "EntityAlreadyExists") {
				t.Fatalf("%s = %.40q: HTTP %d %s", in.attr, v, status, body)
			}
			if emulatorRefuses := status == http.StatusBadRequest; emulatorRefuses != providerRefuses {
				disagree++
				t.Errorf("%s = %.40q (%d characters): provider refuses %v, emulator refuses %v (HTTP %d %s)", in.attr, v, len([]rune(v)), providerRefuses, emulatorRefuses, status, body)
			} else if emulatorRefuses && !strings.Contains(body, wireName[in.attr]) {
				// A refusal for another reason is no agreement.
				disagree++
				t.Errorf("%s = %.40q: both refuse, but the emulator's answer names no %s: %s", in.attr, v, wireName[in.attr], body)
			}
		}
		for _, v := range in.values {
			var resp validator.StringResponse
			for _, x := range stringValidators(a) {
				x.ValidateString(ctx, validator.StringRequest{Path: path.Root(in.attr), ConfigValue: types.StringValue(v)}, &resp)
			}
			check(v, resp.Diagnostics.HasError())
		}
		for _, v := range in.ints {
			var resp validator.Int64Response
			for _, x := range a.(schema.Int64Attribute).Validators {
				x.ValidateInt64(ctx, validator.Int64Request{Path: path.Root(in.attr), ConfigValue: types.Int64Value(v)}, &resp)
			}
			check(fmt.Sprint(v), resp.Diagnostics.HasError())
		}
	}
	if disagree > 0 {
		t.Logf("%d disagreements", disagree)
	}
}

// attribute is the probed attribute of the resource's schema or of the
// list resource's configuration schema.
func (in identityInput) attribute() any {
	ctx := context.Background()
	if in.list != nil {
		var lresp list.ListResourceSchemaResponse
		in.list.ListResourceConfigSchema(ctx, list.ListResourceSchemaRequest{}, &lresp)
		return lresp.Schema.Attributes[in.attr]
	}
	var sresp resource.SchemaResponse
	in.res.Schema(ctx, resource.SchemaRequest{}, &sresp)
	return sresp.Schema.Attributes[in.attr]
}

// key names the probed attribute: "cloud_identity_user.path", or with
// "list " before it for a list resource's.
func (in identityInput) key() string {
	if in.list != nil {
		return "list " + listTypeName(in.list) + "." + in.attr
	}
	return typeName(in.res) + "." + in.attr
}

// stringValidators are a string attribute's validators, of a resource or
// a list resource.
func stringValidators(a any) []validator.String {
	switch a := a.(type) {
	case schema.StringAttribute:
		return a.Validators
	case listschema.StringAttribute:
		return a.Validators
	}
	panic(fmt.Sprintf("not a string attribute: %T", a))
}

// wireName is the request parameter of each probed attribute.
var wireName = map[string]string{
	"user_name": "UserName", "path": "Path", "policy_arn": "PolicyArn", "service_name": "ServiceName",
	"credential_age_days": "CredentialAgeDays", "status": "Status", "path_prefix": "PathPrefix",
}

// notSent are the attributes with validators whose value no request
// carries, with why.
var notSent = map[string]string{
	"cloud_identity_service_specific_credential.renew_before_days": "the provider's own renewal margin, checked against credential_age_days, never sent",
	"list cloud_identity_service_specific_credential.status":       "the provider keeps the listed keys in this status, never sent",
}

// everyRuleProbed fails for an attribute of the identity resources or of
// their list resources' configurations that has validators (a rule) and
// neither a probe among inputs nor a reason in notSent: a new rule cannot
// go unchecked against the emulator.
func everyRuleProbed(t *testing.T, inputs []identityInput) {
	t.Helper()
	ctx := context.Background()
	probed := map[string]bool{}
	for _, in := range inputs {
		probed[in.key()] = true
	}
	attrs := map[string]any{}
	for _, r := range []resource.Resource{NewUserResource(), NewUserPolicyAttachmentResource(), NewServiceSpecificCredentialResource()} {
		var sresp resource.SchemaResponse
		r.Schema(ctx, resource.SchemaRequest{}, &sresp)
		for name, a := range sresp.Schema.Attributes {
			attrs[typeName(r)+"."+name] = a
		}
	}
	for _, l := range ListResources() {
		var lresp list.ListResourceSchemaResponse
		l().ListResourceConfigSchema(ctx, list.ListResourceSchemaRequest{}, &lresp)
		for name, a := range lresp.Schema.Attributes {
			attrs["list "+listTypeName(l())+"."+name] = a
		}
	}
	for key, a := range attrs {
		// Every attribute type has Validators (a slice), whatever its schema.
		ruled := reflect.ValueOf(a).FieldByName("Validators").Len() > 0
		if _, skip := notSent[key]; ruled && !probed[key] && !skip {
			t.Errorf("%s has validators and no probe: add one to TestIdentityRulesAgree's inputs (or to notSent, saying why no request carries it)", key)
		}
	}
}

func listTypeName(l list.ListResource) string {
	var m resource.MetadataResponse
	l.Metadata(context.Background(), resource.MetadataRequest{ProviderTypeName: "cloud"}, &m)
	return m.TypeName
}

func typeName(r resource.Resource) string {
	var m resource.MetadataResponse
	r.Metadata(context.Background(), resource.MetadataRequest{ProviderTypeName: "cloud"}, &m)
	return m.TypeName
}
