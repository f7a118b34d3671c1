package emulator

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/core"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/sigv4"
)

// adminMux serves the admin API (unauthenticated: the emulator listens on
// loopback only). Routes are listed in README.md.
func (e *Emulator) adminMux() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /_admin/health", e.adminHealth)
	mux.HandleFunc("POST /_admin/reset", e.adminReset)
	mux.HandleFunc("GET /_admin/requests", e.adminListRequests)
	mux.HandleFunc("DELETE /_admin/requests", e.adminClearRequests)
	mux.HandleFunc("GET /_admin/faults", e.adminListFaults)
	mux.HandleFunc("POST /_admin/faults", e.adminInjectFault)
	mux.HandleFunc("DELETE /_admin/faults", e.adminClearFaults)
	mux.HandleFunc("POST /_admin/faults/resume", e.adminResumeHeld)
	mux.HandleFunc("GET /_admin/clock", e.adminGetClock)
	mux.HandleFunc("POST /_admin/clock", e.adminSetClock)
	mux.HandleFunc("POST /_admin/credentials", e.adminAddCredential)
	mux.HandleFunc("DELETE /_admin/credentials/{id}", e.adminRevokeCredential)
	e.mountServiceAdmins(mux)
	return mux
}

// mountServiceAdmins serves each service's own admin API under
// /_admin/<service>/.
func (e *Emulator) mountServiceAdmins(mux *http.ServeMux) {
	for _, s := range e.services {
		if a, ok := s.(core.AdminService); ok {
			prefix := "/_admin/" + s.Name() + "/"
			mux.Handle(prefix, http.StripPrefix("/_admin/"+s.Name(), a.Admin()))
		}
	}
}

func (e *Emulator) adminHealth(w http.ResponseWriter, _ *http.Request) {
	core.WriteJSON(w, http.StatusOK, map[string]any{
		"status": "ok", "region": e.opts.Region, "account": e.opts.Account,
		"access_key_id": e.opts.AccessKeyID, "time": e.clock.Now(),
	})
}

func (e *Emulator) adminReset(w http.ResponseWriter, _ *http.Request) {
	e.Reset()
	w.WriteHeader(http.StatusNoContent)
}

func (e *Emulator) adminListRequests(w http.ResponseWriter, _ *http.Request) {
	core.WriteJSON(w, http.StatusOK, map[string]any{"requests": e.Calls(), "dropped": e.DroppedCalls()})
}

func (e *Emulator) adminClearRequests(w http.ResponseWriter, _ *http.Request) {
	e.ClearCalls()
	w.WriteHeader(http.StatusNoContent)
}

func (e *Emulator) adminListFaults(w http.ResponseWriter, _ *http.Request) {
	core.WriteJSON(w, http.StatusOK, map[string]any{"faults": e.Faults()})
}

func (e *Emulator) adminInjectFault(w http.ResponseWriter, r *http.Request) {
	var f Fault
	if err := json.NewDecoder(r.Body).Decode(&f); err != nil {
		adminError(w, "the body must be a JSON fault: "+err.Error())
		return
	}
	if err := e.InjectFault(f); err != nil {
		adminError(w, err.Error())
		return
	}
	core.WriteJSON(w, http.StatusCreated, map[string]any{"faults": e.Faults()})
}

func (e *Emulator) adminResumeHeld(w http.ResponseWriter, _ *http.Request) {
	core.WriteJSON(w, http.StatusOK, map[string]any{"resumed": e.ResumeHeld()})
}

func (e *Emulator) adminClearFaults(w http.ResponseWriter, _ *http.Request) {
	e.ClearFaults()
	w.WriteHeader(http.StatusNoContent)
}

func (e *Emulator) adminGetClock(w http.ResponseWriter, _ *http.Request) {
	core.WriteJSON(w, http.StatusOK, map[string]any{"now": e.clock.Now(), "held": e.clock.Held()})
}

// clockChange is the body of POST /_admin/clock; its parts apply in the
// order reset, hold, advance, speed (a speed runs a held clock again).
type clockChange struct {
	Advance string  `json:"advance"`
	Speed   float64 `json:"speed"`
	Reset   bool    `json:"reset"`
	Hold    bool    `json:"hold"`
}

func (e *Emulator) adminSetClock(w http.ResponseWriter, r *http.Request) {
	var in clockChange
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		adminError(w, "the body must be JSON: "+err.Error())
		return
	}
	if msg := e.applyClockChange(in); msg != "" {
		adminError(w, msg)
		return
	}
	core.WriteJSON(w, http.StatusOK, map[string]any{"now": e.clock.Now(), "held": e.clock.Held()})
}

// applyClockChange applies in to the clock and returns the admin error
// message of the first part refused, or "". A refused part leaves the parts
// before it applied.
func (e *Emulator) applyClockChange(in clockChange) string {
	if in.Reset {
		e.clock.Reset()
	}
	if in.Hold {
		e.clock.Hold()
	}
	if in.Advance != "" {
		d, err := time.ParseDuration(in.Advance)
		if err != nil || d < 0 {
			return "advance must be a positive Go duration such as 72h"
		}
		if err := e.clock.TryAdvance(d); err != nil {
			return err.Error()
		}
	}
	if in.Speed != 0 {
		if err := e.clock.TrySetSpeed(in.Speed); err != nil {
			return err.Error()
		}
	}
	return ""
}

// credentialIn is the body of POST /_admin/credentials.
type credentialIn struct {
	AccessKeyID     string `json:"access_key_id"`
	SecretAccessKey string `json:"secret_access_key"`
	SessionToken    string `json:"session_token"`
	Duration        string `json:"duration"`
	Principal       string `json:"principal"`
}

func (e *Emulator) adminAddCredential(w http.ResponseWriter, r *http.Request) {
	var in credentialIn
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.AccessKeyID == "" || in.SecretAccessKey == "" {
		adminError(w, "the body needs access_key_id and secret_access_key")
		return
	}
	c, msg := e.credentialFrom(in)
	if msg != "" {
		adminError(w, msg)
		return
	}
	e.creds.Add(c)
	core.WriteJSON(w, http.StatusCreated, map[string]any{"access_key_id": c.AccessKeyID, "expires": c.Expires})
}

// credentialFrom builds the credential in asks for: the principal defaults to
// the emulator's admin user, and a duration makes it expire. It returns an
// admin error message when the duration does not parse.
func (e *Emulator) credentialFrom(in credentialIn) (sigv4.Credential, string) {
	c := sigv4.Credential{
		AccessKeyID: in.AccessKeyID, SecretAccessKey: in.SecretAccessKey, SessionToken: in.SessionToken,
		Principal: in.Principal, Account: e.opts.Account,
	}
	if c.Principal == "" {
		c.Principal = "arn:cloud:identity::" + e.opts.Account + ":user/emulator-admin"
	}
	if in.Duration != "" {
		d, err := time.ParseDuration(in.Duration)
		if err != nil {
			return c, "duration must be a Go duration such as 1h"
		}
		c.Expires = e.clock.Now().Add(d)
	}
	return c, ""
}

func (e *Emulator) adminRevokeCredential(w http.ResponseWriter, r *http.Request) {
	if !e.creds.RevokeSession(r.PathValue("id")) {
		core.WriteJSON(w, http.StatusNotFound, map[string]string{"message": "no temporary credentials with access key id " + r.PathValue("id")})
		return
	}
	core.WriteJSON(w, http.StatusOK, map[string]any{"access_key_id": r.PathValue("id"), "revoked": true})
}

func adminError(w http.ResponseWriter, msg string) {
	core.WriteJSON(w, http.StatusBadRequest, map[string]string{"message": msg})
}
