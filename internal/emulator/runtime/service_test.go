package runtime_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/google/go-cmp/cmp"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/emulatortest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/client/models"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/runtime"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/sigv4"
)

const (
	limitedAccess = "arn:cloud:identity::cloud:policy/ModelsLimitedAccess"
	admin         = "arn:cloud:identity::123456789012:user/emulator-admin"
	body          = `{"messages":[{"role":"user","content":[{"text":"hello there"}]}]}`
)

type fixture struct {
	emu *emulator.Emulator
	url string
	id  *identityclient.Client
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	srv := emulatortest.New(t)
	e := srv.Emulator
	cfg := client.Config{Region: e.Region(), Credentials: client.Credentials{AccessKeyID: e.AccessKeyID(), SecretAccessKey: e.SecretAccessKey()}}
	id, err := identityclient.New(cfg, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{emu: e, url: srv.URL, id: id}
}

// user creates a user with policies and a key of days in region.
func (f *fixture) user(t *testing.T, name, region string, days int, policies ...string) (id, key string) {
	t.Helper()
	ctx := context.Background()
	if _, err := f.id.CreateUser(ctx, identityclient.CreateUserInput{UserName: name}); err != nil {
		t.Fatal(err)
	}
	for _, p := range policies {
		if err := f.id.AttachUserPolicy(ctx, name, p); err != nil {
			t.Fatal(err)
		}
	}
	id, key, err := f.emu.Identity.CreateCredentialBehindTheBack(name, "models.cloud.example", days, region)
	if err != nil {
		t.Fatal(err)
	}
	return id, key
}

func (f *fixture) token(t *testing.T, region string, in time.Duration) string {
	t.Helper()
	u, _ := url.Parse(f.url)
	tok, err := models.GenerateToken(context.Background(), models.TokenRequest{
		Host: u.Host, Region: region, ExpiresIn: in,
		Credentials: client.Credentials{AccessKeyID: f.emu.AccessKeyID(), SecretAccessKey: f.emu.SecretAccessKey()},
	})
	if err != nil {
		t.Fatal(err)
	}
	return tok.Value
}

type answer struct {
	Status  int
	Type    string
	Message string
}

func (f *fixture) call(t *testing.T, path, auth, payload string) (answer, map[string]any) {
	t.Helper()
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, f.url+path, strings.NewReader(payload))
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var m map[string]any
	_ = json.Unmarshal(raw, &m)
	a := answer{Status: resp.StatusCode}
	if resp.StatusCode != http.StatusOK {
		a.Type, _ = m["__type"].(string)
		a.Message, _ = m["message"].(string)
	}
	return a, m
}

func TestRuntimeRefusals(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	_, good := f.user(t, "good", "us-east-1", 30, limitedAccess)
	_, west := f.user(t, "west", "us-west-2", 30, limitedAccess)
	_, none := f.user(t, "nopolicy", "us-east-1", 30)
	_, denied := f.user(t, "denied", "us-east-1", 30, limitedAccess, "arn:cloud:identity::cloud:policy/DenyLongTermBearerTokens")
	_, shortDenied := f.user(t, "shortdenied", "us-east-1", 30, limitedAccess, "arn:cloud:identity::cloud:policy/DenyShortTermBearerTokens")
	inactiveID, inactive := f.user(t, "inactive", "us-east-1", 30, limitedAccess)
	if err := f.id.UpdateServiceSpecificCredential(context.Background(), "inactive", inactiveID, "Inactive"); err != nil {
		t.Fatal(err)
	}
	resetID, resetAway := f.user(t, "reset", "us-east-1", 30, limitedAccess)
	if _, err := f.id.ResetServiceSpecificCredential(context.Background(), "reset", resetID); err != nil {
		t.Fatal(err)
	}
	short := f.token(t, "us-east-1", time.Hour)
	badRegion := func(a answer) answer { a.Message = runtime.RegionMessage; return a }

	tests := []struct {
		name       string
		path, auth string
		payload    string
		want       answer
	}{
		{"long-term ok", "/model/m1/converse", "Bearer " + good, body, answer{Status: 200}},
		{"long-term ok, explicit home region", "/region/us-east-1/model/m1/converse", "Bearer " + good, body, answer{Status: 200}},
		{"long-term ok, alt endpoint", "/alt/model/m1/converse", "Bearer " + good, body, answer{Status: 200}},
		{"long-term other region", "/model/m1/converse", "Bearer " + west, body, badRegion(answer{403, "AccessDeniedException", ""})},
		{"long-term own region", "/region/us-west-2/model/m1/converse", "Bearer " + west, body, answer{Status: 200}},
		{"no header", "/model/m1/converse", "", body, answer{401, "MissingAuthenticationTokenException", "The request needs an API key in the header Authorization: Bearer <API_KEY>."}},
		{"unknown key", "/model/m1/converse", "Bearer CLOUDKnotakey", body, answer{403, "UnrecognizedClientException", "The API key included in the request is invalid: it was never issued, was replaced by a reset, or was deleted."}},
		{"reset away", "/model/m1/converse", "Bearer " + resetAway, body, answer{403, "UnrecognizedClientException", "The API key included in the request is invalid: it was never issued, was replaced by a reset, or was deleted."}},
		{"inactive", "/model/m1/converse", "Bearer " + inactive, body, answer{403, "AccessDeniedException", "The API key " + inactiveID + " is Inactive. Reactivate it or use another key."}},
		{"no policy", "/model/m1/converse", "Bearer " + none, body, answer{403, "AccessDeniedException", "User: arn:cloud:identity::123456789012:user/nopolicy is not authorized to perform: models:CallWithBearerToken on resource: arn:cloud:models:us-east-1::model/m1 because no identity-based policy allows the models:CallWithBearerToken action (for a LONG_TERM key)."}},
		{"long-term denied", "/model/m1/converse", "Bearer " + denied, body, answer{403, "AccessDeniedException", "User: arn:cloud:identity::123456789012:user/denied is not authorized to perform: models:CallWithBearerToken on resource: arn:cloud:models:us-east-1::model/m1 with an explicit deny in an identity-based policy (for a LONG_TERM key)."}},
		{"long-term denied on alt", "/alt/model/m1/converse", "Bearer " + denied, body, answer{403, "AccessDeniedException", "User: arn:cloud:identity::123456789012:user/denied is not authorized to perform: models-alt:CallWithBearerToken on resource: arn:cloud:models:us-east-1::model/m1 with an explicit deny in an identity-based policy (for a LONG_TERM key)."}},
		{"short-term deny does not touch long-term", "/model/m1/converse", "Bearer " + shortDenied, body, answer{Status: 200}},
		{"short-term ok", "/model/m1/converse", "Bearer " + short, body, answer{Status: 200}},
		{"short-term other region", "/region/eu-west-1/model/m1/converse", "Bearer " + short, body, badRegion(answer{403, "AccessDeniedException", ""})},
		{"short-term malformed", "/model/m1/converse", "Bearer models-api-key-!!", body, answer{403, "UnrecognizedClientException", "The short-term API key is malformed: it is not standard base64 after its prefix."}},
		{"bad json", "/model/m1/converse", "Bearer " + good, `{"messages":`, answer{400, "ValidationException", "The request body is not valid JSON: unexpected end of JSON input"}},
		{"no messages", "/model/m1/converse", "Bearer " + good, `{}`, answer{400, "ValidationException", "The request body needs a non-empty messages array."}},
		{"bad region path", "/region/nowhere/model/m1/converse", "Bearer " + good, body, answer{404, "UnknownOperationException", "No runtime serves region nowhere."}},
		{"other operation", "/model/m1/invoke", "Bearer " + good, body, answer{404, "UnknownOperationException", "The runtime answers POST {runtime_url}/model/<model_id>/converse only."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, _ := f.call(t, tt.path, tt.auth, tt.payload)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("answer (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRuntimeBodyRules: the runtime's rules of a converse body, each
// refused with the message that names the member: a role other than user
// or assistant, a message without content, a block without text, an empty
// or over-long text, a conversation that does not end with the user. A
// body that keeps every rule is answered.
func TestRuntimeBodyRules(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	_, key := f.user(t, "alice", "us-east-1", 30, limitedAccess)
	bad := func(msg string) answer { return answer{400, "ValidationException", msg} }
	tests := []struct {
		name, payload string
		want          answer
	}{
		{"user, assistant, user", `{"messages":[{"role":"user","content":[{"text":"a"}]},{"role":"assistant","content":[{"text":"b"}]},{"role":"user","content":[{"text":"c"}]}]}`, answer{Status: 200}},
		{"role system", `{"messages":[{"role":"system","content":[{"text":"a"}]}]}`, bad("messages[0].role must be user or assistant.")},
		{"role missing", `{"messages":[{"content":[{"text":"a"}]}]}`, bad("messages[0].role must be user or assistant.")},
		{"role in another case", `{"messages":[{"role":"User","content":[{"text":"a"}]}]}`, bad("messages[0].role must be user or assistant.")},
		{"empty content", `{"messages":[{"role":"user","content":[]}]}`, bad("messages[0].content must hold at least one block.")},
		{"no content", `{"messages":[{"role":"user"}]}`, bad("messages[0].content must hold at least one block.")},
		{"block without text", `{"messages":[{"role":"user","content":[{"text":"a"},{"image":{}}]}]}`, bad("messages[0].content[1] needs text.")},
		{"empty text", `{"messages":[{"role":"user","content":[{"text":""}]}]}`, bad("messages[0].content[0].text must be between 1 and 100000 characters long, not 0.")},
		{"text of 100001 characters", `{"messages":[{"role":"user","content":[{"text":"` + strings.Repeat("é", 100001) + `"}]}]}`, bad("messages[0].content[0].text must be between 1 and 100000 characters long, not 100001.")},
		{"text of 100000 characters", `{"messages":[{"role":"user","content":[{"text":"` + strings.Repeat("é", 100000) + `"}]}]}`, answer{Status: 200}},
		{"last from the assistant", `{"messages":[{"role":"user","content":[{"text":"a"}]},{"role":"assistant","content":[{"text":"b"}]}]}`, bad("The last message must have the role user.")},
		{"empty messages", `{"messages":[]}`, bad("The request body needs a non-empty messages array.")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, _ := f.call(t, "/model/m1/converse", "Bearer "+key, tt.payload)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("answer (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRuntimeExpiryAndShortTermDeny(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	keyID, key := f.user(t, "alice", "us-east-1", 1, limitedAccess)
	short := f.token(t, "us-east-1", time.Hour)
	if got, _ := f.call(t, "/model/m/converse", "Bearer "+short, body); got.Status != 200 {
		t.Fatalf("short-term key refused: %+v", got)
	}
	if _, err := f.emu.Identity.AttachPrincipalPolicy(admin, "deny-short", []byte(`{"Version":"2012-10-17","Statement":[{"Effect":"Deny","Action":"models:CallWithBearerToken","Resource":"*","Condition":{"StringEquals":{"models:bearerTokenType":"SHORT_TERM"}}}]}`)); err != nil {
		t.Fatal(err)
	}
	if got, _ := f.call(t, "/model/m/converse", "Bearer "+short, body); got.Status != 403 || !strings.Contains(got.Message, "explicit deny") {
		t.Fatalf("denied short-term key: %+v", got)
	}
	if got, _ := f.call(t, "/model/m/converse", "Bearer "+key, body); got.Status != 200 {
		t.Fatalf("long-term key refused by a SHORT_TERM deny: %+v", got)
	}
	f.emu.Clock().Advance(25 * time.Hour)
	got, _ := f.call(t, "/model/m/converse", "Bearer "+key, body)
	if got.Status != 403 || got.Type != "ExpiredTokenException" || !strings.Contains(got.Message, keyID+" expired at") {
		t.Fatalf("expired key: %+v", got)
	}
	if got, _ := f.call(t, "/model/m/converse", "Bearer "+short, body); got.Type != "ExpiredTokenException" {
		t.Fatalf("expired short-term key: %+v", got)
	}
	for _, u := range f.emu.Runtime.Uses() {
		if u.Principal == "" && u.TokenType == runtime.LongTerm {
			t.Errorf("use without principal: %+v", u)
		}
	}
	if !f.emu.Runtime.SawTokenHash(runtime.TokenHash(short)) {
		t.Error("the runtime did not remember the hash of the short-term key")
	}
	for _, c := range f.emu.Calls() {
		if c.Operation != "Converse" && c.Service == "runtime" {
			t.Errorf("logged as %q", c.Operation)
		}
	}
}

func TestRuntimeAnswer(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	_, key := f.user(t, "alice", "us-east-1", 30, limitedAccess)
	got, m := f.call(t, "/model/anthropic.claude%2Fv1/converse", "Bearer "+key,
		`{"messages":[{"role":"user","content":[{"text":"first try"}]},{"role":"assistant","content":[{"text":"ok"}]},{"role":"user","content":[{"text":"say hi"}]}]}`)
	if got.Status != 200 {
		t.Fatalf("refused: %+v", got)
	}
	want := map[string]any{
		"output":     map[string]any{"message": map[string]any{"role": "assistant", "content": []any{map[string]any{"text": "say hi"}}}},
		"stopReason": "end_turn",
		"usage":      map[string]any{"inputTokens": 5.0, "outputTokens": 2.0, "totalTokens": 7.0},
		"metrics":    map[string]any{"latencyMs": 1.0},
	}
	if diff := cmp.Diff(want, m); diff != "" {
		t.Errorf("answer (-want +got):\n%s", diff)
	}
}

// TestBearerRoundTrip generates short-term keys with the provider's
// generator and verifies them with the emulator's verifier.
func TestBearerRoundTrip(t *testing.T) {
	t.Parallel()
	now := time.Now().UTC().Truncate(time.Second)
	fixed := sigv4.Credential{AccessKeyID: "AKIDEXAMPLE000001", SecretAccessKey: "secret-1", Principal: "arn:cloud:identity::123456789012:user/a"}
	session := sigv4.Credential{AccessKeyID: "ASIAEXAMPLE000002", SecretAccessKey: "secret-2", SessionToken: "session-2", Expires: now.Add(2 * time.Hour), Principal: "arn:cloud:identity::123456789012:user/b"}
	store := sigv4.NewStore(fixed, session)
	gen := func(c sigv4.Credential, in time.Duration) models.Token {
		tok, err := models.GenerateToken(context.Background(), models.TokenRequest{
			Host: "runtime.models.us-east-1.cloud.example", Region: "us-east-1", ExpiresIn: in, Now: now,
			Credentials: client.Credentials{AccessKeyID: c.AccessKeyID, SecretAccessKey: c.SecretAccessKey, SessionToken: c.SessionToken, Expires: c.Expires},
		})
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	valid := gen(fixed, time.Hour).Value
	sessionTok := gen(session, 12*time.Hour)
	if !sessionTok.ExpiresAt.Equal(session.Expires) {
		t.Errorf("session token expires at %s, want the session's %s", sessionTok.ExpiresAt, session.Expires)
	}
	wrongSecret := gen(sigv4.Credential{AccessKeyID: fixed.AccessKeyID, SecretAccessKey: "other"}, time.Hour).Value
	unknown := gen(sigv4.Credential{AccessKeyID: "AKIDUNKNOWN000009", SecretAccessKey: "x"}, time.Hour).Value

	tests := []struct {
		name      string
		token     string
		at        time.Time
		wantErr   string // condition
		principal string
	}{
		{"valid", valid, now.Add(time.Minute), "", fixed.Principal},
		{"session", sessionTok.Value, now.Add(time.Hour), "", session.Principal},
		{"session over", sessionTok.Value, now.Add(2 * time.Hour), "expired", ""},
		{"expired", valid, now.Add(time.Hour), "expired", ""},
		{"tampered", tamper(t, valid), now, "signature", ""},
		{"wrong secret", wrongSecret, now, "signature", ""},
		{"unknown key", unknown, now, "unknown", ""},
		{"over 12h", presignRaw(t, fixed, now, 43201, models.EmptyPayloadHash), now, "signature", ""},
		{"12h exactly", presignRaw(t, fixed, now, 43200, models.EmptyPayloadHash), now.Add(11 * time.Hour), "", fixed.Principal},
		// The official generators sign the empty body's hash (the form
		// the provider makes); UNSIGNED-PAYLOAD is accepted too; any other
		// payload hash is not what the runtime verifies.
		{"signed with the empty body's hash", presignRaw(t, fixed, now, 3600, models.EmptyPayloadHash), now, "", fixed.Principal},
		{"signed with UNSIGNED-PAYLOAD", presignRaw(t, fixed, now, 3600, "UNSIGNED-PAYLOAD"), now, "", fixed.Principal},
		{"signed with another payload hash", presignRaw(t, fixed, now, 3600, "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"), now, "signature", ""},
		{"not base64", "models-api-key-***", now, "malformed", ""},
		{"no prefix", "CLOUDKabc", now, "malformed", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, verr := store.VerifyBearer(tt.token, tt.at)
			cond, principal := "", ""
			if verr != nil {
				cond = verr.Condition
			} else {
				principal = got.Principal
			}
			if diff := cmp.Diff([2]string{tt.wantErr, tt.principal}, [2]string{cond, principal}); diff != "" {
				t.Errorf("verify (-want +got):\n%s (%v)", diff, verr)
			}
		})
	}
}

// tamper changes the action signed into a token, keeping its signature.
func tamper(t *testing.T, token string) string {
	t.Helper()
	raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(token, models.TokenPrefix))
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(raw), "X-Amz-Expires=3600", "X-Amz-Expires=7200", 1)
	return models.TokenPrefix + base64.StdEncoding.EncodeToString([]byte(s))
}

// presignRaw builds a token with any X-Amz-Expires and payload hash, past
// the generator's own checks.
func presignRaw(t *testing.T, c sigv4.Credential, now time.Time, secs int, payload string) string {
	t.Helper()
	u := "https://runtime.models.us-east-1.cloud.example/?Action=CallWithBearerToken&X-Amz-Expires=" + strconv.Itoa(secs)
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, u, nil)
	signed, _, err := v4.NewSigner().PresignHTTP(context.Background(), aws.Credentials{AccessKeyID: c.AccessKeyID, SecretAccessKey: c.SecretAccessKey}, req, payload, "models", "us-east-1", now)
	if err != nil {
		t.Fatal(err)
	}
	return models.TokenPrefix + base64.StdEncoding.EncodeToString([]byte(strings.TrimPrefix(signed, "https://")+"&Version=1"))
}
