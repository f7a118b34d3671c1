package emulator_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/sigv4"
)

// Interop tests: standard clients, signing as they do, against an emulator
// the test starts. They skip, saying why, where the client is not
// installed; nothing is downloaded.

// startServer serves e on loopback with the emulator's timeouts.
func startServer(t *testing.T, e *emulator.Emulator) *httptest.Server {
	t.Helper()
	srv := httptest.NewUnstartedServer(e)
	emulator.ConfigureServer(srv.Config)
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

func needBotocore(t *testing.T) string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("interop with botocore skipped: no python3 on PATH")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if out, err := exec.CommandContext(ctx, py, "-c", "import botocore").CombinedOutput(); err != nil {
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		t.Skipf("interop with botocore skipped: `python3 -c 'import botocore'` fails (pip install botocore): %v: %s", err, lines[len(lines)-1])
	}
	return py
}

type botoCall struct {
	Kind    string            `json:"kind"`
	Service string            `json:"service,omitempty"`
	Region  string            `json:"region"`
	Params  map[string]string `json:"params,omitempty"`
	Tamper  bool              `json:"tamper,omitempty"`
	Method  string            `json:"method,omitempty"`
	Path    string            `json:"path,omitempty"`
	Body    string            `json:"body,omitempty"`
	Host    string            `json:"host,omitempty"`
	Expires int               `json:"expires,omitempty"`
}

type botoAnswer struct {
	Status int    `json:"status"`
	Body   string `json:"body"`
	Token  string `json:"token"`
}

// runBotocore runs testdata/botocore_client.py with one job.
func runBotocore(t *testing.T, py, endpoint string, cred sigv4.Credential, calls []botoCall) []botoAnswer {
	t.Helper()
	job, err := json.Marshal(map[string]any{
		"endpoint": endpoint,
		"credentials": map[string]string{
			"access_key_id": cred.AccessKeyID, "secret_access_key": cred.SecretAccessKey, "session_token": cred.SessionToken,
		},
		"calls": calls,
	})
	if err != nil {
		t.Fatal(err)
	}
	if cred.SessionToken == "" {
		job = bytes.Replace(job, []byte(`"session_token":""`), []byte(`"session_token":null`), 1)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, filepath.Join("testdata", "botocore_client.py"))
	cmd.Stdin = bytes.NewReader(job)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("botocore_client.py: %v\n%s", err, stderr.String())
	}
	var answers []botoAnswer
	if err := json.Unmarshal(out, &answers); err != nil || len(answers) != len(calls) {
		t.Fatalf("botocore_client.py answered %q (%v)", out, err)
	}
	return answers
}

// TestInteropBotocore signs requests with botocore.auth.SigV4Auth, as boto3
// and the AWS CLI do (content-length unsigned, no X-Amz-Content-Sha256,
// content-type signed), and short-term keys with SigV4QueryAuth, as the
// official token generators do.
func TestInteropBotocore(t *testing.T) {
	t.Parallel()
	py := needBotocore(t)
	e := emulator.New(emulator.Options{})
	srv := startServer(t, e)
	admin := sigv4.Credential{AccessKeyID: e.AccessKeyID(), SecretAccessKey: e.SecretAccessKey()}
	session := sigv4.Credential{
		AccessKeyID: "ASIAINTEROP00000001", SecretAccessKey: "interop-session-secret", SessionToken: "interop/session+token=",
		Expires: e.Clock().Now().Add(time.Hour), Principal: "arn:cloud:identity::123456789012:user/emulator-admin", Account: e.Account(),
	}
	e.Credentials().Add(session)
	u, _ := url.Parse(srv.URL)
	query := func(service string, params map[string]string) botoCall {
		params["Version"] = "2010-05-08"
		return botoCall{Kind: "query", Service: service, Region: "us-east-1", Params: params}
	}
	tampered := query("identity", map[string]string{"Action": "CreateUser", "UserName": "tampered"})
	tampered.Tamper = true
	dryRun := `{"DryRun": true, "DryRunMode": "Basic", "SnapshotOptions": {"AutomatedSnapshotStartHour": 3}}`

	calls := []botoCall{
		query("identity", map[string]string{"Action": "CreateUser", "UserName": "boto-user", "Path": "/interop/"}),
		query("identity", map[string]string{"Action": "CreateUser", "UserName": "boto-user-2"}),
		query("identity", map[string]string{"Action": "ListUsers", "MaxItems": "1"}),
		{Kind: "rest", Service: "search", Region: "us-east-1", Method: http.MethodGet, Path: "/2021-01-01/search/domain/demo/config"},
		{Kind: "rest", Service: "search", Region: "us-east-1", Method: http.MethodPost, Path: "/2021-01-01/search/domain/demo/config", Body: dryRun},
		{Kind: "rest", Service: "search", Region: "us-east-1", Method: http.MethodPost, Path: "/2021-01-01/search/domain/demo/config", Body: dryRun, Tamper: true},
		tampered,
		query("iam", map[string]string{"Action": "ListUsers"}),
		{Kind: "token", Region: "us-east-1", Host: u.Host, Expires: 900},
	}
	got := runBotocore(t, py, srv.URL, admin, calls)
	checks := []struct {
		name   string
		status int
		in     string
	}{
		{"CreateUser (Query POST)", 200, "<UserName>boto-user</UserName>"},
		{"CreateUser without a path", 200, "<Arn>arn:cloud:identity::123456789012:user/boto-user-2</Arn>"},
		{"ListUsers, one a page", 200, "<IsTruncated>true</IsTruncated>"},
		{"search GET (signing name search)", 200, `"DomainConfig"`},
		{"search POST with a JSON body", 200, `"DeploymentType"`},
		{"search POST, body changed after signing", 403, `"__type":"InvalidSignatureException","message":"The request signature we calculated does not match`},
		{"Query POST, body changed after signing", 403, "<Code>SignatureDoesNotMatch</Code>"},
		{"signed for iam", 403, "<Code>SignatureDoesNotMatch</Code><Message>Credential should be scoped to correct service: &#39;identity&#39;.</Message>"},
	}
	for i, c := range checks {
		if got[i].Status != c.status || !strings.Contains(got[i].Body, c.in) {
			t.Errorf("%s: got %d %s\nwant %d with %s", c.name, got[i].Status, got[i].Body, c.status, c.in)
		}
	}
	if users := e.Identity.UserNames(); strings.Join(users, ",") != "boto-user,boto-user-2" {
		t.Errorf("users %v: a refused request changed the state", users)
	}

	// Session credentials: the token is signed into the request.
	sess := runBotocore(t, py, srv.URL, session, []botoCall{
		query("identity", map[string]string{"Action": "GetUser", "UserName": "boto-user"}),
		{Kind: "token", Region: "us-east-1", Host: u.Host, Expires: 900},
	})
	if sess[0].Status != 200 || !strings.Contains(sess[0].Body, "<UserName>boto-user</UserName>") {
		t.Errorf("GetUser with session credentials: %d %s", sess[0].Status, sess[0].Body)
	}

	// Short-term keys the official way, on the runtime.
	for name, token := range map[string]string{"long-term credentials": got[len(got)-1].Token, "session credentials": sess[1].Token} {
		if !strings.HasPrefix(token, sigv4.BearerPrefix) {
			t.Fatalf("%s: botocore made no key: %q", name, token)
		}
		status, body := converse(t, srv.URL, token)
		if status != 200 || !strings.Contains(body, `"text":"hello"`) {
			t.Errorf("runtime with a botocore key of %s: %d %s", name, status, body)
		}
	}
	e.Clock().Advance(15 * time.Minute)
	if status, body := converse(t, srv.URL, got[len(got)-1].Token); status != 403 || !strings.Contains(body, "ExpiredTokenException") {
		t.Errorf("an expired botocore key: %d %s", status, body)
	}
}

func converse(t *testing.T, base, token string) (int, string) {
	t.Helper()
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, base+"/model/m1/converse",
		strings.NewReader(`{"messages":[{"role":"user","content":[{"text":"hello"}]}]}`))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestInteropAWSCLI drives the AWS CLI. Its own `aws iam ...` commands sign
// for service iam, which the emulator refuses with the signing-name error;
// given a service model whose signing name is identity
// (testdata/aws-data, through AWS_DATA_PATH), `aws identity ...` works,
// and `list-users` pages through the emulator's markers.
func TestInteropAWSCLI(t *testing.T) {
	t.Parallel()
	aws, err := exec.LookPath("aws")
	if err != nil {
		t.Skip("interop with the AWS CLI skipped: no aws on PATH (pip install awscli)")
	}
	e := emulator.New(emulator.Options{})
	srv := startServer(t, e)
	c := identityClient(t, e, srv.URL)
	for i := range 4 {
		if _, err := c.CreateUser(context.Background(), identityclient.CreateUserInput{UserName: fmt.Sprintf("go-%d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	dataPath, err := filepath.Abs(filepath.Join("testdata", "aws-data"))
	if err != nil {
		t.Fatal(err)
	}
	none := filepath.Join(t.TempDir(), "none")
	env := []string{
		"AWS_ACCESS_KEY_ID=" + e.AccessKeyID(), "AWS_SECRET_ACCESS_KEY=" + e.SecretAccessKey(),
		"AWS_DEFAULT_REGION=us-east-1", "AWS_CONFIG_FILE=" + none, "AWS_SHARED_CREDENTIALS_FILE=" + none,
		"AWS_DATA_PATH=" + dataPath, "AWS_MAX_ATTEMPTS=1", "AWS_EC2_METADATA_DISABLED=true", "AWS_PAGER=",
	}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "AWS_") {
			env = append(env, kv)
		}
	}
	run := func(args ...string) (string, string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, aws, append(args, "--endpoint-url", srv.URL, "--output", "json")...)
		cmd.Env = env
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		return stdout.String(), stderr.String(), err
	}

	if out, stderr, err := run("identity", "create-user", "--user-name", "cli-user"); err != nil || !strings.Contains(out, `"UserName": "cli-user"`) {
		t.Fatalf("aws identity create-user: %v\n%s%s", err, out, stderr)
	}
	e.ClearCalls()
	out, stderr, err := run("identity", "list-users", "--page-size", "2")
	if err != nil {
		t.Fatalf("aws identity list-users: %v\n%s", err, stderr)
	}
	var listed struct{ Users []struct{ UserName string } }
	if err := json.Unmarshal([]byte(out), &listed); err != nil {
		t.Fatalf("aws identity list-users printed %q: %v", out, err)
	}
	var names []string
	for _, u := range listed.Users {
		names = append(names, u.UserName)
	}
	if strings.Join(names, ",") != "cli-user,go-0,go-1,go-2,go-3" || e.CountCalls("ListUsers", false) != 3 {
		t.Errorf("aws identity list-users --page-size 2: %v in %d calls, want 5 users in 3 pages", names, e.CountCalls("ListUsers", false))
	}

	_, stderr, err = run("iam", "list-users")
	want := "An error occurred (SignatureDoesNotMatch) when calling the ListUsers operation: Credential should be scoped to correct service: 'identity'."
	if err == nil || !strings.Contains(stderr, want) {
		t.Errorf("aws iam list-users: %v, stderr %q, want %q", err, stderr, want)
	}
}

// identityClient is the provider's identity client aimed at base.
func identityClient(t *testing.T, e *emulator.Emulator, base string) *identityclient.Client {
	t.Helper()
	c, err := identityclient.New(client.Config{
		Region:      e.Region(),
		Credentials: client.Credentials{AccessKeyID: e.AccessKeyID(), SecretAccessKey: e.SecretAccessKey()},
		MaxRetries:  -1,
	}, base)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// A delay fault longer than the server's read timeout still answers: the
// read deadline covers the request, not the time the answer is held.
func TestDelayOutlastsReadTimeout(t *testing.T) {
	t.Parallel()
	e := emulator.New(emulator.Options{})
	srv := httptest.NewUnstartedServer(e)
	emulator.ConfigureServer(srv.Config)
	srv.Config.ReadTimeout = 200 * time.Millisecond
	srv.Start()
	t.Cleanup(srv.Close)
	if err := e.InjectFault(emulator.Fault{Operation: "CreateUser", Kind: emulator.FaultDelay, Delay: 600 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := identityClient(t, e, srv.URL).CreateUser(context.Background(), identityclient.CreateUserInput{UserName: "patient"}); err != nil {
		t.Fatalf("a delayed answer past the read timeout: %v", err)
	}
	if d := time.Since(start); d < 600*time.Millisecond {
		t.Errorf("answered after %s, before the delay", d)
	}
}
