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
	config := func(trigger string) string {
		return fmt.Sprintf(`
terraform {
  required_providers {
    cloud = { source = "cloudlabs/cloud" }
  }
}

provider "cloud" {
  region        = %[1]q
  access_key    = %[2]q
  secret_key    = %[3]q
  session_token = %[4]q
  endpoints = {
    identity = %[5]q
    search   = %[5]q
    models   = %[5]q
  }
}

resource "cloud_identity_user" "u" {
  user_name = "secret-scan"
}

resource "cloud_identity_service_specific_credential" "k" {
  user_name           = cloud_identity_user.u.user_name
  service_name        = "models.cloud.example"
  credential_age_days = 30
  reset_triggers      = { rotation = %[6]q }
}

resource "cloud_search_domain_config" "pw" {
  domain_name = "demo"
  %[9]s
  advanced_security_options = {
    master_user_options = { master_user_name = "admin", master_user_password = %[7]q }
  }
}

resource "cloud_search_domain_config" "wo" {
  domain_name                     = "wodomain"
  %[9]s
  master_user_password_wo         = %[8]q
  master_user_password_wo_version = 1
}

ephemeral "cloud_models_short_term_api_key" "t" {
  expires_in = "1h"
}

locals {
  token_length = length(ephemeral.cloud_models_short_term_api_key.t.token)
}
`, e.Region(), accessKey, secretKey, sessionToken, e.URL, trigger, password, passwordWO, acceptOffPeak)
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
