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
	mux.HandleFunc("GET /_admin/health", func(w http.ResponseWriter, _ *http.Request) {
		core.WriteJSON(w, http.StatusOK, map[string]any{
			"status": "ok", "region": e.opts.Region, "account": e.opts.Account,
			"access_key_id": e.opts.AccessKeyID, "time": e.clock.Now(),
		})
	})
	mux.HandleFunc("POST /_admin/reset", func(w http.ResponseWriter, _ *http.Request) {
		e.Reset()
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET /_admin/requests", func(w http.ResponseWriter, _ *http.Request) {
		core.WriteJSON(w, http.StatusOK, map[string]any{"requests": e.Calls(), "dropped": e.DroppedCalls()})
	})
	mux.HandleFunc("DELETE /_admin/requests", func(w http.ResponseWriter, _ *http.Request) {
		e.ClearCalls()
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET /_admin/faults", func(w http.ResponseWriter, _ *http.Request) {
		core.WriteJSON(w, http.StatusOK, map[string]any{"faults": e.Faults()})
	})
	mux.HandleFunc("POST /_admin/faults", func(w http.ResponseWriter, r *http.Request) {
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
	})
	mux.HandleFunc("DELETE /_admin/faults", func(w http.ResponseWriter, _ *http.Request) {
		e.ClearFaults()
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET /_admin/clock", func(w http.ResponseWriter, _ *http.Request) {
		core.WriteJSON(w, http.StatusOK, map[string]any{"now": e.clock.Now()})
	})
	mux.HandleFunc("POST /_admin/clock", func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			Advance string  `json:"advance"`
			Speed   float64 `json:"speed"`
			Reset   bool    `json:"reset"`
		}
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
			adminError(w, "the body must be JSON: "+err.Error())
			return
		}
		if in.Reset {
			e.clock.Reset()
		}
		if in.Advance != "" {
			d, err := time.ParseDuration(in.Advance)
			if err != nil || d < 0 {
				adminError(w, "advance must be a positive Go duration such as 72h")
				return
			}
			if err := e.clock.TryAdvance(d); err != nil {
				adminError(w, err.Error())
				return
			}
		}
		if in.Speed != 0 {
			if err := e.clock.TrySetSpeed(in.Speed); err != nil {
				adminError(w, err.Error())
				return
			}
		}
		core.WriteJSON(w, http.StatusOK, map[string]any{"now": e.clock.Now()})
	})
	mux.HandleFunc("POST /_admin/credentials", func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			AccessKeyID     string `json:"access_key_id"`
			SecretAccessKey string `json:"secret_access_key"`
			SessionToken    string `json:"session_token"`
			Duration        string `json:"duration"`
			Principal       string `json:"principal"`
		}
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.AccessKeyID == "" || in.SecretAccessKey == "" {
			adminError(w, "the body needs access_key_id and secret_access_key")
			return
		}
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
				adminError(w, "duration must be a Go duration such as 1h")
				return
			}
			c.Expires = e.clock.Now().Add(d)
		}
		e.creds.Add(c)
		core.WriteJSON(w, http.StatusCreated, map[string]any{"access_key_id": c.AccessKeyID, "expires": c.Expires})
	})
	mux.HandleFunc("DELETE /_admin/credentials/{id}", func(w http.ResponseWriter, r *http.Request) {
		if !e.creds.RevokeSession(r.PathValue("id")) {
			core.WriteJSON(w, http.StatusNotFound, map[string]string{"message": "no temporary credentials with access key id " + r.PathValue("id")})
			return
		}
		core.WriteJSON(w, http.StatusOK, map[string]any{"access_key_id": r.PathValue("id"), "revoked": true})
	})
	for _, s := range e.services {
		if a, ok := s.(core.AdminService); ok {
			prefix := "/_admin/" + s.Name() + "/"
			mux.Handle(prefix, http.StripPrefix("/_admin/"+s.Name(), a.Admin()))
		}
	}
	return mux
}

func adminError(w http.ResponseWriter, msg string) {
	core.WriteJSON(w, http.StatusBadRequest, map[string]string{"message": msg})
}
