package models_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest/emulatortest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/runtime"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/sigv4"
)

// temporaryProvider is a provider block signing with temporary credentials
// the emulator accepts until sessionEnd.
func temporaryProvider(t *testing.T, emu *acctest.Emulator, sessionEnd time.Time, withExpiration bool) string {
	t.Helper()
	emu.Credentials().Add(sigv4.Credential{
		AccessKeyID: "ASIATEMPORARY000001", SecretAccessKey: "temporary-secret", SessionToken: "session-token-1",
		Expires: sessionEnd, Principal: "arn:cloud:identity::" + emu.Account() + ":user/emulator-admin", Account: emu.Account(),
	})
	args := "  session_token = \"session-token-1\"\n"
	if withExpiration {
		args += fmt.Sprintf("  session_expiration = %q\n", sessionEnd.UTC().Format(time.RFC3339))
	}
	return emu.ProviderConfig(emulatortest.Credentials("ASIATEMPORARY000001", "temporary-secret"), emulatortest.ProviderArguments(args))
}

// lastShortTermExpiry checks when the last short-term key the runtime saw
// stops working.
func lastShortTermExpiry(emu *acctest.Emulator, want time.Time) resource.TestCheckFunc {
	return func(*terraform.State) error {
		uses := emu.Runtime.Uses()
		for i := len(uses) - 1; i >= 0; i-- {
			if u := uses[i]; u.TokenType == runtime.ShortTerm {
				if u.Status != 200 || !u.KeyExpires.Equal(want) {
					return fmt.Errorf("last short-term key: status %d, expires %s; want 200 and %s (the session's end)", u.Status, u.KeyExpires.Format(time.RFC3339), want.Format(time.RFC3339))
				}
				return nil
			}
		}
		return fmt.Errorf("no short-term key reached the runtime")
	}
}

// A short-term key made from temporary credentials never outlives their
// session: asked for 12 hours with 30 minutes of session left, it carries
// X-Amz-Expires of the 30 minutes, so the runtime takes it as ending at the
// session's end (the spec: "at most 12 hours, or the session duration if
// shorter").
func TestAccShortTermKey_sessionCapsLifetime(t *testing.T) {
	emu := acctest.NewEmulator(t)
	sessionEnd := emu.Clock().Now().Add(30 * time.Minute).Truncate(time.Second)
	cfg := temporaryProvider(t, emu, sessionEnd, true) + `
ephemeral "cloud_models_short_term_api_key" "test" {
  expires_in = "12h"
}

ephemeral "cloud_models_converse" "short" {
  model_id = "test.model-v1"
  prompt   = "hello short"
  api_key  = ephemeral.cloud_models_short_term_api_key.test.token
}
`
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: cfg, Check: lastShortTermExpiry(emu, sessionEnd)},
			{
				PreConfig: func() { emu.Clock().Advance(31 * time.Minute) },
				Config:    cfg,
				// Past the session's end no key can be made at all: the
				// provider's credential check says the session expired.
				ExpectError: acctest.ErrorRe(`Expired Credentials.*session token.*has expired`),
			},
		},
	})
}

// session_expiration needs a session token and an RFC 3339 time; each
// mistake is an error on the argument.
func TestAccProvider_sessionExpirationRefused(t *testing.T) {
	emu := acctest.NewEmulator(t)
	bad := func(body string) string {
		return emu.ProviderConfig(emulatortest.ProviderArguments(body)) + `
ephemeral "cloud_models_short_term_api_key" "test" {}
`
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: bad(`session_expiration = "2030-01-01T00:00:00Z"`), PlanOnly: true, ExpectError: acctest.ErrorRe(`Session Expiration Without Session Token`)},
			{Config: bad(`session_token = "t"
  session_expiration = "tomorrow"`), PlanOnly: true, ExpectError: acctest.ErrorRe(`Invalid Session Expiration.*"tomorrow".*not an RFC 3339 time`)},
		},
	})
}

// With assume_role a key never outlives the role session that signed it,
// and once that session has ended the provider takes a new one for new
// keys: with 15-minute sessions and the clock moved 16 minutes on, a new
// key works and ends within the new session (4 to 5 minutes before its end,
// when the provider would renew it).
func TestAccShortTermKey_roleSessionRenewed(t *testing.T) {
	emu := acctest.NewEmulator(t)
	role, err := emu.Identity.PutRole("model-caller",
		[]byte(`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"AWS":"`+emulatorAdmin+`"},"Action":"sts:AssumeRole"}]}`),
		[]string{limitedAccess}, 0)
	if err != nil {
		t.Fatal(err)
	}
	cfg := fmt.Sprintf(`
provider "cloud" {
  region     = %q
  access_key = %q
  secret_key = %q
  assume_role {
    role_arn = %q
    duration = "15m"
  }
  endpoints = {
    identity = %q
    search   = %q
    models   = %q
  }
}

ephemeral "cloud_models_short_term_api_key" "test" {
  expires_in = "12h"
}

ephemeral "cloud_models_converse" "test" {
  model_id = "test.model-v1"
  prompt   = "hello"
  api_key  = ephemeral.cloud_models_short_term_api_key.test.token
}
`, emu.Region(), emu.AccessKeyID(), emu.SecretAccessKey(), role.Arn, emu.URL, emu.URL, emu.URL)
	var firstEnd time.Time
	// withinSession checks the last short-term key: accepted, made by a
	// session of the role begun at the step's start, and ending within it.
	withinSession := func(start *time.Time) resource.TestCheckFunc {
		return func(*terraform.State) error {
			uses := emu.Runtime.Uses()
			for i := len(uses) - 1; i >= 0; i-- {
				u := uses[i]
				if u.TokenType != runtime.ShortTerm {
					continue
				}
				sessionEnd := emu.Clock().Now().Add(15 * time.Minute)
				if u.Status != 200 || !strings.Contains(u.Principal, "role/model-caller") {
					return fmt.Errorf("last short-term key: status %d, principal %s; want 200 from a session of role/model-caller", u.Status, u.Principal)
				}
				if u.KeyExpires.After(sessionEnd) || u.KeyExpires.Before(start.Add(15*time.Minute-5*time.Minute-time.Minute)) {
					return fmt.Errorf("the key ends %s: want within the 15-minute session begun at %s, 4 to 5 minutes before its end", u.KeyExpires.Format(time.RFC3339), start.Format(time.RFC3339))
				}
				firstEnd = u.KeyExpires
				return nil
			}
			return fmt.Errorf("no short-term key reached the runtime")
		}
	}
	var start1, start2 time.Time
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{PreConfig: func() { start1 = emu.Clock().Now() }, Config: cfg, Check: withinSession(&start1)},
			{
				PreConfig: func() {
					emu.Clock().Advance(16 * time.Minute) // the first session has ended
					start2 = emu.Clock().Now()
					if !firstEnd.Before(start2) {
						t.Errorf("the first key (ends %s) is still valid at %s", firstEnd, start2)
					}
				},
				Config: cfg, Check: withinSession(&start2),
			},
		},
	})
}
