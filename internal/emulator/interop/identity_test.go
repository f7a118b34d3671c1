package interop_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"github.com/aws/aws-sdk-go-v2/service/iam/types"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
)

const (
	modelsService       = "models.cloud.example"
	modelsLimitedAccess = "arn:cloud:identity::cloud:policy/ModelsLimitedAccess"
	denyLongTermKeys    = "arn:cloud:identity::cloud:policy/DenyLongTermBearerTokens"
)

// apiKeyValue is the spec's ServiceApiKeyValue as the raw answer carries it.
var apiKeyValue = regexp.MustCompile(`<ServiceApiKeyValue>([^<]+)</ServiceApiKeyValue>`)

// Users: CreateUser with a path and tags, GetUser, ListUsers (paged by the
// SDK's paginator), DeleteUser.
func TestIdentitySDK_users(t *testing.T) {
	t.Parallel()
	s := start(t)
	c := s.identity()
	ctx := context.Background()
	created, err := c.CreateUser(ctx, &iam.CreateUserInput{
		UserName: aws.String("sdk-user"), Path: aws.String("/interop/"),
		Tags: []types.Tag{{Key: aws.String("team"), Value: aws.String("search")}, {Key: aws.String("env"), Value: aws.String("ci")}},
	})
	if err != nil {
		t.Fatalf("CreateUser: %v", err)
	}
	u := created.User
	if aws.ToString(u.Arn) != "arn:cloud:identity::123456789012:user/interop/sdk-user" || aws.ToString(u.Path) != "/interop/" ||
		!strings.HasPrefix(aws.ToString(u.UserId), "AIDA") || u.CreateDate == nil || len(u.Tags) != 2 {
		t.Errorf("CreateUser decoded %+v", *u)
	}
	for i := range 3 {
		if _, err := c.CreateUser(ctx, &iam.CreateUserInput{UserName: aws.String("sdk-more-" + string(rune('a'+i)))}); err != nil {
			t.Fatal(err)
		}
	}
	got, err := c.GetUser(ctx, &iam.GetUserInput{UserName: aws.String("sdk-user")})
	if err != nil || aws.ToString(got.User.Arn) != aws.ToString(u.Arn) || !got.User.CreateDate.Equal(*u.CreateDate) {
		t.Errorf("GetUser: %+v, %v", got, err)
	}
	var names []string
	pages := 0
	for p := iam.NewListUsersPaginator(c, &iam.ListUsersInput{MaxItems: aws.Int32(2)}); p.HasMorePages(); pages++ {
		page, err := p.NextPage(ctx)
		if err != nil {
			t.Fatalf("ListUsers page %d: %v", pages+1, err)
		}
		for _, u := range page.Users {
			names = append(names, aws.ToString(u.UserName))
		}
	}
	if want := []string{"sdk-more-a", "sdk-more-b", "sdk-more-c", "sdk-user"}; !slices.Equal(names, want) || pages != 2 {
		t.Errorf("ListUsers, 2 a page: %v in %d pages, want %v in 2", names, pages, want)
	}
	if _, err := c.DeleteUser(ctx, &iam.DeleteUserInput{UserName: aws.String("sdk-user")}); err != nil {
		t.Fatalf("DeleteUser: %v", err)
	}
	if _, err := c.GetUser(ctx, &iam.GetUserInput{UserName: aws.String("sdk-user")}); !isErr[*types.NoSuchEntityException](err) {
		t.Errorf("GetUser after DeleteUser: %v, want NoSuchEntityException", err)
	}
}

// Tags: TagUser (adding and replacing), UntagUser, ListUserTags.
func TestIdentitySDK_tags(t *testing.T) {
	t.Parallel()
	s := start(t)
	c := s.identity()
	ctx := context.Background()
	user := aws.String("tagged")
	if _, err := c.CreateUser(ctx, &iam.CreateUserInput{UserName: user, Tags: []types.Tag{{Key: aws.String("team"), Value: aws.String("search")}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.TagUser(ctx, &iam.TagUserInput{UserName: user, Tags: []types.Tag{
		{Key: aws.String("team"), Value: aws.String("models")}, {Key: aws.String("cost-center"), Value: aws.String("42")}, {Key: aws.String("env"), Value: aws.String("ci")},
	}}); err != nil {
		t.Fatalf("TagUser: %v", err)
	}
	if _, err := c.UntagUser(ctx, &iam.UntagUserInput{UserName: user, TagKeys: []string{"env"}}); err != nil {
		t.Fatalf("UntagUser: %v", err)
	}
	out, err := c.ListUserTags(ctx, &iam.ListUserTagsInput{UserName: user})
	if err != nil {
		t.Fatalf("ListUserTags: %v", err)
	}
	tags := map[string]string{}
	for _, tg := range out.Tags {
		tags[aws.ToString(tg.Key)] = aws.ToString(tg.Value)
	}
	if len(tags) != 2 || tags["team"] != "models" || tags["cost-center"] != "42" || out.IsTruncated {
		t.Errorf("ListUserTags: %v (truncated %v), want team=models, cost-center=42", tags, out.IsTruncated)
	}
	if _, err := c.TagUser(ctx, &iam.TagUserInput{UserName: aws.String("nobody"), Tags: []types.Tag{{Key: aws.String("a"), Value: aws.String("b")}}}); !isErr[*types.NoSuchEntityException](err) {
		t.Errorf("TagUser of an unknown user: %v, want NoSuchEntityException", err)
	}
}

// Policies: AttachUserPolicy, ListAttachedUserPolicies, DetachUserPolicy,
// and DeleteUser refused while one is attached; SimulatePrincipalPolicy
// with a context key.
func TestIdentitySDK_policies(t *testing.T) {
	t.Parallel()
	s := start(t)
	c := s.identity()
	ctx := context.Background()
	user := aws.String("with-policies")
	created, err := c.CreateUser(ctx, &iam.CreateUserInput{UserName: user})
	if err != nil {
		t.Fatal(err)
	}
	for _, arn := range []string{modelsLimitedAccess, denyLongTermKeys} {
		if _, err := c.AttachUserPolicy(ctx, &iam.AttachUserPolicyInput{UserName: user, PolicyArn: aws.String(arn)}); err != nil {
			t.Fatalf("AttachUserPolicy %s: %v", arn, err)
		}
	}
	listed, err := c.ListAttachedUserPolicies(ctx, &iam.ListAttachedUserPoliciesInput{UserName: user})
	if err != nil {
		t.Fatalf("ListAttachedUserPolicies: %v", err)
	}
	var arns []string
	for _, p := range listed.AttachedPolicies {
		arns = append(arns, aws.ToString(p.PolicyArn))
	}
	slices.Sort(arns)
	if want := []string{denyLongTermKeys, modelsLimitedAccess}; !slices.Equal(arns, want) || aws.ToString(listed.AttachedPolicies[0].PolicyName) == "" {
		t.Errorf("ListAttachedUserPolicies: %+v, want %v with names", listed.AttachedPolicies, want)
	}

	simulate := func(tokenType string) (types.PolicyEvaluationDecisionType, error) {
		out, err := c.SimulatePrincipalPolicy(ctx, &iam.SimulatePrincipalPolicyInput{
			PolicySourceArn: created.User.Arn,
			ActionNames:     []string{"models:CallWithBearerToken"},
			ResourceArns:    []string{"arn:cloud:models:us-east-1::model/m1"},
			ContextEntries: []types.ContextEntry{{
				ContextKeyName: aws.String("models:bearerTokenType"), ContextKeyType: types.ContextKeyTypeEnumString, ContextKeyValues: []string{tokenType},
			}},
		})
		if err != nil {
			return "", err
		}
		if len(out.EvaluationResults) != 1 || aws.ToString(out.EvaluationResults[0].EvalActionName) != "models:CallWithBearerToken" {
			t.Fatalf("SimulatePrincipalPolicy decoded %+v", out.EvaluationResults)
		}
		return out.EvaluationResults[0].EvalDecision, nil
	}
	for tokenType, want := range map[string]types.PolicyEvaluationDecisionType{
		"SHORT_TERM": types.PolicyEvaluationDecisionTypeAllowed,
		"LONG_TERM":  types.PolicyEvaluationDecisionTypeExplicitDeny,
	} {
		if got, err := simulate(tokenType); err != nil || got != want {
			t.Errorf("SimulatePrincipalPolicy with %s: %q, %v; want %q", tokenType, got, err, want)
		}
	}

	if _, err := c.DeleteUser(ctx, &iam.DeleteUserInput{UserName: user}); !isErr[*types.DeleteConflictException](err) {
		t.Errorf("DeleteUser with policies attached: %v, want DeleteConflictException", err)
	}
	for _, arn := range []string{modelsLimitedAccess, denyLongTermKeys} {
		if _, err := c.DetachUserPolicy(ctx, &iam.DetachUserPolicyInput{UserName: user, PolicyArn: aws.String(arn)}); err != nil {
			t.Fatalf("DetachUserPolicy %s: %v", arn, err)
		}
	}
	if _, err := c.DetachUserPolicy(ctx, &iam.DetachUserPolicyInput{UserName: user, PolicyArn: aws.String(modelsLimitedAccess)}); !isErr[*types.NoSuchEntityException](err) {
		t.Errorf("DetachUserPolicy of a policy not attached: %v, want NoSuchEntityException", err)
	}
	if _, err := c.DeleteUser(ctx, &iam.DeleteUserInput{UserName: user}); err != nil {
		t.Errorf("DeleteUser once detached: %v", err)
	}
}

// Service-specific credentials (the long-term API key): Create with the
// spec's CredentialAgeDays, List, Update status, Reset, Delete.
//
// The spec names the key ServiceApiKeyValue; the SDK's IAM model has no
// such member (its ServiceSpecificCredential has ServicePassword and
// ServiceCredentialSecret), so the SDK decodes no key value at all: the
// test asserts that, and reads the value from the raw answer.
func TestIdentitySDK_serviceSpecificCredentials(t *testing.T) {
	t.Parallel()
	s := start(t)
	c := s.identity()
	ctx := context.Background()
	user := aws.String("key-holder")
	if _, err := c.CreateUser(ctx, &iam.CreateUserInput{UserName: user}); err != nil {
		t.Fatal(err)
	}
	create := func() (*types.ServiceSpecificCredential, string) {
		t.Helper()
		out, err := c.CreateServiceSpecificCredential(ctx, &iam.CreateServiceSpecificCredentialInput{
			UserName: user, ServiceName: aws.String(modelsService), CredentialAgeDays: aws.Int32(30),
		})
		if err != nil {
			t.Fatalf("CreateServiceSpecificCredential: %v", err)
		}
		return out.ServiceSpecificCredential, rawKey(t, s)
	}
	k, value := create()
	if !strings.HasPrefix(value, "CLOUDK") || len(value) != 70 {
		t.Errorf("the raw answer's ServiceApiKeyValue %d characters, want CLOUDK and 70", len(value))
	}
	if k.ServicePassword != nil || k.ServiceCredentialSecret != nil {
		t.Errorf("the SDK decoded a key value (ServicePassword %v, ServiceCredentialSecret %v) from an answer without those members", k.ServicePassword != nil, k.ServiceCredentialSecret != nil)
	}
	if k.Status != types.StatusTypeActive || aws.ToString(k.ServiceName) != modelsService || aws.ToString(k.UserName) != "key-holder" ||
		len(aws.ToString(k.ServiceSpecificCredentialId)) < 20 || k.CreateDate == nil || k.ExpirationDate == nil ||
		k.ExpirationDate.Sub(*k.CreateDate) != 30*24*time.Hour {
		t.Errorf("CreateServiceSpecificCredential decoded %+v (expires %v), want Active, expiring 30 days after creation", *k, k.ExpirationDate)
	}
	id := k.ServiceSpecificCredentialId
	_, second := create()
	if second == value {
		t.Fatal("two keys with one value")
	}
	_, err := c.CreateServiceSpecificCredential(ctx, &iam.CreateServiceSpecificCredentialInput{UserName: user, ServiceName: aws.String(modelsService), CredentialAgeDays: aws.Int32(30)})
	if !isErr[*types.LimitExceededException](err) {
		t.Errorf("a third key for one service: %v, want LimitExceededException", err)
	}

	if _, err := c.UpdateServiceSpecificCredential(ctx, &iam.UpdateServiceSpecificCredentialInput{UserName: user, ServiceSpecificCredentialId: id, Status: types.StatusTypeInactive}); err != nil {
		t.Fatalf("UpdateServiceSpecificCredential Inactive: %v", err)
	}
	list := func() map[string]types.ServiceSpecificCredentialMetadata {
		t.Helper()
		out, err := c.ListServiceSpecificCredentials(ctx, &iam.ListServiceSpecificCredentialsInput{UserName: user, ServiceName: aws.String(modelsService)})
		if err != nil {
			t.Fatalf("ListServiceSpecificCredentials: %v", err)
		}
		if _, raw, _ := s.rec.last(); strings.Contains(raw, "ServiceApiKeyValue") || strings.Contains(raw, value) {
			t.Errorf("ListServiceSpecificCredentials answers a key value")
		}
		m := map[string]types.ServiceSpecificCredentialMetadata{}
		for _, k := range out.ServiceSpecificCredentials {
			m[aws.ToString(k.ServiceSpecificCredentialId)] = k
		}
		return m
	}
	listed := list()
	if len(listed) != 2 || listed[aws.ToString(id)].Status != types.StatusTypeInactive || listed[aws.ToString(id)].ExpirationDate == nil {
		t.Errorf("ListServiceSpecificCredentials after deactivating: %+v", listed)
	}

	reset, err := c.ResetServiceSpecificCredential(ctx, &iam.ResetServiceSpecificCredentialInput{UserName: user, ServiceSpecificCredentialId: id})
	if err != nil {
		t.Fatalf("ResetServiceSpecificCredential: %v", err)
	}
	if v := rawKey(t, s); v == value || !strings.HasPrefix(v, "CLOUDK") {
		t.Errorf("the reset answered the old value, or none")
	}
	if r := reset.ServiceSpecificCredential; aws.ToString(r.ServiceSpecificCredentialId) != aws.ToString(id) || r.Status != types.StatusTypeInactive {
		t.Errorf("ResetServiceSpecificCredential decoded %+v, want the same id, still Inactive", *r)
	}
	if _, err := c.UpdateServiceSpecificCredential(ctx, &iam.UpdateServiceSpecificCredentialInput{UserName: user, ServiceSpecificCredentialId: id, Status: types.StatusTypeActive}); err != nil {
		t.Fatalf("UpdateServiceSpecificCredential Active: %v", err)
	}
	if got := list()[aws.ToString(id)].Status; got != types.StatusTypeActive {
		t.Errorf("after reactivating: %q", got)
	}

	if _, err := c.DeleteUser(ctx, &iam.DeleteUserInput{UserName: user}); !isErr[*types.DeleteConflictException](err) {
		t.Errorf("DeleteUser holding keys: %v, want DeleteConflictException", err)
	}
	if _, err := c.DeleteServiceSpecificCredential(ctx, &iam.DeleteServiceSpecificCredentialInput{UserName: user, ServiceSpecificCredentialId: id}); err != nil {
		t.Fatalf("DeleteServiceSpecificCredential: %v", err)
	}
	if listed := list(); len(listed) != 1 {
		t.Errorf("after deleting one of two: %d keys", len(listed))
	}
	if _, err := c.DeleteServiceSpecificCredential(ctx, &iam.DeleteServiceSpecificCredentialInput{UserName: user, ServiceSpecificCredentialId: id}); !isErr[*types.NoSuchEntityException](err) {
		t.Errorf("deleting it again: %v, want NoSuchEntityException", err)
	}
}

// The identity service's error codes, as the SDK's typed errors.
func TestIdentitySDK_errors(t *testing.T) {
	t.Parallel()
	s := start(t)
	ctx := context.Background()
	c := s.identity(func(o *iam.Options) { o.RetryMaxAttempts = 1 })
	if _, err := c.CreateUser(ctx, &iam.CreateUserInput{UserName: aws.String("taken")}); err != nil {
		t.Fatal(err)
	}
	// The SDK's own signing name, iam, instead of the spec's identity.
	iamSigned := iam.New(iam.Options{
		Region: s.Region(), Credentials: s.creds(), BaseEndpoint: aws.String(s.URL), HTTPClient: s.httpClient(), RetryMaxAttempts: 1,
	})
	tampered := s.identity(func(o *iam.Options) { o.RetryMaxAttempts = 1 }, tamperAfterSigning("UserName=tampered", "UserName=mallory1"))
	key := func(days int32, service string) error {
		_, err := c.CreateServiceSpecificCredential(ctx, &iam.CreateServiceSpecificCredentialInput{UserName: aws.String("taken"), ServiceName: aws.String(service), CredentialAgeDays: aws.Int32(days)})
		return err
	}
	cases := []struct {
		name string
		err  error
		as   func(error) bool
	}{
		{"NoSuchEntity: GetUser of an unknown user", func() error {
			_, err := c.GetUser(ctx, &iam.GetUserInput{UserName: aws.String("nobody")})
			return err
		}(), isErr[*types.NoSuchEntityException]},
		{"EntityAlreadyExists: a name taken in another case", func() error {
			_, err := c.CreateUser(ctx, &iam.CreateUserInput{UserName: aws.String("TAKEN")})
			return err
		}(), isErr[*types.EntityAlreadyExistsException]},
		{"InvalidInput: a user name with a space", func() error {
			_, err := c.CreateUser(ctx, &iam.CreateUserInput{UserName: aws.String("has space")})
			return err
		}(), isErr[*types.InvalidInputException]},
		{"InvalidInput: CredentialAgeDays 0", key(0, modelsService), isErr[*types.InvalidInputException]},
		{"NotSupportedService: a service without keys", key(30, "search.cloud.example"), isErr[*types.ServiceNotSupportedException]},
		{"LimitExceeded: a third key", func() error {
			for range 2 {
				if err := key(30, modelsService); err != nil {
					return err
				}
			}
			return key(30, modelsService)
		}(), isErr[*types.LimitExceededException]},
		{"DeleteConflict: a user holding keys", func() error {
			_, err := c.DeleteUser(ctx, &iam.DeleteUserInput{UserName: aws.String("taken")})
			return err
		}(), isErr[*types.DeleteConflictException]},
		{"SignatureDoesNotMatch: CreateUser signed for the SDK's own signing name, iam", func() error {
			_, err := iamSigned.CreateUser(ctx, &iam.CreateUserInput{UserName: aws.String("signed-for-iam")})
			return err
		}(), signatureRefusal("Credential should be scoped to correct service: 'identity'.")},
		{"SignatureDoesNotMatch: CreateUser, its body changed after signing", func() error {
			_, err := tampered.CreateUser(ctx, &iam.CreateUserInput{UserName: aws.String("tampered")})
			if req, _, _ := s.rec.last(); !strings.Contains(req, "UserName=mallory1") {
				t.Errorf("the body sent was %q, not the one changed after signing", req)
			}
			return err
		}(), signatureRefusal("The request signature we calculated does not match")},
		{"ServiceFailure (injected)", func() error {
			if err := s.InjectFault(emulatorFault("identity", "", 500)); err != nil {
				t.Fatal(err)
			}
			_, err := c.GetUser(ctx, &iam.GetUserInput{UserName: aws.String("taken")})
			return err
		}(), isErr[*types.ServiceFailureException]},
		{"Throttling (injected): no typed error in the SDK, its code", func() error {
			if err := s.InjectFault(emulator.Fault{Service: "identity", Kind: emulator.FaultThrottle}); err != nil {
				t.Fatal(err)
			}
			_, err := c.GetUser(ctx, &iam.GetUserInput{UserName: aws.String("taken")})
			return err
		}(), func(err error) bool { return errorCode(err) == "Throttling" }},
	}
	for _, tc := range cases {
		if !tc.as(tc.err) {
			t.Errorf("%s: %v", tc.name, tc.err)
		}
	}
	if users := s.Identity.UserNames(); !slices.Equal(users, []string{"taken"}) {
		t.Errorf("users %v, want [taken]: a refused request changed the state", users)
	}
}

// signatureRefusal checks for the SignatureDoesNotMatch error with msg in
// its message.
func signatureRefusal(msg string) func(error) bool {
	return func(err error) bool {
		var api smithy.APIError
		return errors.As(err, &api) && api.ErrorCode() == "SignatureDoesNotMatch" && strings.Contains(api.ErrorMessage(), msg)
	}
}

// tamperAfterSigning changes from to to (of the same length) in the body
// the SDK sends, after it has signed it.
func tamperAfterSigning(from, to string) func(*iam.Options) {
	return func(o *iam.Options) {
		o.APIOptions = append(o.APIOptions, func(stack *middleware.Stack) error {
			return stack.Finalize.Add(middleware.FinalizeMiddlewareFunc("tamperAfterSigning", func(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (middleware.FinalizeOutput, middleware.Metadata, error) {
				req, ok := in.Request.(*smithyhttp.Request)
				if !ok || req.GetStream() == nil || len(from) != len(to) {
					return middleware.FinalizeOutput{}, middleware.Metadata{}, fmt.Errorf("cannot change %q to %q in %T", from, to, in.Request)
				}
				b, err := io.ReadAll(req.GetStream())
				if err != nil {
					return middleware.FinalizeOutput{}, middleware.Metadata{}, err
				}
				if req, err = req.SetStream(bytes.NewReader(bytes.Replace(b, []byte(from), []byte(to), 1))); err != nil {
					return middleware.FinalizeOutput{}, middleware.Metadata{}, err
				}
				in.Request = req
				return next.HandleFinalize(ctx, in)
			}), middleware.After)
		})
	}
}

// rawKey is the ServiceApiKeyValue of the last answer.
func rawKey(t *testing.T, s *server) string {
	t.Helper()
	_, raw, _ := s.rec.last()
	m := apiKeyValue.FindStringSubmatch(raw)
	if m == nil {
		t.Fatalf("no ServiceApiKeyValue in the raw answer")
	}
	return m[1]
}
