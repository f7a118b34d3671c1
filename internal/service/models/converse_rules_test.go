package models

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/emulatortest"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
)

// TestConverseRulesAgree: the converse types' model_id and prompt, and
// the runtime's check of the path's model id and of the body's text, give
// the same verdict on values derived from the shared rules (rules.ModelID,
// rules.MessageText): each limit and one past, empty, a value of the
// form and one not of it. The prompt is sent as the provider sends it,
// the one user message's one text block. Every disagreement is printed.
func TestConverseRulesAgree(t *testing.T) {
	t.Parallel()
	// The harness's emulator without the provider (acctest imports this
	// package: a cycle).
	emu := emulatortest.New(t)
	ctx := context.Background()
	ic, err := identityclient.New(emu.ClientConfig(), emu.URL)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ic.CreateUser(ctx, identityclient.CreateUserInput{UserName: "rules"}); err != nil {
		t.Fatal(err)
	}
	if err := ic.AttachUserPolicy(ctx, "rules", "arn:cloud:identity::cloud:policy/ModelsLimitedAccess"); err != nil {
		t.Fatal(err)
	}
	_, key, err := emu.Identity.CreateCredentialBehindTheBack("rules", "models.cloud.example", 30, emu.Region())
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string][]validator.String{}
	for _, a := range converseAttributes() {
		byName[a.name] = a.validators
	}
	call := func(model, prompt string) (int, string) {
		body, _ := json.Marshal(map[string]any{"messages": []any{map[string]any{"role": "user", "content": []any{map[string]any{"text": prompt}}}}})
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, emu.URL+"/model/"+url.PathEscape(model)+"/converse", strings.NewReader(string(body)))
		req.Header.Set("Authorization", "Bearer "+key)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var m map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&m)
		msg, _ := m["message"].(string)
		return resp.StatusCode, msg
	}
	disagree := 0
	for _, tc := range []struct {
		attr, member string // member: the word the runtime's message names it by
		rule         rules.Value
	}{{"model_id", "model", rules.ModelID}, {"prompt", "text", rules.MessageText}} {
		for _, v := range derived(tc.rule) {
			var resp validator.StringResponse
			for _, x := range byName[tc.attr] {
				x.ValidateString(ctx, validator.StringRequest{Path: path.Root(tc.attr), ConfigValue: types.StringValue(v)}, &resp)
			}
			providerRefuses := resp.Diagnostics.HasError()
			model, prompt := "test.model-v1", "hello"
			if tc.attr == "model_id" {
				model = v
			} else {
				prompt = v
			}
			status, msg := call(model, prompt)
			if status != http.StatusOK && status != http.StatusBadRequest && status != http.StatusNotFound {
				t.Fatalf("%s = %.40q: HTTP %d %s", tc.attr, v, status, msg)
			}
			if emulatorRefuses := status != http.StatusOK; emulatorRefuses != providerRefuses {
				disagree++
				t.Errorf("%s = %.40q (%d characters): provider refuses %v, runtime refuses %v (HTTP %d %s)", tc.attr, v, len([]rune(v)), providerRefuses, emulatorRefuses, status, msg)
			} else if emulatorRefuses && !strings.Contains(strings.ToLower(msg), tc.member) {
				// A refusal for another reason is no agreement.
				disagree++
				t.Errorf("%s = %.40q: both refuse, but the runtime's message names no %s: %s", tc.attr, v, tc.member, msg)
			}
		}
	}
	if disagree > 0 {
		t.Logf("%d disagreements", disagree)
	}
}

// derived are the boundary values of a string rule.
func derived(r rules.Value) []string {
	out := []string{""}
	letter := "é"
	if r.Form != nil {
		out = append(out, r.Form.Example, "has space", "http://x")
		letter = "m"
	}
	if n := r.Length; n != nil {
		for _, k := range []int64{n.Min - 1, n.Min, n.Max, n.Max + 1} {
			if k >= 0 {
				out = append(out, strings.Repeat(letter, int(k)))
			}
		}
	}
	return append(out, "text")
}
