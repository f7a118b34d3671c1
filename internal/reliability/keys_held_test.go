package reliability

import (
	"fmt"
	"strings"
	"testing"
)

// Two configurations and one key: nothing ever resets, adopts or deletes a
// key that another configuration holds, and never do two states hold one.

// importConfig is a second configuration, B, importing key id of user.
func importConfig(e *emu, user, id string) string {
	return e.providerBlock("") + fmt.Sprintf(`
import {
  to = cloud_identity_service_specific_credential.k
  id = "%s/%s"
}

resource "cloud_identity_service_specific_credential" "k" {
  user_name           = %q
  credential_age_days = 30
}
`, user, id, user)
}

// TestKeys_importRacesAdoption: A's key create is killed with the key
// made; B plans an import of that key (held false -> true, nothing
// written); A's next apply adopts it (reset and mark); B applies its saved
// plan. B stops, saying which configuration's tag holds the key, and
// writes nothing; its refresh and its destroy stop the same way, so A's
// key keeps working.
func TestKeys_importRacesAdoption(t *testing.T) {
	needProc(t)
	t.Parallel()
	e := newEmu(t)
	a := newWorkdir(t)
	user := "two-configs"
	userFirst(t, e, a, user)
	a.write(keysConfig(e, user, "1", ""))
	killDuring(t, e, a, "CreateServiceSpecificCredential", true)
	ids := e.Identity.CredentialIDs(user)
	if len(ids) != 1 {
		t.Fatalf("after the kill the user holds keys %v, want the 1 the create made", ids)
	}
	orphan := ids[0]

	b := newWorkdir(t)
	b.write(importConfig(e, user, orphan))
	if out, err := b.run("plan", "-input=false", "-out=tfplan"); err != nil {
		t.Fatalf("B's plan of the import: %v\n%s", err, out)
	} else if flat := strings.Join(strings.Fields(out), " "); !strings.Contains(flat, "held = false -> true") {
		t.Fatalf("B's plan does not plan the mark of the imported key:\n%s", out)
	}

	mustApply(t, a, "A's apply after the kill")
	id, value := oneWorkingKey(t, e, a, user)
	if id != orphan {
		t.Fatalf("A holds key %s, want the interrupted create's %s adopted", id, orphan)
	}
	tagsBefore := e.Identity.UserTags(user)

	out, err := b.run("apply", "-input=false", "tfplan")
	flat := strings.Join(strings.Fields(out), " ")
	if err == nil || !strings.Contains(flat, "Imported Key Held by Another Configuration") || !strings.Contains(flat, orphan) {
		t.Fatalf("B's apply of its saved import plan did not stop on A's mark (err %v):\n%s", err, out)
	}
	if after := e.Identity.UserTags(user); fmt.Sprint(after) != fmt.Sprint(tagsBefore) {
		t.Fatalf("B's apply rewrote the user's tags:\nbefore %v\nafter  %v", tagsBefore, after)
	}
	if out, _, err := b.plan(); err == nil || !strings.Contains(out, "Imported Key Held by Another Configuration") {
		t.Fatalf("B's next plan does not stop on A's mark (err %v):\n%s", err, out)
	}
	if out, err := b.destroy(); err == nil {
		t.Fatalf("B's destroy went through:\n%s", out)
	}
	if got, v := oneWorkingKey(t, e, a, user); got != id || v != value {
		t.Fatalf("A's key %s changed under B: now %s", id, got)
	}
	settled(t, e, a)
}
