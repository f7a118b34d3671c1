package interop_test

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime/types"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	iamtypes "github.com/aws/aws-sdk-go-v2/service/iam/types"
	"github.com/aws/smithy-go"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	"github.com/cloudlabs/terraform-provider-cloud/internal/client/models"
)

const regionWord = "Credential should be scoped to a valid region"

// converse sends one user message with c and returns the answer's text.
func converse(ctx context.Context, c *bedrockruntime.Client, text string) (string, error) {
	out, err := c.Converse(ctx, &bedrockruntime.ConverseInput{
		ModelId:  aws.String("m1"),
		Messages: []types.Message{{Role: types.ConversationRoleUser, Content: []types.ContentBlock{&types.ContentBlockMemberText{Value: text}}}},
	})
	if err != nil {
		return "", err
	}
	msg, ok := out.Output.(*types.ConverseOutputMemberMessage)
	if !ok || len(msg.Value.Content) != 1 {
		return "", errors.New("no message in the answer")
	}
	block, ok := msg.Value.Content[0].(*types.ContentBlockMemberText)
	if !ok {
		return "", errors.New("no text block in the answer")
	}
	if out.StopReason != types.StopReasonEndTurn || out.Usage == nil || aws.ToInt32(out.Usage.TotalTokens) == 0 {
		return "", errors.New("no stop reason or usage in the answer")
	}
	return block.Value, nil
}

// errorCode is the error code of an API error, "" for another error.
func errorCode(err error) string {
	var api smithy.APIError
	if errors.As(err, &api) {
		return api.ErrorCode()
	}
	return ""
}

// A long-term key, made with the SDK's IAM client, on the SDK's runtime
// client as its bearer token: answered in its own region, refused in
// another with the spec's words, refused while Inactive.
func TestRuntimeSDK_longTermKey(t *testing.T) {
	t.Parallel()
	s := start(t)
	ctx := context.Background()
	id := s.identity()
	user := aws.String("runtime-user")
	if _, err := id.CreateUser(ctx, &iam.CreateUserInput{UserName: user}); err != nil {
		t.Fatal(err)
	}
	if _, err := id.AttachUserPolicy(ctx, &iam.AttachUserPolicyInput{UserName: user, PolicyArn: aws.String(modelsLimitedAccess)}); err != nil {
		t.Fatal(err)
	}
	created, err := id.CreateServiceSpecificCredential(ctx, &iam.CreateServiceSpecificCredentialInput{UserName: user, ServiceName: aws.String(modelsService), CredentialAgeDays: aws.Int32(1)})
	if err != nil {
		t.Fatal(err)
	}
	key := rawKey(t, s)

	home := s.runtime(s.URL, s.Region(), key)
	if got, err := converse(ctx, home, "hello there"); err != nil || got != "hello there" {
		t.Fatalf("Converse with a long-term key in its region: %q, %v", got, err)
	}
	if _, _, auth := s.rec.last(); auth != "Bearer "+key {
		t.Errorf("the SDK sent Authorization %d characters, not Bearer and the key", len(auth))
	}
	// An inference profile's ARN as the model id: the SDK escapes its : and
	// / in the path; the emulator reads it back whole.
	const profile = "arn:cloud:models:us-east-1:123456789012:inference-profile/us.m1"
	if _, err := home.Converse(ctx, &bedrockruntime.ConverseInput{
		ModelId:  aws.String(profile),
		Messages: []types.Message{{Role: types.ConversationRoleUser, Content: []types.ContentBlock{&types.ContentBlockMemberText{Value: "hi"}}}},
	}); err != nil {
		t.Errorf("Converse with an inference profile ARN: %v", err)
	} else if uses := s.Runtime.Uses(); uses[len(uses)-1].ModelID != profile || uses[len(uses)-1].TokenType != "LONG_TERM" {
		t.Errorf("the runtime saw %+v", uses[len(uses)-1])
	}

	other := s.runtime(s.URL+"/region/eu-west-1", "eu-west-1", key)
	_, err = converse(ctx, other, "hello")
	var denied *types.AccessDeniedException
	if !errors.As(err, &denied) || denied.ErrorMessage() != regionWord {
		t.Errorf("the key in another region: %v, want AccessDeniedException %q", err, regionWord)
	}
	if _, raw, _ := s.rec.last(); strings.TrimSpace(raw) != `{"__type":"AccessDeniedException","message":"`+regionWord+`"}` {
		t.Errorf("the raw refusal: %s", raw)
	}

	status := func(st iamtypes.StatusType) {
		t.Helper()
		if _, err := id.UpdateServiceSpecificCredential(ctx, &iam.UpdateServiceSpecificCredentialInput{UserName: user, ServiceSpecificCredentialId: created.ServiceSpecificCredential.ServiceSpecificCredentialId, Status: st}); err != nil {
			t.Fatal(err)
		}
	}
	status(iamtypes.StatusTypeInactive)
	if _, err := converse(ctx, home, "hello"); !errors.As(err, &denied) {
		t.Errorf("an Inactive key: %v, want AccessDeniedException", err)
	}
	status(iamtypes.StatusTypeActive)
	s.Clock().Advance(25 * time.Hour)
	if _, err := converse(ctx, home, "hello"); errorCode(err) != "ExpiredTokenException" {
		t.Errorf("a key past its CredentialAgeDays: %v, want ExpiredTokenException", err)
	}
	if _, err := converse(ctx, s.runtime(s.URL, s.Region(), "CLOUDK"+key[6:10]+"not-issued"), "hello"); errorCode(err) != "UnrecognizedClientException" {
		t.Errorf("a key never issued: %v, want UnrecognizedClientException", err)
	}
}

// A short-term key generated by the provider's code (client/models), on
// the SDK's runtime client: answered in the region it was generated for,
// refused in another, refused once expired. Neither aws-sdk-go-v2 nor a
// Go module of the official token generators (there are Python,
// JavaScript and Java ones) generates such keys, so this key is the only
// one a Go test can make.
func TestRuntimeSDK_shortTermKey(t *testing.T) {
	t.Parallel()
	s := start(t)
	ctx := context.Background()
	u, err := url.Parse(s.URL)
	if err != nil {
		t.Fatal(err)
	}
	token := func(region string) string {
		t.Helper()
		tok, err := models.GenerateToken(ctx, models.TokenRequest{
			Host: u.Host, Region: region, ExpiresIn: 15 * time.Minute, Now: s.Clock().Now(),
			Credentials: client.Credentials{AccessKeyID: s.AccessKeyID(), SecretAccessKey: s.SecretAccessKey()},
		})
		if err != nil {
			t.Fatal(err)
		}
		return tok.Value
	}
	home, west := token(s.Region()), token("eu-west-1")
	if got, err := converse(ctx, s.runtime(s.URL, s.Region(), home), "short and sweet"); err != nil || got != "short and sweet" {
		t.Fatalf("Converse with a short-term key in its region: %q, %v", got, err)
	}
	if got, err := converse(ctx, s.runtime(s.URL+"/region/eu-west-1", "eu-west-1", west), "west"); err != nil || got != "west" {
		t.Errorf("a key generated for eu-west-1, in eu-west-1: %q, %v", got, err)
	}
	var denied *types.AccessDeniedException
	if _, err := converse(ctx, s.runtime(s.URL, s.Region(), west), "hello"); !errors.As(err, &denied) || denied.ErrorMessage() != regionWord {
		t.Errorf("a key generated for eu-west-1, in %s: %v, want AccessDeniedException %q", s.Region(), err, regionWord)
	}
	var invalid *types.ValidationException
	if _, err := s.runtime(s.URL, s.Region(), home).Converse(ctx, &bedrockruntime.ConverseInput{ModelId: aws.String("m1"), Messages: []types.Message{}}); !errors.As(err, &invalid) {
		t.Errorf("no messages: %v, want ValidationException", err)
	}
	s.Clock().Advance(16 * time.Minute)
	if _, err := converse(ctx, s.runtime(s.URL, s.Region(), home), "hello"); errorCode(err) != "ExpiredTokenException" {
		t.Errorf("an expired short-term key: %v, want ExpiredTokenException", err)
	}
}
