package emulatortest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
)

// CallsTo are the calls of op ("" for any) that the emulator logged,
// answered or refused (a refusal is a call the provider made: "no API
// call" means none was sent, not none succeeded), dry runs included.
func (e *Emulator) CallsTo(op string) []emulator.Call {
	var out []emulator.Call
	for _, c := range e.Calls() {
		if op == "" || c.Operation == op {
			out = append(out, c)
		}
	}
	return out
}

// Sent counts the calls of op ("" for any) the provider sent: every call
// the emulator logged, answered or refused, dry runs included
// (len(CallsTo(op))). The emulator's Answered counts those it answered
// with success.
func (e *Emulator) Sent(op string) int { return len(e.CallsTo(op)) }

// DryRuns counts the dry runs (UpdateDomainConfig with DryRun) sent,
// answered or refused. (The real changes the service accepted are
// Answered("UpdateDomainConfig", false): a change refused while another
// runs is sent again.)
func (e *Emulator) DryRuns() int { return emulator.DryRuns(e.Calls()) }

// ExpectCalls fails t unless the emulator logged want calls of op ("" for
// any), answered or refused; the failure says why that many (why, when
// not empty) and names each call with its status, so a refused call is
// seen as one.
func (e *Emulator) ExpectCalls(t testing.TB, op string, want int, why string) {
	t.Helper()
	if calls := e.CallsTo(op); len(calls) != want {
		what := op
		if what == "" {
			what = "API"
		}
		if why != "" {
			why = " (" + why + ")"
		}
		t.Errorf("%d %s calls, want %d%s: %s", len(calls), what, want, why, describeCalls(calls))
	}
}

// callsSeen lists the emulator's calls in order, for a failure message.
func (e *Emulator) callsSeen() string { return describeCalls(e.Calls()) }

// describeCalls names each call with its status, and marks the refused
// ones (4xx and 5xx answers) and dry runs.
func describeCalls(calls []emulator.Call) string {
	if len(calls) == 0 {
		return "none"
	}
	names := make([]string, 0, len(calls))
	for _, c := range calls {
		s := fmt.Sprintf("%s %d", c.Operation, c.Status)
		if c.DryRun {
			s += " (dry run)"
		}
		if c.Status >= 400 {
			s += " (refused)"
		}
		names = append(names, s)
	}
	return strings.Join(names, ", ")
}
