package search

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/core"
	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
)

// Pace sets how long emulated work takes, in emulated time (the clock).
// Zero means immediate.
type Pace struct {
	// DryRun is how long a Verbose dry run takes to complete.
	DryRun time.Duration
	// BlueGreenStage is the length of each stage of a blue/green change.
	BlueGreenStage time.Duration
	// Dynamic is the whole length of a dynamic change.
	Dynamic time.Duration
}

// DefaultPace is fast enough for tests yet shows every state.
var DefaultPace = Pace{DryRun: time.Second, BlueGreenStage: time.Second, Dynamic: time.Second}

// DomainSpec describes a domain to add. Config holds configuration sections
// in UpdateDomainConfig's request shape (secrets are dropped).
type DomainSpec struct {
	DomainName string `json:"DomainName"`
	// Region is the region the domain is in; empty means the emulator's
	// home region. A name is unique within its region, as in an account of
	// the real service; two regions may each have a domain of the same name.
	Region        string          `json:"Region,omitempty"`
	EngineMode    string          `json:"EngineMode,omitempty"`
	EngineVersion string          `json:"EngineVersion,omitempty"`
	IPAddressType string          `json:"IPAddressType,omitempty"`
	Config        json.RawMessage `json:"Config,omitempty"`
}

// AddDomain adds a domain; an existing name is an error.
func (s *Service) AddDomain(spec DomainSpec) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addDomainLocked(spec)
}

func (s *Service) addDomainLocked(spec DomainSpec) error {
	if err := validDomainName(spec.DomainName); err != nil {
		return &SpecError{"name", err.Error()}
	}
	spec, err := withSpecDefaults(spec)
	if err != nil {
		return err
	}
	if spec.Region == "" {
		spec.Region = s.region
	}
	key := domainKey{region: spec.Region, name: spec.DomainName}
	if _, ok := s.domains[key]; ok {
		return &SpecError{"name", fmt.Sprintf("domain %s already exists in %s", spec.DomainName, spec.Region)}
	}
	req, aerr := parseRequest(spec.Config)
	if aerr != nil {
		return &SpecError{"config", aerr.message}
	}
	cfg := req.sections
	cfg["EngineMode"], cfg["EngineVersion"], cfg["IPAddressType"] = spec.EngineMode, spec.EngineVersion, spec.IPAddressType
	addConfigDefaults(cfg)
	now := s.clock.Now()
	d := &domain{
		name: spec.DomainName, region: spec.Region, id: s.account + "/" + spec.DomainName, created: now,
		config: cfg, status: map[string]*optionStatus{},
	}
	for k := range cfg {
		d.status[k] = &optionStatus{created: now, updated: now, version: 1}
	}
	s.domains[key] = d
	return nil
}

// SpecError is a refused domain spec: Field names the spec's member at
// fault (name, region, engine_mode, ip_address_type, config), Message
// what is wrong (for config, starting with the section's path).
type SpecError struct{ Field, Message string }

func (e *SpecError) Error() string { return e.Message }

// withSpecDefaults fills in a spec's engine mode, engine version and IP
// address type, and checks the mode and the address type.
func withSpecDefaults(spec DomainSpec) (DomainSpec, error) {
	if spec.EngineMode == "" {
		spec.EngineMode = engineModeGeneral
	}
	if spec.EngineVersion == "" {
		spec.EngineVersion = "OpenSearch_2.19"
	}
	if spec.IPAddressType == "" {
		spec.IPAddressType = ipv4
	}
	if spec.Region != "" && !rules.Region.MatchString(spec.Region) {
		return spec, &SpecError{"region", fmt.Sprintf("the region %q is not a region name such as us-east-1", spec.Region)}
	}
	msg := fmt.Sprintf("EngineMode must be one of %v and IPAddressType one of %v", engineModes, ipAddressTypes)
	if !slices.Contains(engineModes, spec.EngineMode) {
		return spec, &SpecError{"engine_mode", msg}
	}
	if !slices.Contains(ipAddressTypes, spec.IPAddressType) {
		return spec, &SpecError{"ip_address_type", msg}
	}
	return spec, nil
}

// addConfigDefaults sets the spec's defaults a new domain's configuration
// does not set: the snapshot hour, and each AdvancedOptions key (a domain
// reports each key it does not set at its default, so configuring a
// default is no change).
func addConfigDefaults(cfg map[string]any) {
	if _, ok := cfg["SnapshotOptions"]; !ok {
		cfg["SnapshotOptions"] = map[string]any{"AutomatedSnapshotStartHour": 0.0} // the spec's default
	}
	adv, _ := cfg["AdvancedOptions"].(map[string]any)
	if adv == nil {
		adv = map[string]any{}
	}
	for k, v := range rules.AdvancedOptionDefaults() {
		if _, ok := adv[k]; !ok {
			adv[k] = v
		}
	}
	cfg["AdvancedOptions"] = adv
}

// RemoveDomain deletes a domain of the home region behind the provider's
// back.
func (s *Service) RemoveDomain(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.domains[s.home(name)]
	delete(s.domains, s.home(name))
	return ok
}

// SetPace changes how long future dry runs and changes take.
func (s *Service) SetPace(p Pace) error {
	if p.DryRun < 0 || p.BlueGreenStage < 0 || p.Dynamic < 0 {
		return errors.New("pace durations cannot be negative")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pace = p
	return nil
}

// CurrentPace is the pace in force.
func (s *Service) CurrentPace() Pace {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pace
}

// FailNextChangeAt makes the next change that has the named stage fail
// there; its configuration is then not applied.
func (s *Service) FailNextChangeAt(stage, message string) error {
	if !slices.Contains(stageNames(), stage) {
		return fmt.Errorf("unknown stage %q; stages: %s", stage, strings.Join(stageNames(), ", "))
	}
	if message == "" {
		message = fmt.Sprintf("The change failed at stage %s and was rolled back; the configuration is unchanged.", stage)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failNext = &failPlan{stage: stage, message: message}
	return nil
}

// MasterUserPasswordIs reports whether pw is the master user password the
// domain last received, for tests of write-only passwords.
func (s *Service) MasterUserPasswordIs(name, pw string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, ok := s.domains[s.home(name)]
	return ok && d.masterPassword == sha256.Sum256([]byte(pw))
}

// Domain is a snapshot of a domain of the home region as a domain status
// object.
func (s *Service) Domain(name string) (*DomainStatus, bool) {
	return s.DomainIn(s.region, name)
}

// DomainIn is a snapshot of the domain name of region.
func (s *Service) DomainIn(region, name string) (*DomainStatus, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, ok := s.domains[domainKey{region: region, name: name}]
	if !ok {
		return nil, false
	}
	now := s.clock.Now()
	s.settle(d, now)
	// Decoding strictly keeps the rendering and the response types in step.
	b, _ := json.Marshal(s.renderStatus(d, d.config, progressView{latest: d.mostRecentChange(), at: now, modifying: activeModifying(d)}, now))
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var out DomainStatus
	if err := dec.Decode(&out); err != nil {
		panic("search emulator: domain status does not decode: " + err.Error())
	}
	return &out, true
}

// DomainNames lists the home region's domains, sorted.
func (s *Service) DomainNames() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.domains))
	for k := range s.domains {
		if k.region == s.region {
			out = append(out, k.name)
		}
	}
	sort.Strings(out)
	return out
}

// Admin serves the admin routes (mounted at /_admin/search/, README.md).
func (s *Service) Admin() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /domains", s.adminListDomains)
	mux.HandleFunc("POST /domains", s.adminAddDomain)
	mux.HandleFunc("GET /domains/{name}", s.adminGetDomain)
	mux.HandleFunc("DELETE /domains/{name}", s.adminRemoveDomain)
	mux.HandleFunc("GET /pace", s.adminGetPace)
	mux.HandleFunc("POST /pace", s.adminSetPace)
	mux.HandleFunc("POST /fail-next-change", s.adminFailNextChange)
	return mux
}

func (s *Service) adminListDomains(w http.ResponseWriter, _ *http.Request) {
	core.WriteJSON(w, http.StatusOK, map[string]any{"domains": s.DomainNames()})
}

func (s *Service) adminAddDomain(w http.ResponseWriter, r *http.Request) {
	var spec DomainSpec
	if err := json.NewDecoder(r.Body).Decode(&spec); err != nil {
		adminError(w, http.StatusBadRequest, "the body must be a JSON domain spec: "+err.Error())
		return
	}
	if err := s.AddDomain(spec); err != nil {
		adminError(w, http.StatusBadRequest, err.Error())
		return
	}
	d, _ := s.Domain(spec.DomainName)
	core.WriteJSON(w, http.StatusCreated, map[string]any{"DomainStatus": d})
}

func (s *Service) adminGetDomain(w http.ResponseWriter, r *http.Request) {
	d, ok := s.Domain(r.PathValue("name"))
	if !ok {
		adminError(w, http.StatusNotFound, "no domain "+r.PathValue("name"))
		return
	}
	core.WriteJSON(w, http.StatusOK, map[string]any{"DomainStatus": d})
}

func (s *Service) adminRemoveDomain(w http.ResponseWriter, r *http.Request) {
	if !s.RemoveDomain(r.PathValue("name")) {
		adminError(w, http.StatusNotFound, "no domain "+r.PathValue("name"))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Service) adminGetPace(w http.ResponseWriter, _ *http.Request) {
	core.WriteJSON(w, http.StatusOK, paceJSON(s.CurrentPace()))
}

func (s *Service) adminSetPace(w http.ResponseWriter, r *http.Request) {
	var in map[string]string
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		adminError(w, http.StatusBadRequest, "the body must be JSON such as {\"blue_green_stage\": \"10m\"}")
		return
	}
	p, msg := paceWith(s.CurrentPace(), in)
	if msg != "" {
		adminError(w, http.StatusBadRequest, msg)
		return
	}
	if err := s.SetPace(p); err != nil {
		adminError(w, http.StatusBadRequest, err.Error())
		return
	}
	core.WriteJSON(w, http.StatusOK, paceJSON(p))
}

// paceWith is p with the durations in set (by paceJSON's names), or the
// admin error message of a name or a duration refused.
func paceWith(p Pace, set map[string]string) (Pace, string) {
	for k, v := range set {
		d, err := time.ParseDuration(v)
		if err != nil {
			return p, fmt.Sprintf("%s: %q is not a Go duration", k, v)
		}
		switch k {
		case "dry_run":
			p.DryRun = d
		case "blue_green_stage":
			p.BlueGreenStage = d
		case "dynamic":
			p.Dynamic = d
		default:
			return p, "unknown pace " + k + "; use dry_run, blue_green_stage or dynamic"
		}
	}
	return p, ""
}

func (s *Service) adminFailNextChange(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Stage   string `json:"stage"`
		Message string `json:"message"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		adminError(w, http.StatusBadRequest, "the body must be JSON such as {\"stage\": \"CopyingShards\"}")
		return
	}
	if err := s.FailNextChangeAt(in.Stage, in.Message); err != nil {
		adminError(w, http.StatusBadRequest, err.Error())
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func paceJSON(p Pace) map[string]string {
	return map[string]string{"dry_run": p.DryRun.String(), "blue_green_stage": p.BlueGreenStage.String(), "dynamic": p.Dynamic.String()}
}

func adminError(w http.ResponseWriter, status int, msg string) {
	core.WriteJSON(w, status, map[string]string{"message": msg})
}
