package client

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/terraform-plugin-log/tflogtest"
)

// Any run of 12 or more characters of a secret is replaced wherever it
// stands, as it is or escaped; a run of 11 and the text around it stay.
func TestEchoScrubber(t *testing.T) {
	t.Parallel()
	key := "ABSKQmVkcm9ja0FQSUtleS1leGFtcGxlLWtleS12YWx1ZS0wMTIzNDU2Nzg5YWJjZGVmZ2g" // 70 characters
	pw := `Pa"ss\word-<&>-ünïcode-1234`
	short := "Tiny8pw!"
	e := newEchoScrubber([]string{key, pw, short, ""})
	for _, tc := range []struct{ name, in, want string }{
		{"a 40-character prefix in a request id", "request id req-" + key[:40] + "-77", "request id req-***-77"},
		{"the whole key", "key " + key + ".", "key ***."},
		{"12 characters from the middle", "x" + key[30:42] + "y", "x***y"},
		{"11 characters stay", "x" + key[30:41] + "y", "x" + key[30:41] + "y"},
		{"the suffix", "ends " + key[50:], "ends ***"},
		{"two runs side by side are one", key[:20] + key[40:60], "***"},
		{"two runs apart", key[:12] + " and " + key[58:], "*** and ***"},
		{"JSON-escaped", `{"message":"bad password ` + strings.ReplaceAll(strings.ReplaceAll(pw, `\`, `\\`), `"`, `\"`) + `"}`, `{"message":"bad password ***"}`},
		{"XML-escaped", "<Message>bad " + `Pa&#34;ss\word-&lt;&amp;&gt;-ünïcode` + "</Message>", "<Message>bad ***</Message>"},
		{"form-encoded", "Password=Pa%22ss%5Cword-%3C%26%3E-%C3%BCn%C3%AFcode-1234&x=1", "Password=***&x=1"},
		{"a part of a multibyte password", "p: -ünïcode-1234", "p: ***"},
		{"a short secret, whole", "pw " + short + " end", "pw *** end"},
		{"a short secret in part stays", "pw " + short[:5], "pw " + short[:5]},
		{"nothing secret", "The request signature we calculated does not match.", "The request signature we calculated does not match."},
	} {
		if got := e.scrubString(tc.in); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
	if got := newEchoScrubber(nil).scrubString("plain"); got != "plain" {
		t.Errorf("no secrets: %q", got)
	}
}

// A secret is found however a service escapes it, not only as Go would:
// JSON escaping only " and \ or writing \u00e4 and \/, XML with a raw "
// or &quot; or a numeric entity, a form's lowercase %2f, %20 or +.
func TestEchoScrubberFindsEachServiceEscaping(t *testing.T) {
	t.Parallel()
	marks := `a"b<c"d>e"f&g"h<i"j>k"l&m`
	uni := "pässwörd/ünïcode 1234"
	e := newEchoScrubber([]string{marks, uni})
	for _, tc := range []struct{ name, in, want string }{
		{"JSON, only quote and backslash escaped", `{"message":"bad ` + strings.ReplaceAll(marks, `"`, `\"`) + `."}`, `{"message":"bad ***."}`},
		{"JSON, a part all \\u", `{"message":"bad \u0061\u0022\u0062\u003C\u0063\u0022\u0064\u003e\u0065\u0022\u0066\u0026."}`, `{"message":"bad ***."}`},
		{"JSON, \\u00e4 and \\/", `{"message":"bad p\u00e4ssw\u00f6rd\/\u00fcn\u00efcode 1234."}`, `{"message":"bad ***."}`},
		{"XML, a raw quote", `<Message>bad a"b&lt;c"d&gt;e"f&amp;g"h&lt;i"j&gt;k"l&amp;m.</Message>`, `<Message>bad ***.</Message>`},
		{"XML, &quot;", `<Message>bad a&quot;b&lt;c&quot;d&gt;e&quot;f&amp;g&quot;h&lt;i&quot;j&gt;k&quot;l&amp;m.</Message>`, `<Message>bad ***.</Message>`},
		{"XML, numeric entities", `<Message>bad p&#228;ssw&#xF6;rd/&#xfc;n&#239;code 1234.</Message>`, `<Message>bad ***.</Message>`},
		{"form, lowercase and %20", `Password=p%c3%a4ssw%c3%b6rd%2f%c3%bcn%c3%afcode%201234&x=.`, `Password=***&x=.`},
		{"form, +", `Password=p%C3%A4ssw%C3%B6rd%2F%C3%BCn%C3%AFcode+1234&x=.`, `Password=***&x=.`},
		{"form, the marks", `Password=a%22b%3cc%22d%3ee%22f%26g%22h%3ci%22j%3ek%22l%26m&x=.`, `Password=***&x=.`},
		{"a non-ASCII part in clear", `bad ässwörd/ünï.`, `bad ***.`},
	} {
		if got := e.scrubString(tc.in); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

// An error answer that echoes part of each secret the request carried, in
// its message and in its request id header, reaches neither the log nor
// the decoder with a run of 12 characters of one.
func TestAnswerEchoingPartOfSecretsIsScrubbed(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Amzn-RequestId", "req-"+apiKeyValue[:20]+"-"+sessionToken[3:19])
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"__type":"ValidationException","message":"bad password ` + passwordValue[2:16] +
			` from key ` + secretKey[:14] + ` bearer ` + r.Header.Get("Authorization")[len(r.Header.Get("Authorization"))-20:] + `"}`))
	}))
	t.Cleanup(srv.Close)
	c, err := New(Config{
		Region:      "us-east-1",
		Credentials: Credentials{AccessKeyID: "AKIDTESTTESTTEST01", SecretAccessKey: secretKey, SessionToken: sessionToken},
	}, "", srv.URL) // unsigned, so that the bearer token is the Authorization
	if err != nil {
		t.Fatal(err)
	}
	c.log = httpLog{level: hclog.Trace}
	var logged bytes.Buffer
	resp, err := c.Do(tflogtest.RootLogger(context.Background(), &logged), &Request{
		Operation: "UpdateDomainConfig", Method: http.MethodPost, Path: "/",
		Header: http.Header{"Authorization": {"Bearer " + apiKeyValue}}, Body: []byte("{}"),
		Secrets: []string{passwordValue},
	})
	if err != nil {
		t.Fatal(err)
	}
	seen := string(resp.Body) + " " + resp.Header.Get("X-Amzn-RequestId")
	for _, secret := range []string{secretKey, sessionToken, apiKeyValue, passwordValue} {
		for i := 0; i+minEchoRun <= len(secret); i++ {
			if run := secret[i : i+minEchoRun]; strings.Contains(seen, run) || strings.Contains(logged.String(), run) {
				t.Fatalf("a run of 12 characters of a secret (%d characters long, from offset %d) reached the decoder or the log", len(secret), i)
			}
		}
	}
	if want := `"message":"bad password *** from key *** bearer ***"`; !strings.Contains(string(resp.Body), want) {
		t.Errorf("the answer lost its shape: %s", resp.Body)
	}
	if got := resp.Header.Get("X-Amzn-RequestId"); got != "req-***-***" {
		t.Errorf("request id = %q, want req-***-***", got)
	}
}

func BenchmarkEchoScrubber(b *testing.B) {
	secrets := []string{secretKey, sessionToken, apiKeyValue, passwordValue, strings.Repeat("0123456789abcdef", 4)}
	answer := []byte(strings.Repeat(`{"__type":"ValidationException","message":"The value is not valid for this field."}`, 50))
	b.ReportAllocs()
	for b.Loop() {
		newEchoScrubber(secrets).scrub(answer)
	}
}

// The SDK's clients (the token service's) get their error answers scrubbed
// as Do's are, with logging off too: of the web identity token in the form
// body, of the session token header and of the secret access key the SDK
// signs with (SigningWith).
func TestSDKAnswerEchoingPartOfSecretsIsScrubbed(t *testing.T) {
	t.Parallel()
	webToken := "eyJhbGciOiJSUzI1NiJ9-" + strings.Repeat("d2ViLWlkZW50aXR5", 4)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		w.Header().Set("X-Amzn-RequestId", "req-"+r.Header.Get("X-Amz-Security-Token")[2:30])
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte("<ErrorResponse><Error><Code>InvalidIdentityToken</Code><Message>token " + r.PostForm.Get("WebIdentityToken")[5:45] +
			" is not valid</Message><Detail>signed with " + secretKey[3:30] + "</Detail></Error></ErrorResponse>"))
	}))
	t.Cleanup(srv.Close)
	hc := Config{Region: "us-east-1"}.SDKHTTPClient("sts")
	hc.Transport.(*loggingTransport).log = httpLog{level: hclog.Off} //nolint:forcetypeassert // made just above
	// The SDK signs with these; the request carries only the signature.
	hc = SigningWith(hc, credentials.NewStaticCredentialsProvider("AKIDTESTTESTTEST01", secretKey, ""))
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, srv.URL, strings.NewReader("Action=AssumeRoleWithWebIdentity&WebIdentityToken="+webToken))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Amz-Security-Token", sessionToken)
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	seen := string(b) + " " + resp.Header.Get("X-Amzn-RequestId")
	for _, secret := range []string{webToken, sessionToken, secretKey} {
		for i := 0; i+minEchoRun <= len(secret); i++ {
			if strings.Contains(seen, secret[i:i+minEchoRun]) {
				t.Fatalf("a run of 12 characters of a secret (%d characters long, from offset %d) reached the SDK", len(secret), i)
			}
		}
	}
	if got := resp.Header.Get("Content-Length"); got != strconv.Itoa(len(b)) || resp.ContentLength != int64(len(b)) {
		t.Errorf("Content-Length %q (field %d), the body scrubbed is %d bytes", got, resp.ContentLength, len(b))
	}
	if !strings.Contains(string(b), "<Message>token *** is not valid</Message><Detail>signed with ***</Detail>") || resp.Header.Get("X-Amzn-RequestId") != "req-***" {
		t.Errorf("the answer lost its shape: %s (request id %q)", b, resp.Header.Get("X-Amzn-RequestId"))
	}
}

// A success answer is scrubbed when the request carries a secret of its
// own or its context does (a dry run's validation failure quoting the
// password, read back later); other successes are left as they are.
func TestSuccessAnswerEchoingSecretsIsScrubbed(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(`{"ValidationFailures":[{"Message":"weak ` + passwordValue[1:15] + `"}]}`))
	}))
	t.Cleanup(srv.Close)
	c, err := New(Config{Region: "us-east-1"}, "", srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	get := func(ctx context.Context, secrets []string) string {
		resp, err := c.Do(ctx, &Request{Operation: "DescribeDryRunProgress", Method: http.MethodGet, Path: "/", Secrets: secrets})
		if err != nil {
			t.Fatal(err)
		}
		return string(resp.Body)
	}
	want := `{"ValidationFailures":[{"Message":"weak ***"}]}`
	if got := get(WithSecrets(context.Background(), passwordValue), nil); got != want {
		t.Errorf("with the password in the context: %s", got)
	}
	if got := get(context.Background(), []string{passwordValue}); got != want {
		t.Errorf("with the password in Secrets: %s", got)
	}
	if got := get(context.Background(), nil); !strings.Contains(got, passwordValue[1:15]) {
		t.Errorf("a request without secrets had its answer changed: %s", got)
	}
}

// An error answer is scrubbed of the credentials the request was signed
// with, those of the moment: a role session renewed after the client was
// made signs with a key the configuration never held.
func TestAnswerEchoingRenewedSigningKeyIsScrubbed(t *testing.T) {
	t.Parallel()
	renewed := "Rn3wdK9qZx7Lm2Pv8Tb4Yc6Hs1Gf5Dj0Wa9Ek3Uo"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusForbidden)
		_, _ = w.Write([]byte(`{"__type":"AccessDeniedException","message":"signed with ` + renewed[4:30] + `"}`))
	}))
	t.Cleanup(srv.Close)
	c, err := New(Config{
		Region:              "us-east-1",
		Credentials:         Credentials{AccessKeyID: "AKIDTESTTESTTEST01", SecretAccessKey: secretKey}, // as configured
		CredentialsProvider: credentials.NewStaticCredentialsProvider("ASIARENEWED0000001", renewed, ""),
	}, "es", srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Do(context.Background(), &Request{Operation: "DescribeDomainConfig", Method: http.MethodGet, Path: "/"})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"__type":"AccessDeniedException","message":"signed with ***"}`; string(resp.Body) != want {
		t.Errorf("answer %s, want %s", resp.Body, want)
	}
}
