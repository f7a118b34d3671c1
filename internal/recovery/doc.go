// Package recovery is the create-recovery protocol of the identity
// service's keys and users. The service has no idempotency token, so a
// create whose answer never arrives (lost, or Terraform interrupted) may
// still have made what it asked for. Every create of a key or a user is
// therefore recorded on its user before it is sent, and its record is
// settled once the answer is in hand; the next create for that user, on
// any machine, recovers what an interrupted create left.
//
// CreateKey (key.go) and CreateUser (user.go) each run one create and
// return a typed outcome (outcome.go): how the create ended and what
// happened on the way, each with the facts a message needs. The resources
// of internal/service/identity turn outcomes into state, and
// internal/diagnostics into diagnostics;
// this package imports no Terraform package (the recovery rule of
// .golangci.yml), and its tests run against the emulator alone.
//
// # Terms
//
// Each word below means one thing in this package, and nothing else.
//
//   - run: one provider instance at work (one terraform apply).
//   - nonce: a random name a create draws when it starts; its record,
//     mark and claim carry it, so runs tell their tags apart.
//   - create: one CreateServiceSpecificCredential or CreateUser of a run,
//     named by its nonce.
//   - service clock: the identity service's clock, a client.ServiceClock
//     (clock.go): one reading of it paired with the local time then,
//     running on by the local monotonic clock. Records, deadlines, marks'
//     settle times and CreateDate are all by it.
//   - window: from when a create starts until its deadline, after which
//     the service can no longer apply it (CreateWindow), widened by
//     clockMargin either side when compared with CreateDate.
//   - land: the service applies a create: the key or the user exists.
//   - in flight: a create whose window is not over yet; over: one whose
//     window is.
//   - record: the tag on the user that says a create is in flight, or,
//     past its deadline, that it was interrupted (tags.go).
//   - settle: end the record of a create whose answer is in hand: a key's
//     record becomes the key's mark, a user's record is removed.
//   - mark: the tag that says a key is held by a configuration. No
//     recovery resets, adopts or deletes a marked key. A settled record's
//     mark carries when it was settled, by the service clock ("held <id>
//     <unix seconds>"; a mark of the older form "held <id>", and an
//     adoption's or import's mark, carry none: of unknown age).
//   - orphan: what an interrupted create made: held by no configuration,
//     a key's value lost with the answer.
//   - recovery: what a create does about the records of interrupted
//     creates before it is sent (keys, key_orphan.go), or about a name an
//     orphan holds (users).
//   - adopt: take an orphan into the state instead of creating one (an
//     orphan key is reset to obtain a value).
//   - claim: the tag of one run that is taking an orphan over (a key for a
//     record, or a user); contest: how runs that claim the same orphan at
//     once let at most one of them take it (contest.go).
//   - takeover: an orphan key this run won the contest for, to adopt.
//   - bookkeeping: the tag writes that follow an answer in hand or end a
//     claim; a cancelled run does them all the same (wait.go).
//   - sweep: removing the marks of deleted keys once a user's tags fill
//     up; sweepStaleMarks (key.go) says when a mark may go.
//   - hold: the apply of an import marking the key it brought in
//     (import.go); it contests the key as an adoption does and never marks
//     a key something on the user speaks for.
//
// # What a mark cannot tell
//
// A create marks its key before Terraform saves the state that holds it,
// and nothing a provider can write comes after that save. A run killed in
// between leaves a marked key in no state, indistinguishable on the
// service from a key a state holds. The mark wins: no recovery takes it
// (never one key in two states), and every later key create for the user
// names such recently marked keys (KeyMaybeUnsaved), as a create refused
// for the key limit names every key and its mark.
//
// # Why at most one run takes an orphan
//
// Two runs may recover the same interrupted create at once, each having
// seen it unclaimed. A tag written and read back does not settle which
// run takes it: the last writer's value wins, and each run may read its
// own. So each run writes a claim of its own, named by its nonce, and
// takes the orphan only when, contestPause later, no other live claim has
// a lower nonce (contest.firstAfterPause). A run that sees another's claim
// before writing its own backs off at once. A run whose claim took longer
// than contestPause/2 to write, counted from before that first look, backs
// off too. Take a run W that takes the orphan, and another run R: if W's
// last look saw R's claim, R's nonce is the higher, and R's own last look
// (if R got that far) sees W's lower one. Otherwise R wrote its claim
// after W's last look, which came contestPause after W had written its
// own; R took under contestPause/2
// from its first look to its write, so its first look came after W's
// claim was written: it saw W's claim and R backed off. So at most one run
// takes the orphan; both may back off, and a later run recovers it.
//
// # Why a key create for a user this run made skips recovery
//
// A user's tags go with it, so every record on a user this run created was
// written after it was created, in this run, and none is of an interrupted
// create this create would recover. This run's other creates settle or
// resolve their own records; another run's interrupted create on this user
// is recovered by that user's next create that looks, or by this one when
// the key it left makes the service refuse this create with LimitExceeded:
// nothing was created, so the create then looks, recovers and is sent once
// more. Only a user whose CreateUser answer was in hand counts as made: one
// found after a lost answer was read too late for its CreateDate to give
// the service's clock, so its key creates look. Nor need the create
// wait for another run's create in flight: the wait exists only so that
// the records recovered are over. The two keys may land in each other's
// windows, and the records tell them apart as for any two creates in
// flight at once: this create's record keeps the other run's recovery
// waiting until it settles into this key's mark, which no recovery takes;
// and should this create's answer be lost, its search for its key waits
// for the other run's record as always.
package recovery
