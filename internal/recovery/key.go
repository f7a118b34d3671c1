package recovery

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
)

// Key is one create of a key, as the resource asks for it.
type Key struct {
	Client *identityclient.Client
	Input  identityclient.CreateServiceSpecificCredentialInput
	// Want is what the plan asks of the key, for deciding whether an
	// orphan can stand for it.
	Want WantKey
	// Window is how long after it starts the create can land a key
	// (CreateWindow).
	Window time.Duration
	// Made are the users this run created; nil for none.
	Made MadeUsers
	// Ours are the keys this run created or adopted; nil for none.
	Ours OwnKeys
}

// WantKey is what the plan asks of a key's lifetime.
type WantKey struct {
	AgeDays         int64 // 0: a key that never expires
	RenewBeforeDays int64 // 0: unset
}

// keyCreate is one key create under way.
type keyCreate struct {
	Key
	idc  *identityclient.Client
	user string
	// nonce names this create in the records and claims it writes.
	nonce string
	clock client.ServiceClock
	// own is this create's record, once it stands on the user.
	own *record
	// swept is set once a look has looked for stale marks.
	swept bool
	// noted is set once a look has noted young marks (noteUnsaved).
	noted bool
	// skipped is set while the create goes on without the look
	// (recoverFirst).
	skipped bool
	notes   []KeyNote
}

// CreateKey creates the key k asks for, or adopts an orphan that can stand
// for it. In order: recover what interrupted creates left (waiting while
// other runs' creates may still land a key), record this create on the
// user, send it, and settle the record by how it ended.
func CreateKey(ctx context.Context, k Key) KeyOutcome {
	c := &keyCreate{Key: k, idc: k.Client, user: k.Input.UserName, nonce: newNonce()}
	end := c.run(ctx)
	out := KeyOutcome{End: end, Notes: c.notes}
	if key := out.Key(); key != nil && k.Ours != nil {
		k.Ours.Add(key.ServiceSpecificCredentialID)
	}
	return out
}

func (c *keyCreate) run(ctx context.Context) KeyEnd {
	end, record := c.recoverFirst(ctx)
	if end != nil {
		return end
	}
	if record {
		c.begin(ctx)
	}
	made, err := c.idc.CreateServiceSpecificCredential(ctx, c.Input)
	var apiErr *client.APIError
	switch {
	case err == nil:
		if c.own != nil {
			c.settle(ctx, made)
		}
		return KeyCreated{Key: made}
	case errors.As(err, &apiErr):
		if c.own != nil {
			untagLogged(ctx, c.idc, c.user, "Could not remove the record of a key create from its user", c.own.ID)
			c.own = nil
		}
		if c.skipped && errors.Is(err, client.ErrLimitExceeded) {
			// Nothing was created: look, recover and send once more (the
			// look is not skipped again).
			c.skipped, c.Made = false, nil
			return c.run(ctx)
		}
		if errors.Is(err, client.ErrLimitExceeded) {
			return KeyRefused{Err: err, Keys: c.keysOnUser(ctx)}
		}
		return KeyRefused{Err: err}
	case errors.Is(err, client.ErrOutcomeUnknown):
		if c.own == nil {
			return KeyAnswerLost{Err: err}
		}
		return c.findLost(ctx, err)
	}
	if c.own == nil {
		return KeyInterrupted{Err: err}
	}
	return KeyInterrupted{Record: c.own.ID, Until: c.own.Deadline.Add(clockMargin), Err: err}
}

// recoverFirst waits while other runs' creates may still land a key, then
// recovers the creates that are over. It returns how the create ended
// when recovery ended it (an adoption, or a failure), or else whether the
// create can be recorded. A user this run made has no record to recover
// (doc.go): the service's clock comes from its CreateDate, and nothing is
// read.
func (c *keyCreate) recoverFirst(ctx context.Context) (end KeyEnd, record bool) {
	if c.Made != nil {
		if clock, ok := c.Made.Created(c.user); ok {
			c.clock, c.skipped = clock, true
			return nil, true
		}
	}
	v, err := c.waitOut(ctx, nil)
	switch {
	case errors.Is(err, client.ErrAccessDenied):
		c.notes = append(c.notes, KeyRecoveryDenied{Err: err})
		return nil, false
	case errors.Is(err, client.ErrNotFound):
		return nil, false // no user: the create says so
	case err != nil:
		var busy *RecordsInFlight
		if errors.As(err, &busy) {
			return KeyWaitedOut{InFlight: *busy}, false
		}
		return KeyLookFailed{Err: err}, false
	}
	return c.recover(ctx, v, nil), true
}

// begin records the create on the user, as the service's clock has it;
// a create that cannot be recorded is made all the same, with a note.
func (c *keyCreate) begin(ctx context.Context) {
	started := c.clock.Now().Truncate(time.Second)
	e := record{ID: tagRecord + c.nonce, Started: started, Deadline: started.Add(c.Window)}
	tag := recordTag(c.nonce, c.Input.ServiceName, e.Started, e.Deadline)
	if err := c.idc.TagUser(ctx, c.user, []identityclient.Tag{tag}); err != nil {
		c.notes = append(c.notes, KeyNotRecorded{Err: err})
		return
	}
	c.own = &e
}

// settle turns the record into the new key's mark (settledTag): one
// TagUser on the record's own tag key replaces the record with the mark,
// so the key is held and no record of it is left in one call (see
// bookkeeping: an interrupted run does it too). When that write fails,
// the record is removed all the same, as hold does: past its deadline it
// would have a later recovery take this key, which the state holds, for
// an orphan. A write that got no answer is sent once more first: it may
// have written the mark, which has the record's tag key, so the removal
// would take the mark.
func (c *keyCreate) settle(ctx context.Context, made *identityclient.ServiceSpecificCredential) {
	actx, cancel := bookkeeping(ctx)
	defer cancel()
	id, own := made.ServiceSpecificCredentialID, *c.own
	mark := []identityclient.Tag{settledTag(own.ID, id, c.clock.Now())}
	terr := c.idc.TagUser(actx, c.user, mark)
	var apiErr *client.APIError
	if terr != nil && !errors.As(terr, &apiErr) {
		terr = c.idc.TagUser(actx, c.user, mark)
	}
	if terr == nil {
		return
	}
	c.notMarked(id, own, terr, c.idc.UntagUser(actx, c.user, []string{own.ID}))
}

// findLost waits, for as long as the service may still apply the request,
// for the key of this create, whose answer was lost, and adopts it.
func (c *keyCreate) findLost(ctx context.Context, createErr error) KeyEnd {
	own := c.own
	until := own.Deadline.Add(clockMargin)
	tflog.Info(ctx, "CreateServiceSpecificCredential answer lost: looking among the user's keys for the key it made, until the create can no longer land one", map[string]any{
		"user_name": c.user, "wait_up_to": until.Sub(c.clock.Now()).Round(time.Second).String(),
	})
	v, err := c.waitOut(ctx, own)
	if err != nil {
		return KeyAnswerLost{Record: own.ID, Until: until, LookErr: err, Err: createErr}
	}
	if end := c.recover(ctx, v, own); end != nil {
		return end
	}
	return KeyAnswerLost{Record: own.ID, Until: until, Err: createErr}
}

// view is what the user's tags and keys said at one moment.
type view struct {
	now     time.Time // by the service's clock
	pending []record  // this service's key creates, in flight or interrupted
	tags    map[string]keyTags
	keys    []identityclient.ServiceSpecificCredential
}

// look reads the user's records and, when there are any to resolve, its
// keys.
func (c *keyCreate) look(ctx context.Context) (*view, error) {
	tags, err := c.idc.ListUserTags(ctx, c.user)
	if err != nil {
		return nil, err
	}
	v := &view{now: readClock(&c.clock, tags.ServerTime)}
	c.sweepStaleMarks(ctx, tags.Tags, v.now)
	v.pending, v.tags = readTags(tags.Tags, c.Input.ServiceName)
	young := c.youngMarks(tags.Tags, v.now)
	if len(v.pending) == 0 && len(young) == 0 {
		return v, nil // nothing to match keys to
	}
	out, err := c.idc.ListServiceSpecificCredentials(ctx, c.user, c.Input.ServiceName)
	if err != nil {
		return nil, err
	}
	v.keys = out.Credentials
	c.noteUnsaved(young, v.keys)
	return v, nil
}

// unsavedHorizon is how long after its create settled a key's mark is
// taken as possibly unsaved (noteUnsaved): the next apply after an
// interrupted one usually comes within it, and older marks are left out
// so that the note does not follow every later create for the user.
const unsavedHorizon = 24 * time.Hour

// youngMarks are the marks, by MarkTag, settled within unsavedHorizon of
// now by a create or adoption of another run, each with its tag and when
// it was settled.
func (c *keyCreate) youngMarks(tags []identityclient.Tag, now time.Time) map[string]KeyOnUser {
	out := map[string]KeyOnUser{}
	for _, t := range tags {
		k, settled, ok := markOfAt(t)
		if ok && !settled.IsZero() && now.Sub(settled) < unsavedHorizon {
			out[k] = KeyOnUser{MarkTag: t.Key, Settled: settled}
		}
	}
	return out
}

// noteUnsaved notes the keys of this service whose marks are young, that
// this run did not make: a create or adoption marks its key before
// Terraform has saved it, and Terraform, or the provider, killed then
// leaves the key marked and in no state, which nothing on the service
// tells from a key a state holds (see the package doc). A run that holds
// it needs nothing; one that lost it is told which key to import.
func (c *keyCreate) noteUnsaved(young map[string]KeyOnUser, keys []identityclient.ServiceSpecificCredential) {
	if c.noted || len(young) == 0 {
		return
	}
	c.noted = true
	var found []KeyOnUser
	for _, k := range keys {
		y, ok := young[MarkTag(k.ServiceSpecificCredentialID)]
		if !ok || (c.Ours != nil && c.Ours.Has(k.ServiceSpecificCredentialID)) || !fits(&k, c.Want, k.CreateDate) {
			continue // this run's, or not a key this create could stand for
		}
		y.ID, y.Created = k.ServiceSpecificCredentialID, k.CreateDate
		found = append(found, y)
	}
	if len(found) > 0 {
		c.notes = append(c.notes, KeyMaybeUnsaved{Keys: found})
	}
}

// keysOnUser lists the user's keys of this service and what its tags say
// of each, for a create the service refused for the key limit; nil when
// they cannot be read.
func (c *keyCreate) keysOnUser(ctx context.Context) []KeyOnUser {
	actx, cancel := bookkeeping(ctx)
	defer cancel()
	tags, err := c.idc.ListUserTags(actx, c.user)
	if err != nil {
		return nil
	}
	out, err := c.idc.ListServiceSpecificCredentials(actx, c.user, c.Input.ServiceName)
	if err != nil {
		return nil
	}
	marks := map[string]KeyOnUser{}
	for _, t := range tags.Tags {
		if k, settled, ok := markOfAt(t); ok {
			marks[k] = KeyOnUser{MarkTag: t.Key, Settled: settled}
		}
	}
	keys := make([]KeyOnUser, 0, len(out.Credentials))
	for _, k := range out.Credentials {
		m := marks[MarkTag(k.ServiceSpecificCredentialID)]
		m.ID, m.Created = k.ServiceSpecificCredentialID, k.CreateDate
		keys = append(keys, m)
	}
	return keys
}

// sweepAt is how many tags a user carries before a key create that reads
// them removes the marks of keys that are gone (sweepStaleMarks).
const sweepAt = identityclient.MaxUserTags / 2

// sweepStaleMarks removes, once per create, the marks of deleted keys from
// the user's tags when the user carries sweepAt tags or more: a key's
// delete leaves its mark (inert: it names an id the service never gives
// again, and matching looks only at keys that exist; it goes with its
// user, usually deleted right after in the same destroy, and a delete
// that removed it would put a second call on every destroy's path), and
// without this, marks would fill the user's tags and keep later creates
// from being recorded. It costs one listing of all the
// user's keys (every service and region: the identity service is global),
// made only then. A mark read before that listing names a key that
// existed when the mark was written (a mark follows the answer that names
// its key, or the key's import), so a key a complete listing lacks was
// deleted, and its id never comes back; but a listing may lag a key just
// created, so a mark settled within a create window (and clockMargin) of
// now, by the service's clock, stays, and a truncated listing removes
// nothing: the mark of a key that exists, removed, would leave the key
// open to being taken for an orphan.
func (c *keyCreate) sweepStaleMarks(ctx context.Context, tags []identityclient.Tag, now time.Time) {
	if c.swept || len(tags) < sweepAt {
		return
	}
	c.swept = true
	out, err := c.idc.ListServiceSpecificCredentials(ctx, c.user, "")
	if err != nil {
		tflog.Warn(ctx, "Could not list the user's keys to remove the marks of deleted keys", map[string]any{"user_name": c.user, "error": err.Error()})
		return
	}
	if out.IsTruncated {
		tflog.Warn(ctx, "The listing of the user's keys was truncated: no mark of a deleted key is removed", map[string]any{"user_name": c.user})
		return
	}
	live := map[string]bool{}
	for _, k := range out.Credentials {
		live[MarkTag(k.ServiceSpecificCredentialID)] = true
	}
	var stale []string
	for _, t := range tags {
		if k, settled, ok := markOfAt(t); ok && !live[k] && now.After(settled.Add(c.Window+clockMargin)) {
			stale = append(stale, t.Key)
		}
	}
	untagLogged(ctx, c.idc, c.user, "Could not remove the marks of deleted keys from their user", stale...)
}

// inFlight reports whether the key of record e may still land.
func (v *view) inFlight(e record) bool { return v.now.Before(e.Deadline.Add(clockMargin)) }

// waitOut looks at the user's records and keys until no create of another
// run may still land a key and, when own is set, until own's key is found
// or can no longer land. The wait is bounded by twice the create window:
// a record that lapses later than the bound allows (another run's longer
// window, such as its longer http_timeout) ends the wait at once, with a
// *RecordsInFlight naming it, rather than after the whole bound.
func (c *keyCreate) waitOut(ctx context.Context, own *record) (*view, error) {
	bound := 2*c.Window + recoveryPoll
	limit := time.Now().Add(bound)
	var v *view
	err := awaitRecords(ctx, bound, "A create of a key for this user may still land one: waiting for it before going on",
		map[string]any{"user_name": c.user, "service_name": c.Input.ServiceName},
		func() (until, now time.Time, err error) {
			if v, err = c.look(ctx); err != nil {
				return until, now, err
			}
			until = v.landingUntil(own)
			// A record that may land a key past the bound ends the wait at
			// once; a takeover's claim does not: its deadline only bounds
			// it, and it goes as soon as the takeover is done (a second or
			// two), so the wait goes on to its bound for it.
			if far := v.recordsLandingUntil(own); !far.IsZero() && far.Add(clockMargin).Sub(v.now) > time.Until(limit) {
				return until, v.now, v.inFlightElsewhere(c.user, own, bound)
			}
			return until, v.now, nil
		})
	switch {
	case errors.Is(err, errStillInFlight):
		return nil, v.inFlightElsewhere(c.user, own, bound)
	case err != nil:
		return nil, err
	}
	return v, nil
}

// RecordsInFlight says that creates of other runs recorded on User may
// still land keys later than a create waits for them (Waited).
type RecordsInFlight struct {
	User    string
	Records []InFlight
	Waited  time.Duration
}

// InFlight is one record of a create in flight: its tag, when it started
// and when it lapses (its deadline and clockMargin), by the service's
// clock.
type InFlight struct {
	Tag             string
	Started, Lapses time.Time
}

func (e *RecordsInFlight) Error() string {
	tags := make([]string, len(e.Records))
	for i, r := range e.Records {
		tags[i] = r.Tag + " (lapses " + r.Lapses.Format(time.RFC3339) + ")"
	}
	return fmt.Sprintf("creates of keys for user %q by other runs may still land keys past %s of waiting: %s",
		e.User, e.Waited.Round(time.Second), strings.Join(tags, ", "))
}

// inFlightElsewhere names what landingUntil waits for in v: the other
// runs' records in flight, and the live claims of recoveries taking a key
// over for a record still on the user (a claim's Started is zero).
func (v *view) inFlightElsewhere(user string, own *record, waited time.Duration) *RecordsInFlight {
	out := &RecordsInFlight{User: user, Waited: waited}
	for _, e := range v.pending {
		if v.inFlight(e) && (own == nil || e.ID != own.ID) {
			out.Records = append(out.Records, InFlight{Tag: e.ID, Started: e.Started, Lapses: e.Deadline.Add(clockMargin)})
		}
	}
	for _, cl := range v.liveClaims() {
		out.Records = append(out.Records, InFlight{Tag: cl.tag, Lapses: cl.deadline.Add(clockMargin)})
	}
	return out
}

// liveClaims are the claims of recoveries taking a key over for a record
// still on the user, before their deadline.
func (v *view) liveClaims() []claim {
	live := map[string]bool{}
	for _, e := range v.pending {
		live[e.ID] = true
	}
	var out []claim
	for _, kt := range v.tags {
		for _, cl := range kt.claims {
			if live[cl.record] && v.now.Before(cl.deadline.Add(clockMargin)) {
				out = append(out, cl)
			}
		}
	}
	return out
}

// recordsLandingUntil is until when another run's create in flight (its
// record) may still land a key; zero when none.
func (v *view) recordsLandingUntil(own *record) time.Time {
	var until time.Time
	for _, e := range v.pending {
		if v.inFlight(e) && (own == nil || e.ID != own.ID) && e.Deadline.After(until) {
			until = e.Deadline
		}
	}
	return until
}

// landingUntil is until when a create this one must wait for may still
// land a key: another run's create in flight, another run's recovery
// taking a key over for a live record, or own's key not seen yet. Zero
// when there is none.
func (v *view) landingUntil(own *record) time.Time {
	until := v.recordsLandingUntil(own)
	for _, cl := range v.liveClaims() {
		if cl.deadline.After(until) {
			until = cl.deadline
		}
	}
	if own != nil && until.IsZero() && v.inFlight(*own) {
		if m := matchKeys(v.tags, []record{*own}, v.keys)[0]; m.key == nil && len(m.ambiguous) == 0 {
			until = own.Deadline
		}
	}
	return until
}

// hold marks the key of an adoption as held, and removes the create's
// record and claims, this run's and stale ones (see bookkeeping: an
// interrupted run does it too). Two calls, where an answered create's
// settle needs one: the claims go too. The record goes even when the mark
// cannot be set: past its deadline, a record would have a later recovery
// take this key, which the state holds, for an orphan. An adoption's
// claim then stays: it keeps the key from being matched to any record.
func (c *keyCreate) hold(ctx context.Context, id string, own record, claims ...string) {
	actx, cancel := bookkeeping(ctx)
	defer cancel()
	terr := c.idc.TagUser(actx, c.user, []identityclient.Tag{{Key: MarkTag(id), Value: c.nonce + " " + strconv.FormatInt(c.clock.Now().Unix(), 10)}})
	remove := []string{own.ID}
	if terr == nil {
		remove = append(remove, claims...)
	}
	uerr := c.idc.UntagUser(actx, c.user, remove)
	switch {
	case terr == nil && uerr == nil:
	case uerr == nil && len(claims) > 0:
		tflog.Warn(ctx, "Could not mark an adopted key as held; its claim stays on the user instead", map[string]any{"user_name": c.user, "service_specific_credential_id": id, "error": terr.Error()})
	default:
		c.notMarked(id, own, terr, uerr)
	}
}

// notMarked notes that settling or holding key id could not mark it as
// held (terr) or remove its record own (uerr).
func (c *keyCreate) notMarked(id string, own record, terr, uerr error) {
	c.notes = append(c.notes, KeyNotMarked{KeyID: id, MarkTag: MarkTag(id), Nonce: c.nonce, Record: own.ID,
		Started: own.Started, Until: own.Deadline.Add(clockMargin), MarkErr: terr, UnrecordErr: uerr})
}
