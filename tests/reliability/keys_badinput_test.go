package reliability

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestBadInput_wholeNumbers: a number that is not whole, in an integer
// argument of the key or of the provider, is refused by terraform validate
// with an error on that argument, in words a user reads ("must be a whole
// number"), not as an error in the provider, and with no API call.
func TestBadInput_wholeNumbers(t *testing.T) {
	e, w := newEmu(t), newWorkdir(t)
	w.write(e.providerBlock("") + `
provider "cloud" {
  alias       = "fractional"
  max_retries = 1.5
}

resource "cloud_identity_user" "p" {
  provider  = cloud.fractional
  user_name = "p"
}

resource "cloud_identity_service_specific_credential" "age" {
  user_name           = "alice"
  credential_age_days = 1.5
}

resource "cloud_identity_service_specific_credential" "renew" {
  user_name           = "alice"
  credential_age_days = 30
  renew_before_days   = 2.5
}
`)
	out, err := w.run("validate", "-json")
	if err == nil {
		t.Fatalf("validate accepted the fractions:\n%s", out)
	}
	var doc struct {
		Diagnostics []jsonDiag `json:"diagnostics"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("validate -json: %v\n%s", err, out)
	}
	want := map[string]string{
		"max_retries":         "max_retries must be a whole number, such as 1 or 30; got 1.5.",
		"credential_age_days": "credential_age_days must be a whole number, such as 1 or 30; got 1.5.",
		"renew_before_days":   "renew_before_days must be a whole number, such as 1 or 30; got 2.5.",
	}
	for _, d := range doc.Diagnostics {
		if d.Severity != "error" {
			continue
		}
		if strings.Contains(d.Summary+d.Detail, "in the provider") || strings.Contains(d.Summary, "Value Conversion") {
			t.Errorf("an error in the provider instead of a validation message: %s: %s", d.Summary, d.Detail)
			continue
		}
		for attr, msg := range want {
			if d.Summary == "Invalid Whole Number" && d.Detail == msg {
				if d.Snippet == nil || !strings.Contains(d.Snippet.Code, attr) {
					t.Errorf("the error on %s does not point at it (snippet %+v)", attr, d.Snippet)
				}
				block := "cloud_identity_service_specific_credential"
				if attr == "max_retries" {
					block = "provider cloud"
				}
				addRow("bad input refused with no API call", badHead, attr+" not a whole number", block, attr, "validate", shorten(d.Summary+": "+d.Detail, 80))
				delete(want, attr)
			}
		}
	}
	for attr, msg := range want {
		t.Errorf("no error %q on %s; got:\n%s", msg, attr, out)
	}
	if calls := e.Calls(); len(calls) != 0 {
		t.Errorf("validate made %d API calls, first %+v", len(calls), calls[0])
	}
}
