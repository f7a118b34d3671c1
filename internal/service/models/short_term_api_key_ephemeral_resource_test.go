package models_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/cloudlabs/terraform-provider-cloud/internal/acctest"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/runtime"
)

// TestAccShortTermKey_expiry: the key works, then is refused once the
// emulator's clock passes its expiry.
func TestAccShortTermKey_expiry(t *testing.T) {
	emu := acctest.NewEmulator(t)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: emu.ProviderConfig() + shortTerm,
				Check:  lastUse(emu, runtime.ShortTerm, 200),
			},
			{
				PreConfig:   func() { emu.Clock().Advance(61 * time.Minute) },
				Config:      emu.ProviderConfig() + shortTerm,
				ExpectError: acctest.ErrorRe(`The short-term API key expired at`),
			},
		},
	})
}

// TestAccShortTermKey_denyPolicies: a LONG_TERM deny blocks long-term keys
// only; a SHORT_TERM deny blocks short-term keys only.
func TestAccShortTermKey_denyPolicies(t *testing.T) {
	emu := acctest.NewEmulator(t)
	pc := emu.ProviderConfig()
	long := converseDataAfter("home", keyValue, "", "cloud_identity_user_policy_attachment.p0, cloud_identity_user_policy_attachment.p1")
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				// LONG_TERM denied for the key's user and for the admin.
				PreConfig: func() {
					if _, err := emu.Identity.AttachPrincipalPolicy(emulatorAdmin, "deny-long", denyDoc("LONG_TERM")); err != nil {
						t.Fatal(err)
					}
				},
				Config:      keyConfig(pc, "bob", "", long+shortTerm, limitedAccess, "arn:cloud:identity::cloud:policy/DenyLongTermBearerTokens"),
				ExpectError: acctest.ErrorRe(`user/bob is not authorized to perform: models:CallWithBearerToken .* explicit deny .* LONG_TERM key`),
			},
			{
				Config: keyConfig(pc, "bob", "", shortTerm, limitedAccess, "arn:cloud:identity::cloud:policy/DenyLongTermBearerTokens"),
				Check:  lastUse(emu, runtime.ShortTerm, 200),
			},
			{
				// The reverse: SHORT_TERM denied for the admin and the user.
				PreConfig: func() {
					emu.Identity.DetachPrincipalPolicy(emulatorAdmin, "")
					if _, err := emu.Identity.AttachPrincipalPolicy(emulatorAdmin, "deny-short", denyDoc("SHORT_TERM")); err != nil {
						t.Fatal(err)
					}
				},
				Config: keyConfig(pc, "bob", "", long, limitedAccess, "arn:cloud:identity::cloud:policy/DenyShortTermBearerTokens"),
				Check:  lastUse(emu, runtime.LongTerm, 200),
			},
			{
				Config:      keyConfig(pc, "bob", "", long+shortTerm, limitedAccess, "arn:cloud:identity::cloud:policy/DenyShortTermBearerTokens"),
				ExpectError: acctest.ErrorRe(`user/emulator-admin is not authorized to perform: models:CallWithBearerToken .* explicit deny .* SHORT_TERM key`),
			},
		},
	})
}

// TestAccShortTermKey_neverStoredOrLogged runs with TRACE logs and checks
// that no state and no log line holds a short-term key the runtime saw.
// Not parallel: it sets process-wide log variables.
func TestAccShortTermKey_neverStoredOrLogged(t *testing.T) {
	emu := acctest.NewEmulator(t)
	dir := t.TempDir()
	t.Setenv("TF_ACC_LOG", "TRACE")
	t.Setenv("TF_ACC_LOG_PATH", filepath.Join(dir, "acc.log"))
	t.Setenv("TF_LOG", "TRACE")
	t.Setenv("TF_LOG_PROVIDER_CLOUD_HTTP", "TRACE")
	noTokenInState := func(s *terraform.State) error {
		for _, m := range s.Modules {
			for addr, r := range m.Resources {
				for k, v := range r.Primary.Attributes {
					if strings.Contains(v, "models-api-key-") || emu.Runtime.SawTokenHash(runtime.TokenHash(v)) {
						return fmt.Errorf("%s.%s holds a short-term key", addr, k)
					}
				}
			}
		}
		return lastUse(emu, runtime.ShortTerm, 200)(s)
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: emu.ProviderConfig() + shortTerm + `
resource "terraform_data" "marker" {
  input = "kept"
}
`,
			Check: noTokenInState,
		}},
	})
	checkLogs(t, emu, dir)
}

var tokenRe = regexp.MustCompile(`models-api-key-[A-Za-z0-9+/=]*`)

func checkLogs(t *testing.T, emu *acctest.Emulator, dir string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	size, sent := 0, false
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		size += len(b)
		// The provider's own HTTP log of the call must be there to look at.
		sent = sent || strings.Contains(string(b), "Converse")
		for _, m := range tokenRe.FindAllString(string(b), -1) {
			if m != "models-api-key-" || emu.Runtime.SawTokenHash(runtime.TokenHash(m)) {
				t.Errorf("%s holds a short-term key (%d characters)", filepath.Base(f), len(m))
			}
		}
	}
	if size == 0 || !sent {
		t.Fatalf("no TRACE log of the runtime call written in %s (%d bytes)", dir, size)
	}
	if n := len(emu.Runtime.Uses()); n == 0 {
		t.Fatal("the runtime was never called")
	}
}
