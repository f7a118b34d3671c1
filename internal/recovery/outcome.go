package recovery

import (
	"time"

	identityclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/identity"
)

// What a create returns: how it ended (an end) and, in the order they
// happened, what the user must hear of on the way (notes). Each carries
// the facts its message needs beyond the create's own input; the resource
// writes the message.

// KeyOutcome is how one key create went.
type KeyOutcome struct {
	End   KeyEnd
	Notes []KeyNote
}

// Key is the key the resource now holds, with its value: the new one or
// an adopted orphan; nil when the create ended without one.
func (o KeyOutcome) Key() *identityclient.ServiceSpecificCredential {
	switch e := o.End.(type) {
	case KeyCreated:
		return e.Key
	case KeyAdopted:
		return e.Key
	}
	return nil
}

// KeyEnd is how a key create ended: one of the Key* types below that are
// not notes.
type KeyEnd interface{ keyEnd() }

// KeyNote is something a key create met on the way (a warning).
type KeyNote interface{ keyNote() }

// KeyCreated: the service made the key.
type KeyCreated struct {
	Key *identityclient.ServiceSpecificCredential
}

// KeyAdopted: an orphan was adopted instead (reset for a value), made by
// the create started at Started, an interrupted one or this create whose
// answer was lost.
type KeyAdopted struct {
	Key     *identityclient.ServiceSpecificCredential
	Started time.Time
}

// KeyRefused: the service refused the create (an error it sent); nothing
// was made. Keys are the user's keys of the service, with what its tags
// say of each, when the refusal was for the key limit.
type KeyRefused struct {
	Err  error
	Keys []KeyOnUser
}

// KeyOnUser is one of a user's keys: its id and CreateDate, and the tag
// that marks it as held ("" when none), with when that mark was settled
// (zero when it does not say).
type KeyOnUser struct {
	ID, MarkTag      string
	Created, Settled time.Time
}

// KeyAnswerLost: the create was sent, its answer lost, and its key not
// found. Record is the create's record ("": it was not recorded, so its
// key cannot be told from others). LookErr is set when listing the user's
// keys failed (the record stays); otherwise no key landed by Until.
type KeyAnswerLost struct {
	Record  string
	Until   time.Time
	LookErr error
	Err     error
}

// KeyInterrupted: the run was cut short with the request perhaps on its
// way. Record is the create's record, which stays for a later run
// ("": it was not recorded); a later create waits until Until.
type KeyInterrupted struct {
	Record string
	Until  time.Time
	Err    error
}

// KeyLookFailed: reading the user's records and keys before the create
// failed, so nothing was created.
type KeyLookFailed struct{ Err error }

// KeyWaitedOut: creates of other runs recorded on the user may still land
// keys later than this create waits for them, so nothing was created.
type KeyWaitedOut struct{ InFlight RecordsInFlight }

// KeyAmbiguous: the user's keys that no tag speaks for, created around
// Started (Keys), are more than the interrupted creates account for, so
// nothing was changed; Record is the interrupted create's record.
type KeyAmbiguous struct {
	Record  string
	Started time.Time
	Keys    []string
}

// KeyOrphanNotDeleted: the orphan KeyID, of a create interrupted at
// Started, does not fit the plan and deleting it failed; nothing was
// created.
type KeyOrphanNotDeleted struct {
	KeyID   string
	Started time.Time
	Err     error
}

// KeyResetFailed: the orphan KeyID, of the create started at Started, was
// to be adopted, but resetting it for a value failed; the next create
// adopts it.
type KeyResetFailed struct {
	KeyID   string
	Started time.Time
	Err     error
}

// KeyRecoveryDenied (note): the user's tags may not be read, so
// interrupted creates are not recovered and the key is created unrecorded.
type KeyRecoveryDenied struct{ Err error }

// KeyNotRecorded (note): the record could not be written; the key is
// created unrecorded.
type KeyNotRecorded struct{ Err error }

// KeyNotMarked (note): settling the create of key KeyID failed in part.
// MarkErr is set when the mark (tag MarkTag, value Nonce) could not be
// written, UnrecordErr when the record (tag Record, of the create started
// at Started, in flight until Until) could not be removed.
type KeyNotMarked struct {
	KeyID, MarkTag, Nonce, Record string
	Started, Until                time.Time
	MarkErr, UnrecordErr          error
}

// KeyMaybeUnsaved (note): keys of this service on the user whose marks a
// create or adoption of another run set lately (KeyOnUser.Settled): a
// state holds each, or, if that run was killed before Terraform saved
// it, none does.
type KeyMaybeUnsaved struct{ Keys []KeyOnUser }

// KeyOrphanRemoved (note): the orphan KeyID, of a create interrupted at
// Started, did not fit the plan and was deleted.
type KeyOrphanRemoved struct {
	KeyID   string
	Started time.Time
}

func (KeyCreated) keyEnd()          {}
func (KeyAdopted) keyEnd()          {}
func (KeyRefused) keyEnd()          {}
func (KeyAnswerLost) keyEnd()       {}
func (KeyInterrupted) keyEnd()      {}
func (KeyLookFailed) keyEnd()       {}
func (KeyWaitedOut) keyEnd()        {}
func (KeyAmbiguous) keyEnd()        {}
func (KeyOrphanNotDeleted) keyEnd() {}
func (KeyResetFailed) keyEnd()      {}
func (KeyRecoveryDenied) keyNote()  {}
func (KeyNotRecorded) keyNote()     {}
func (KeyNotMarked) keyNote()       {}
func (KeyOrphanRemoved) keyNote()   {}
func (KeyMaybeUnsaved) keyNote()    {}

// UserOutcome is how one user create went.
type UserOutcome struct {
	End   UserEnd
	Notes []UserNote
}

// User is the user the resource now holds: the new one or an adopted
// orphan; nil when the create ended without one.
func (o UserOutcome) User() *identityclient.User {
	switch e := o.End.(type) {
	case UserCreated:
		return e.User
	case UserAdopted:
		return e.User
	}
	return nil
}

// UserEnd is how a user create ended: one of the User* types below that
// are not notes.
type UserEnd interface{ userEnd() }

// UserNote is something a user create met on the way (a warning).
type UserNote interface{ userNote() }

// UserCreated: the service made the user (its answer in hand, or found
// carrying this create's record after the answer was lost).
type UserCreated struct{ User *identityclient.User }

// UserAdopted: the name was held by the orphan User of an interrupted
// create, adopted instead.
type UserAdopted struct{ User *identityclient.User }

// UserRefused: the service refused the create for another reason than
// the name being taken.
type UserRefused struct{ Err error }

// UserAnswerLost: the answer was lost and reading the user to learn the
// outcome failed (ReadErr), or no user appeared within Wait (ReadErr nil).
type UserAnswerLost struct {
	Err, ReadErr error
	Wait         time.Duration
}

// UserTaken: the name is taken by a user that is not an orphan to adopt:
// one without a record, one spelled otherwise (SpelledAs), or one another
// run is adopting (OtherRunAdopting).
type UserTaken struct {
	Err              error
	SpelledAs        string
	OtherRunAdopting bool
}

// UserUnreadable: the name is taken, and reading the user to tell whether
// an interrupted create made it failed.
type UserUnreadable struct{ Err, ReadErr error }

// UserWaitInterrupted: the name is taken by a user whose create may still
// be answered, and the wait for it was cut short.
type UserWaitInterrupted struct{ Err, WaitErr error }

// UserOtherPath: the orphan User has another path than the one asked for;
// its record stays.
type UserOtherPath struct {
	User *identityclient.User
	Err  error
}

// UserTakeoverFailed: the orphan User could not be claimed.
type UserTakeoverFailed struct {
	User          *identityclient.User
	Err, ClaimErr error
}

// UserInterrupted: the run was cut short with the request perhaps on its
// way; a user it made carries Record, and a later create adopts it Window
// after its creation.
type UserInterrupted struct {
	Record string
	Window time.Duration
	Err    error
}

// UserRecordNotCleared (note): user UserName is held, but its record (tag
// Record) could not be removed.
type UserRecordNotCleared struct {
	UserName, Record string
	Err              error
}

func (UserCreated) userEnd()           {}
func (UserAdopted) userEnd()           {}
func (UserRefused) userEnd()           {}
func (UserAnswerLost) userEnd()        {}
func (UserTaken) userEnd()             {}
func (UserUnreadable) userEnd()        {}
func (UserWaitInterrupted) userEnd()   {}
func (UserOtherPath) userEnd()         {}
func (UserTakeoverFailed) userEnd()    {}
func (UserInterrupted) userEnd()       {}
func (UserRecordNotCleared) userNote() {}
