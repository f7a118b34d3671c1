package reliability

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/recovery"
)

// The floor: what no provider can keep. Terraform writes its state during
// an apply at most every 20 seconds, so a SIGKILL of terraform loses every
// object the apply made since its last write. A user whose create settled
// (its record cleared) or a key whose create marked it, and that no state
// holds, is such an object: nothing on the service tells it from a user or
// a key another configuration's state holds (Terraform gives a provider
// no identity of the configuration), so no next apply may take it back on
// its own without taking some day a colleague's. Its promise is the floor:
// the next apply names it and says what to do; once that is done, the
// apply after converges with every other promise kept. The cells are not
// listed by hand: lostBy reads them off the service after each kill.

// lost is what a killed apply settled and Terraform did not save.
type lost struct {
	user string   // the user, when its create settled and no state holds it
	keys []string // keys marked as held that no state holds
}

func (l lost) none() bool { return l.user == "" && len(l.keys) == 0 }

func (l lost) String() string {
	var parts []string
	if l.user != "" {
		parts = append(parts, "user "+l.user+" settled and unsaved")
	}
	if len(l.keys) != 0 {
		parts = append(parts, fmt.Sprintf("keys %v marked and unsaved", l.keys))
	}
	return strings.Join(parts, ", ")
}

// lostBy reads, after a kill and before the next apply, what the killed
// apply in w settled on user that no state holds: held lists the keys
// other states hold (a bystander's, another configuration's).
func lostBy(t *testing.T, e *emu, w *workdir, user string, held ...string) lost {
	t.Helper()
	st := w.state()
	var l lost
	if st[userAddr] == nil && apiUser(t, e, user) != nil && userRecord(e, user) == "" {
		l.user = user
	}
	for addr, k := range st {
		if strings.HasPrefix(addr, keyAddr) {
			id, _ := k["service_specific_credential_id"].(string)
			held = append(held, id)
		}
	}
	var tags []identityclient.Tag
	for k, v := range e.Identity.UserTags(user) {
		tags = append(tags, identityclient.Tag{Key: k, Value: v})
	}
	for _, id := range e.Identity.CredentialIDs(user) {
		if !slices.Contains(held, id) && recovery.MarkedElsewhere(tags, user, id) != nil {
			l.keys = append(l.keys, id)
		}
	}
	return l
}

// followAdvice checks that the apply after a kill (out, err) names what l
// says was lost and follows its advice as a user would: the user is
// imported (the refused create names terraform import), each key deleted
// (the warning Keys Possibly Held by No State names it: its value was lost
// with the run). It returns the last apply's output, what was done, what
// went wrong, and the last apply's error.
func (l lost) followAdvice(t *testing.T, e *emu, w *workdir, out string, err error) (string, string, []string, error) {
	t.Helper()
	var done, bad []string
	if l.user != "" {
		flat := strings.Join(strings.Fields(out), " ")
		if err == nil || !strings.Contains(flat, "already exists") || !strings.Contains(flat, "terraform import <address> "+l.user) {
			return out, "", []string{"the apply after the kill does not name the unsaved user " + l.user + " and its import: " + shorten(errorSummaries(out), 300)}, err
		}
		if iout, ierr := w.run("import", "-input=false", userAddr, l.user); ierr != nil {
			return out, "", []string{"the import the apply named failed: " + shorten(errorSummaries(iout), 300)}, err
		}
		done = append(done, "user imported as named")
		out, err = w.apply()
	}
	if len(l.keys) != 0 {
		// The apply names each: beside the key it creates (the warning),
		// or, when the unsaved key filled the user's last slot, in the
		// refusal of the create, which lists every key of the user with
		// its mark.
		flat := strings.Join(strings.Fields(out), " ")
		named := strings.Contains(flat, "Keys Possibly Held by No State") || (err != nil && strings.Contains(flat, "LimitExceeded"))
		for _, id := range l.keys {
			if !named || !strings.Contains(flat, id) {
				bad = append(bad, "the apply after the kill does not name the unsaved key "+id+": "+shorten(errorSummaries(out), 300))
			}
		}
		c := apiClient(t, e)
		for _, id := range l.keys {
			for _, u := range e.Identity.UserNames() {
				if slices.Contains(e.Identity.CredentialIDs(u), id) {
					if derr := c.DeleteServiceSpecificCredential(context.Background(), u, id); derr != nil {
						t.Fatalf("deleting the unsaved key %s as the warning advises: %v", id, derr)
					}
				}
			}
		}
		done = append(done, fmt.Sprintf("keys %v deleted as named", l.keys))
		if err != nil {
			out, err = w.apply()
		}
	}
	return out, "floor (" + l.String() + "): " + strings.Join(done, ", "), bad, err
}
