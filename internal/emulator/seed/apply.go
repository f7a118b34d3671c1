package seed

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/identity"
	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/rules"
)

// policyIn is an account-managed policy users may attach beside the
// catalogue's.
type policyIn struct {
	Arn      string          `json:"arn"`
	Document json.RawMessage `json:"document"`
}

// userIn is a user with its tags, attached policies and keys.
type userIn struct {
	Name     string                     `json:"name"`
	Path     string                     `json:"path"`
	Tags     map[string]json.RawMessage `json:"tags"`
	Policies []string                   `json:"policies"`
	Keys     []json.RawMessage          `json:"keys"`
}

// keyIn is a long-term API key: its age (age_days or created) and its
// expiry (credential_age_days, counted from its creation, or expires).
type keyIn struct {
	ID                string `json:"id"`
	ServiceName       string `json:"service_name"`
	Status            string `json:"status"`
	AgeDays           *int   `json:"age_days"`
	Created           string `json:"created"`
	CredentialAgeDays *int   `json:"credential_age_days"`
	Expires           string `json:"expires"`
	Secret            string `json:"secret"`
	Region            string `json:"region"`
}

// domainIn is a search domain: its engine, its configuration (sections in
// UpdateDomainConfig's request shape) and a change in progress (an
// UpdateDomainConfig request started once the domain is made).
type domainIn struct {
	Name             string          `json:"name"`
	Region           string          `json:"region"`
	EngineMode       string          `json:"engine_mode"`
	EngineVersion    string          `json:"engine_version"`
	IPAddressType    string          `json:"ip_address_type"`
	Config           json.RawMessage `json:"config"`
	ChangeInProgress json.RawMessage `json:"change_in_progress"`
}

// Apply puts the seed into e, whose clock already stands where the test
// starts (key ages count back from it). The seed replaces the demo data:
// the emulator holds what the file says and nothing else. It stops at the
// first value a service refuses and names its path.
func (f *File) Apply(e *emulator.Emulator) error {
	for _, name := range e.Search.DomainNames() {
		e.Search.RemoveDomain(name)
	}
	if err := f.apply(e); err != nil {
		return f.wrap(err)
	}
	return nil
}

func (f *File) apply(e *emulator.Emulator) error {
	for i, raw := range f.Policies {
		if err := applyPolicy(e, raw, index("policies", i)); err != nil {
			return err
		}
	}
	if f.SearchPace != nil {
		p, err := search.PaceWith(e.Search.CurrentPace(), f.SearchPace)
		if err != nil {
			return &Error{Path: "search_pace", Message: err.Error()}
		}
		if err := e.Search.SetPace(p); err != nil {
			return &Error{Path: "search_pace", Message: err.Error()}
		}
	}
	for i, raw := range f.Users {
		if err := applyUser(e, raw, index("users", i)); err != nil {
			return err
		}
	}
	for i, raw := range f.Domains {
		if err := applyDomain(e, raw, index("domains", i)); err != nil {
			return err
		}
	}
	for i, raw := range f.Faults {
		at := index("faults", i)
		fault, err := decodeFault(raw, at)
		if err != nil {
			return err
		}
		if err := e.InjectFault(fault); err != nil {
			return &Error{Path: at, Message: err.Error()}
		}
	}
	return nil
}

func applyPolicy(e *emulator.Emulator, raw json.RawMessage, at string) error {
	var p policyIn
	if err := decode(raw, at, &p); err != nil {
		return err
	}
	doc := []byte(p.Document)
	var text string
	if json.Unmarshal(doc, &text) == nil {
		doc = []byte(text) // a document may also be given as a JSON string
	}
	if len(doc) == 0 {
		return &Error{Path: join(at, "document"), Message: "required: the policy's JSON document"}
	}
	if err := e.Identity.AddManagedPolicy(p.Arn, doc); err != nil {
		field := "document"
		if rules.PolicyARN.CheckString(p.Arn) != nil {
			field = "arn"
		}
		return &Error{Path: join(at, field), Message: err.Error()}
	}
	return nil
}

func applyUser(e *emulator.Emulator, raw json.RawMessage, at string) error {
	var u userIn
	if err := decode(raw, at, &u); err != nil {
		return err
	}
	keys := slices.Sorted(maps.Keys(u.Tags))
	tags := make(map[string]string, len(keys))
	for _, k := range keys {
		var v string
		if err := decode(u.Tags[k], join(at, "tags."+k), &v); err != nil {
			return err
		}
		tags[k] = v
	}
	if err := e.Identity.SeedUser(u.Name, u.Path, tags, keys, u.Policies); err != nil {
		return fieldError(at, err)
	}
	for j, kraw := range u.Keys {
		kat := index(join(at, "keys"), j)
		k, err := seedKey(e, kraw, kat)
		if err != nil {
			return err
		}
		if err := e.Identity.AddSeedKey(u.Name, k); err != nil {
			return fieldError(kat, err)
		}
	}
	return nil
}

// seedKey is the key raw describes, its dates counted from the clock.
func seedKey(e *emulator.Emulator, raw json.RawMessage, at string) (identity.SeedKey, error) {
	var in keyIn
	if err := decode(raw, at, &in); err != nil {
		return identity.SeedKey{}, err
	}
	k := identity.SeedKey{ID: in.ID, ServiceName: in.ServiceName, Status: in.Status, Value: in.Secret, Region: in.Region}
	if k.ServiceName == "" {
		k.ServiceName = identity.ModelsServiceName
	}
	if k.Status == "" {
		k.Status = "Active"
	}
	if k.Region == "" {
		k.Region = e.Region()
	}
	now := e.Clock().Now()
	switch {
	case in.AgeDays != nil && in.Created != "":
		return k, &Error{Path: join(at, "created"), Message: "give age_days or created, not both"}
	case in.AgeDays != nil && *in.AgeDays < 0:
		return k, &Error{Path: join(at, "age_days"), Message: fmt.Sprintf("%d: an age cannot be negative", *in.AgeDays)}
	case in.AgeDays != nil:
		k.Created = now.Add(-time.Duration(*in.AgeDays) * 24 * time.Hour)
	case in.Created != "":
		t, err := time.Parse(time.RFC3339, in.Created)
		if err != nil {
			return k, &Error{Path: join(at, "created"), Message: fmt.Sprintf("%q is not an RFC 3339 time such as 2026-01-02T15:04:05Z", in.Created)}
		}
		if t.After(now) {
			return k, &Error{Path: join(at, "created"), Message: fmt.Sprintf("%s is after the emulator's clock (%s)", in.Created, now.Format(time.RFC3339))}
		}
		k.Created = t
	default:
		k.Created = now
	}
	rule := rules.CredentialAgeDays.Range
	switch {
	case in.CredentialAgeDays != nil && in.Expires != "":
		return k, &Error{Path: join(at, "expires"), Message: "give credential_age_days or expires, not both"}
	case in.CredentialAgeDays != nil && !rule.Contains(int64(*in.CredentialAgeDays)):
		return k, &Error{Path: join(at, "credential_age_days"), Message: fmt.Sprintf("%d is not from %d to %d", *in.CredentialAgeDays, rule.Min, rule.Max)}
	case in.CredentialAgeDays != nil:
		k.Expires = k.Created.Add(time.Duration(*in.CredentialAgeDays) * 24 * time.Hour)
	case in.Expires != "":
		t, err := time.Parse(time.RFC3339, in.Expires)
		if err != nil {
			return k, &Error{Path: join(at, "expires"), Message: fmt.Sprintf("%q is not an RFC 3339 time such as 2026-01-02T15:04:05Z", in.Expires)}
		}
		k.Expires = t
	default:
		return k, &Error{Path: at, Message: "a key needs credential_age_days or expires: the service gives every long-term key an expiration"}
	}
	return k, nil
}

func applyDomain(e *emulator.Emulator, raw json.RawMessage, at string) error {
	var d domainIn
	if err := decode(raw, at, &d); err != nil {
		return err
	}
	if err := search.ValidDomainName(d.Name); err != nil {
		return &Error{Path: join(at, "name"), Message: err.Error()}
	}
	spec := search.DomainSpec{
		DomainName: d.Name, Region: d.Region, EngineMode: d.EngineMode, EngineVersion: d.EngineVersion,
		IPAddressType: d.IPAddressType, Config: d.Config,
	}
	if len(spec.Config) == 0 {
		spec.Config = json.RawMessage("{}")
	}
	if err := e.Search.AddDomain(spec); err != nil {
		var fe *search.SpecError
		if errors.As(err, &fe) {
			return &Error{Path: join(at, fe.Field), Message: fe.Message}
		}
		return &Error{Path: at, Message: err.Error()}
	}
	if len(d.ChangeInProgress) > 0 {
		if _, err := e.Search.StartChange(d.Region, d.Name, d.ChangeInProgress); err != nil {
			return &Error{Path: join(at, "change_in_progress"), Message: err.Error()}
		}
	}
	return nil
}

// fieldError names a service's refusal of a seeded value by its path.
func fieldError(at string, err error) error {
	var fe *identity.FieldError
	if errors.As(err, &fe) {
		return &Error{Path: join(at, fe.Field), Message: fe.Message}
	}
	return &Error{Path: at, Message: err.Error()}
}
