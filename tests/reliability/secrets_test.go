package reliability

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/emulatortest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
	emusearch "github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/sigv4"
)

// shortTermToken matches any short-term key, whatever its value.
var shortTermToken = regexp.MustCompile(`models-api-key-[A-Za-z0-9+/=]{40,}`)

func randomSecret(prefix string) string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

// TestSecrets_notLeaked runs a configuration holding every kind of secret
// (temporary credentials with a session token, long-term key values before
// and after a reset, a master user password and its write-only twin, a
// short-term key) through apply, plan, show and destroy with TF_LOG=TRACE,
// then scans every log, the state and the plan JSON: no secret appears
// outside the Sensitive attributes of state and plan.
func TestSecrets_notLeaked(t *testing.T) {
	e, w := newEmu(t), newWorkdir(t)
	if err := e.Search.SetPace(emusearch.Pace{DryRun: 200 * time.Millisecond, BlueGreenStage: 300 * time.Millisecond, Dynamic: 200 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	if err := e.Search.AddDomain(emusearch.DomainSpec{DomainName: "wodomain"}); err != nil {
		t.Fatal(err)
	}
	accessKey := "SECRETSCANKEY0000001"
	secretKey := randomSecret("sk-")
	sessionToken := randomSecret("st-")
	password := randomSecret("Pw1!")
	passwordWO := randomSecret("Wo1!")
	e.Credentials().Add(sigv4.Credential{
		AccessKeyID: accessKey, SecretAccessKey: secretKey, SessionToken: sessionToken, Expires: time.Now().Add(2 * time.Hour),
		Principal: "arn:cloud:identity::123456789012:user/emulator-admin", Account: e.Account(),
	})
	providerBlock := e.ProviderConfig(emulatortest.RequiredProviders(), emulatortest.Credentials(accessKey, secretKey),
		emulatortest.ProviderArguments(fmt.Sprintf("  session_token = %q\n", sessionToken)))
	config := func(trigger string) string {
		return providerBlock + fmt.Sprintf(`

resource "cloud_identity_user" "u" {
  user_name = "secret-scan"
}

resource "cloud_identity_service_specific_credential" "k" {
  user_name           = cloud_identity_user.u.user_name
  service_name        = "models.cloud.example"
  credential_age_days = 30
  reset_triggers      = { rotation = %[1]q }
}

resource "cloud_search_domain_config" "pw" {
  domain_name = "demo"
  %[4]s
  advanced_security_options = {
    master_user_options = { master_user_name = "admin", master_user_password = %[2]q }
  }
}

resource "cloud_search_domain_config" "wo" {
  domain_name                     = "wodomain"
  %[4]s
  master_user_password_wo         = %[3]q
  master_user_password_wo_version = 1
}

ephemeral "cloud_models_short_term_api_key" "t" {
  expires_in = "1h"
}

locals {
  token_length = length(ephemeral.cloud_models_short_term_api_key.t.token)
}
`, trigger, password, passwordWO, acceptOffPeak)
	}
	logs := filepath.Join(w.dir, "logs")
	if err := os.MkdirAll(logs, 0o700); err != nil {
		t.Fatal(err)
	}
	step := 0
	trace := func(args ...string) string {
		t.Helper()
		step++
		logFile := filepath.Join(logs, fmt.Sprintf("%02d-%s.log", step, args[0]))
		out, err := w.runEnv([]string{"TF_LOG=TRACE", "TF_LOG_PATH=" + logFile}, args...)
		if err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, tail(out, 60))
		}
		if args[0] != "show" { // show -json output is scanned with its Sensitive values cut out
			if err := os.WriteFile(filepath.Join(logs, fmt.Sprintf("%02d-%s.stdout", step, args[0])), []byte(out), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		return out
	}
	keyValues := map[string]bool{}
	snapshot := func(name string) {
		t.Helper()
		// The state and a saved plan as JSON, with their Sensitive values
		// cut out, are scanned; the raw state file too.
		out := trace("show", "-json")
		stripped, values := stripSensitive(t, out)
		for _, v := range values {
			if strings.HasPrefix(v, "ACCA") || len(v) < 20 {
				continue
			}
			if st := w.state()["cloud_identity_service_specific_credential.k"]; st != nil && st["service_api_key_value"] == v {
				keyValues[v] = true
			}
		}
		writeScan(t, logs, name+"-state.json", stripped)
		raw, err := os.ReadFile(filepath.Join(w.dir, "terraform.tfstate"))
		if err != nil {
			t.Fatal(err)
		}
		writeScan(t, logs, name+"-tfstate.stripped", stripRawState(t, raw))
	}

	w.write(config("1"))
	trace("apply", "-auto-approve", "-input=false")
	snapshot("after-create")
	w.write(config("2")) // reset the key: a new value
	trace("plan", "-input=false", "-out=reset.tfplan")
	planJSON := trace("show", "-json", "reset.tfplan")
	stripped, _ := stripSensitive(t, planJSON)
	writeScan(t, logs, "reset-plan.json", stripped)
	if os.Getenv("RELIABILITY_KEEP") != "" {
		_ = os.WriteFile("/tmp/reset-plan.json", stripped, 0o600)
	}
	trace("apply", "-auto-approve", "-input=false", "reset.tfplan")
	snapshot("after-reset")
	trace("plan", "-input=false")
	trace("destroy", "-auto-approve", "-input=false")

	if len(keyValues) != 2 {
		t.Fatalf("collected %d long-term key values from state, want 2 (before and after the reset)", len(keyValues))
	}
	secrets := map[string]string{
		"secret_key": secretKey, "session_token": sessionToken,
		"master_user_password": password, "master_user_password_wo": passwordWO,
	}
	i := 0
	for v := range keyValues {
		i++
		secrets[fmt.Sprintf("service_api_key_value #%d", i)] = v
	}
	files, err := filepath.Glob(filepath.Join(logs, "*"))
	if err != nil {
		t.Fatal(err)
	}
	var bytes int64
	tokenSeen := false
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		bytes += int64(len(b))
		for name, v := range secrets {
			if strings.Contains(string(b), v) {
				t.Errorf("%s leaked into %s", name, filepath.Base(f))
			}
		}
		if m := shortTermToken.Find(b); m != nil {
			t.Errorf("a short-term key leaked into %s: %.30s...", filepath.Base(f), m)
		}
		if strings.Contains(string(b), "cloud_models_short_term_api_key") && strings.Contains(string(b), "OpenEphemeralResource") {
			tokenSeen = true
		}
	}
	if !tokenSeen {
		t.Errorf("no log shows the short-term key being opened, so its absence proves nothing")
	}
	if len(files) < 10 {
		t.Fatalf("only %d files scanned", len(files))
	}
	addNote("secrets: %d secret values (secret_key, session_token, master_user_password, master_user_password_wo, 2 long-term key values) and every short-term key (by pattern) scanned for in %d files (%d TRACE logs, CLI output, state and plan JSON, raw state; %.1f MB): none found outside Sensitive attributes",
		len(secrets), len(files), step, float64(bytes)/1e6)
}

func writeScan(t *testing.T, dir, name string, b []byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// stripSensitive removes from `terraform show -json` output (state or
// plan) every value its sensitive_values, before_sensitive or
// after_sensitive masks mark, and returns the rest and the values removed.
func stripSensitive(t *testing.T, out string) ([]byte, []string) {
	t.Helper()
	var doc any
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("show -json: %v\n%s", err, out)
	}
	var removed []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for _, pair := range [][2]string{{"values", "sensitive_values"}, {"before", "before_sensitive"}, {"after", "after_sensitive"}} {
				if mask, ok := v[pair[1]]; ok {
					v[pair[0]] = cut(v[pair[0]], mask, &removed)
				}
			}
			for _, c := range v {
				walk(c)
			}
		case []any:
			for _, c := range v {
				walk(c)
			}
		}
	}
	walk(doc)
	if m, ok := doc.(map[string]any); ok {
		// A plan's configuration and variables sections render what the
		// user wrote (here, literals in the .tf file), not anything the
		// provider produced.
		delete(m, "configuration")
		delete(m, "variables")
	}
	b, _ := json.Marshal(doc)
	return b, removed
}

func cut(v, mask any, removed *[]string) any {
	if m, ok := mask.(bool); ok && m {
		collect(v, removed)
		return "(sensitive)"
	}
	switch m := mask.(type) {
	case map[string]any:
		if o, ok := v.(map[string]any); ok {
			for k, mk := range m {
				if _, ok := o[k]; ok {
					o[k] = cut(o[k], mk, removed)
				}
			}
		}
	case []any:
		if a, ok := v.([]any); ok {
			for i := range a {
				if i < len(m) {
					a[i] = cut(a[i], m[i], removed)
				}
			}
		}
	}
	return v
}

func collect(v any, out *[]string) {
	switch v := v.(type) {
	case string:
		*out = append(*out, v)
	case map[string]any:
		for _, c := range v {
			collect(c, out)
		}
	case []any:
		for _, c := range v {
			collect(c, out)
		}
	}
}

// stripRawState removes from a terraform.tfstate the attributes each
// instance lists in sensitive_attributes.
func stripRawState(t *testing.T, raw []byte) []byte {
	t.Helper()
	var st struct {
		Resources []struct {
			Instances []map[string]any `json:"instances"`
		} `json:"resources"`
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &st); err != nil {
		t.Fatal(err)
	}
	for _, r := range st.Resources {
		for _, inst := range r.Instances {
			attrs, _ := inst["attributes"].(map[string]any)
			paths, _ := inst["sensitive_attributes"].([]any)
			for _, p := range paths {
				steps, _ := p.([]any)
				if len(steps) == 0 {
					// Newer Terraform: [{"type":"get_attr","value":"x"}] may be
					// wrapped in {"value": ..., "marks": [...]}.
					if m, ok := p.(map[string]any); ok {
						steps, _ = m["value"].([]any)
					}
				}
				dropPath(attrs, steps)
			}
		}
	}
	// Rebuild the document from the stripped instances.
	doc["resources"] = st.Resources
	b, _ := json.Marshal(doc)
	return b
}

func dropPath(v any, steps []any) {
	if len(steps) == 0 {
		return
	}
	s, _ := steps[0].(map[string]any)
	switch s["type"] {
	case "get_attr":
		o, ok := v.(map[string]any)
		name, _ := s["value"].(string)
		if !ok {
			return
		}
		if len(steps) == 1 {
			o[name] = "(sensitive)"
			return
		}
		dropPath(o[name], steps[1:])
	case "index":
		switch c := v.(type) {
		case map[string]any:
			key, _ := s["value"].(string)
			if len(steps) == 1 {
				c[key] = "(sensitive)"
				return
			}
			dropPath(c[key], steps[1:])
		case []any:
			f, _ := s["value"].(float64)
			if i := int(f); i >= 0 && i < len(c) {
				if len(steps) == 1 {
					c[i] = "(sensitive)"
					return
				}
				dropPath(c[i], steps[1:])
			}
		}
	}
}

// TestSecrets_echoedInPart has the emulator answer errors that quote part
// of a secret each request carried (the secret access key that signed it,
// its session token header, the master user password of UpdateDomainConfig
// in a dry run and a real one, the bearer key of a converse call), in the
// message and in the request id, through create, reset, plan and apply
// with TF_LOG=TRACE; and a successful dry run and change whose validation
// failures quote a new password. No CLI output, log, plan JSON or state
// holds a run of 12 characters of any of them; each is shown with ***.
func TestSecrets_echoedInPart(t *testing.T) {
	e, w := newEmu(t), newWorkdir(t)
	if err := e.Search.SetPace(emusearch.Pace{DryRun: 200 * time.Millisecond, BlueGreenStage: 300 * time.Millisecond, Dynamic: 200 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	accessKey := "ECHOSCANKEY000000001"
	secretKey := longSecret("sk-", 70)
	sessionToken := longSecret("st-", 70)
	password := longSecret("Pw1!", 60)
	// The second password is quoted by a dry run that succeeds.
	password2 := longSecret("Pw2!", 60)
	pw, accepted := password, acceptOffPeak
	e.Credentials().Add(sigv4.Credential{
		AccessKeyID: accessKey, SecretAccessKey: secretKey, SessionToken: sessionToken, Expires: time.Now().Add(2 * time.Hour),
		Principal: "arn:cloud:identity::123456789012:user/emulator-admin", Account: e.Account(),
	})
	providerBlock := e.ProviderConfig(emulatortest.RequiredProviders(), emulatortest.Credentials(accessKey, secretKey),
		emulatortest.ProviderArguments(fmt.Sprintf("  session_token = %q\n", sessionToken)))
	config := func(trigger string, converse bool) string {
		check := ""
		if converse {
			check = `
check "smoke" {
  data "cloud_models_converse" "c" {
    model_id = "test.model-v1"
    prompt   = "hello"
    api_key  = cloud_identity_service_specific_credential.k.service_api_key_value
  }
  assert {
    condition     = data.cloud_models_converse.c.text != ""
    error_message = "The model did not answer."
  }
}
`
		}
		return providerBlock + fmt.Sprintf(`

resource "cloud_identity_user" "u" {
  user_name = "echo-scan"
}

resource "cloud_identity_service_specific_credential" "k" {
  user_name           = cloud_identity_user.u.user_name
  service_name        = "models.cloud.example"
  credential_age_days = 30
  reset_triggers      = { rotation = %[1]q }
}

resource "cloud_search_domain_config" "pw" {
  domain_name = "demo"
  %[3]s
  advanced_security_options = {
    master_user_options = { master_user_name = "admin", master_user_password = %[2]q }
  }
}
%[4]s`, trigger, pw, accepted, check)
	}
	logs := filepath.Join(w.dir, "logs")
	if err := os.MkdirAll(logs, 0o700); err != nil {
		t.Fatal(err)
	}
	step := 0
	// run runs the CLI with TF_LOG=TRACE under faults (each hits one
	// request), keeps its log and output for the scan, and checks that
	// every fault was hit and that the output shows each quoted part as ***.
	run := func(wantErr bool, shown []string, faults []emulator.Fault, args ...string) string {
		t.Helper()
		for _, f := range faults {
			if err := e.InjectFault(f); err != nil {
				t.Fatal(err)
			}
		}
		step++
		logFile := filepath.Join(logs, fmt.Sprintf("%02d-%s.log", step, args[0]))
		out, err := w.runEnv([]string{"TF_LOG=TRACE", "TF_LOG_PATH=" + logFile}, args...)
		writeScan(t, logs, fmt.Sprintf("%02d-%s.stdout", step, args[0]), []byte(out))
		if (err != nil) != wantErr {
			t.Fatalf("step %d, %s: error %v, want one: %v\n%s", step, strings.Join(args, " "), err, wantErr, tail(out, 40))
		}
		for _, f := range e.Faults() {
			if f.Times > 0 {
				t.Fatalf("step %d: an echo fault was not hit (%+v)\n%s", step, f, tail(out, 40))
			}
		}
		flat := strings.Join(strings.Fields(out), " ")
		for _, want := range shown {
			if !strings.Contains(flat, want) {
				t.Errorf("step %d: the output does not show %q:\n%s", step, want, tail(out, 60))
			}
		}
		return out
	}
	echo := func(op, field, where string, chars, offset int) emulator.Fault {
		f := emulator.Fault{Operation: op, Kind: emulator.FaultEcho, Field: field, Where: where, Chars: chars, Offset: offset}
		if op == "UpdateDomainConfig" {
			f.DryRun = "only"
		}
		return f
	}
	realUpdate := echo("UpdateDomainConfig", "MasterUserPassword", emulator.EchoInRequestID, 40, 0)
	realUpdate.DryRun = "exclude"

	// The plan's dry run quotes 40 characters of the password: the
	// service refuses the change.
	w.write(config("1", false))
	run(true, []string{"the value '***' of the request's MasterUserPassword"}, []emulator.Fault{
		echo("UpdateDomainConfig", "MasterUserPassword", emulator.EchoInMessage, 40, 5),
	}, "plan", "-input=false")
	// Create: the key's create quotes the secret access key in its request
	// id, the real UpdateDomainConfig the password.
	run(true, []string{"(request id req-***)", "Unable to Create Identity Service Specific Credential", "Unable to Create Search Domain Config"}, []emulator.Fault{
		echo("CreateServiceSpecificCredential", emulator.EchoSecretAccessKey, emulator.EchoInRequestID, 40, 0),
		realUpdate,
	}, "apply", "-auto-approve", "-input=false")
	// The session token at the end of the message.
	run(true, []string{"the service refused the request's session_token: ***"}, []emulator.Fault{
		echo("CreateServiceSpecificCredential", emulator.EchoSessionToken, emulator.EchoAtMessageEnd, 500, 30),
	}, "apply", "-auto-approve", "-input=false")
	run(false, nil, nil, "apply", "-auto-approve", "-input=false")

	// A new password whose dry run succeeds (200) with an Advisory
	// validation failure quoting 40 of its characters, in the answer to
	// UpdateDomainConfig and to every DescribeDryRunProgress and
	// DescribeDomainChangeProgress after it: the plan's warning, the plan,
	// the apply and the state (dry_run.validation_failures) show ***.
	pw, accepted = password2, `accepted_warnings = ["ADV_BLUE_GREEN_OUTSIDE_OFF_PEAK", "`+emulator.EchoFailureCode+`"]`
	w.write(config("1", false))
	if err := e.InjectFault(emulator.Fault{Service: "search", Kind: emulator.FaultEcho, Field: "MasterUserPassword", Where: emulator.EchoInValidationFailure, Chars: 40, Offset: 4, Times: -1}); err != nil {
		t.Fatal(err)
	}
	run(false, []string{emulator.EchoFailureCode}, nil, "plan", "-input=false", "-out=quoted.tfplan")
	quotedPlan, err := w.run("show", "-json", "quoted.tfplan")
	if err != nil {
		t.Fatalf("show -json: %v\n%s", err, quotedPlan)
	}
	if !strings.Contains(quotedPlan, emulator.EchoFailureCode) {
		t.Errorf("the plan's dry run has no %s failure: the echo fault was not hit", emulator.EchoFailureCode)
	}
	stripped, _ := stripSensitive(t, quotedPlan)
	writeScan(t, logs, "quoted-plan.json", stripped)
	run(false, nil, nil, "apply", "-input=false", "quoted.tfplan")
	e.ClearFaults()
	quotedState := w.state()["cloud_search_domain_config.pw"]
	delete(quotedState, "advanced_security_options") // the password itself, Sensitive
	stateJSON, _ := json.Marshal(quotedState)
	if !strings.Contains(string(stateJSON), "***") {
		t.Errorf("the state's dry run does not show the quoted password as ***: %s", stateJSON)
	}
	writeScan(t, logs, "quoted-state.json", stateJSON)

	firstKey, _ := w.state()["cloud_identity_service_specific_credential.k"]["service_api_key_value"].(string)

	// Reset, with a smoke test of the key: the reset quotes 30 characters
	// of the secret access key; then converse quotes the new key at the
	// start of its message at apply, and in its request id at plan.
	w.write(config("2", true))
	run(true, []string{"the value '***' of the request's secret_access_key"}, []emulator.Fault{
		echo("ResetServiceSpecificCredential", emulator.EchoSecretAccessKey, emulator.EchoInMessage, 30, 10),
	}, "apply", "-auto-approve", "-input=false")
	run(false, []string{"*** was refused: injected fault quoting the request's bearer_token"}, []emulator.Fault{
		echo("Converse", emulator.EchoBearerToken, emulator.EchoAtMessageStart, 60, 0),
	}, "apply", "-auto-approve", "-input=false")
	secondKey, _ := w.state()["cloud_identity_service_specific_credential.k"]["service_api_key_value"].(string)
	run(false, []string{"(request id req-***)"}, []emulator.Fault{
		echo("Converse", emulator.EchoBearerToken, emulator.EchoInRequestID, 500, 0),
	}, "plan", "-input=false", "-out=echo.tfplan")
	planJSON, err := w.run("show", "-json", "echo.tfplan")
	if err != nil {
		t.Fatalf("show -json: %v\n%s", err, planJSON)
	}
	stripped, _ = stripSensitive(t, planJSON)
	writeScan(t, logs, "echo-plan.json", stripped)
	w.write(config("2", false))
	run(false, nil, nil, "destroy", "-auto-approve", "-input=false")

	if len(firstKey) < 40 || len(secondKey) < 40 || firstKey == secondKey {
		t.Fatalf("the key values from state are %d and %d characters long (equal: %v), want two different keys", len(firstKey), len(secondKey), firstKey == secondKey)
	}
	secrets := map[string]string{
		"secret_key": secretKey, "session_token": sessionToken, "master_user_password": password, "the second master user password": password2,
		"the first key value": firstKey, "the key value after the reset": secondKey,
	}
	files, err := filepath.Glob(filepath.Join(logs, "*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for name, v := range secrets {
			if i := echoedRun(string(b), v); i >= 0 {
				t.Errorf("12 characters of %s (from its character %d) are in %s", name, i, filepath.Base(f))
			}
		}
	}
	addNote("secrets echoed in part: 8 echo faults (secret access key at create and reset, session token, master user password in a dry run and a real update, bearer key at apply and plan; at the start, inside and at the end of the message and in the request id; a password in the validation failures of a successful dry run and change); no run of 12 characters of the 6 secrets in %d files (%d TRACE logs, CLI output, plan JSON, state)", len(files), step)
}

// longSecret is a random secret of n characters.
func longSecret(prefix string, n int) string {
	s := prefix
	for len(s) < n {
		s += randomSecret("")
	}
	return s[:n]
}

// echoedRun is the offset in secret of the first run of 12 of its
// characters that text holds, or -1.
func echoedRun(text, secret string) int {
	for i := 0; i+12 <= len(secret); i++ {
		if strings.Contains(text, secret[i:i+12]) {
			return i
		}
	}
	return -1
}
