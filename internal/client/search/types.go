package search

import (
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/client"
)

// The configuration sections (ClusterConfig, AccessPolicies, ...) travel as
// JSON this package does not look into: their shape is written down once,
// in the provider's internal/service/search/shape (sections.go), which
// builds what is sent and reads what comes back. The client types only what its callers
// act on: change and dry-run progress.

// EpochSeconds is the wire's "number (timestamp)": seconds since the epoch.
type EpochSeconds float64

// Time converts to time.Time (UTC).
func (e EpochSeconds) Time() time.Time {
	sec, frac := math.Modf(float64(e))
	return time.Unix(int64(sec), int64(frac*1e9)).UTC()
}

// Text is how the provider shows a wire timestamp: RFC 3339, to the
// second.
func (e EpochSeconds) Text() string { return e.Time().Round(time.Second).Format(time.RFC3339) }

// Epoch converts a time to EpochSeconds (millisecond precision).
func Epoch(t time.Time) EpochSeconds { return EpochSeconds(float64(t.UnixMilli()) / 1000) }

// UpdateDomainConfigInput is the request of UpdateDomainConfig.
type UpdateDomainConfigInput struct {
	// DomainName is the path parameter, not part of the body.
	DomainName string
	// Sections are the configuration sections to send, by wire name, each
	// a value encoding/json turns into the section's request shape.
	Sections         map[string]any
	AcceptedWarnings []string
	DryRun           *bool
	DryRunMode       *string
}

// MarshalJSON is the request body: the sections and the set members.
func (in *UpdateDomainConfigInput) MarshalJSON() ([]byte, error) {
	body := make(map[string]any, len(in.Sections)+3)
	for k, v := range in.Sections {
		switch k {
		case "AcceptedWarnings", "DryRun", "DryRunMode":
			return nil, fmt.Errorf("%s is not a configuration section", k)
		}
		body[k] = v
	}
	if in.AcceptedWarnings != nil {
		body["AcceptedWarnings"] = in.AcceptedWarnings
	}
	if in.DryRun != nil {
		body["DryRun"] = *in.DryRun
	}
	if in.DryRunMode != nil {
		body["DryRunMode"] = *in.DryRunMode
	}
	return json.Marshal(body)
}

// carriesSecret reports whether the request holds a master user password.
func (in *UpdateDomainConfigInput) carriesSecret() bool {
	a, _ := in.Sections["AdvancedSecurityOptions"].(map[string]any)
	m, _ := a["MasterUserOptions"].(map[string]any)
	_, ok := m["MasterUserPassword"]
	return ok
}

// secrets are the secret values the request holds: the master user
// password.
func (in *UpdateDomainConfigInput) secrets() []string {
	a, _ := in.Sections["AdvancedSecurityOptions"].(map[string]any)
	m, _ := a["MasterUserOptions"].(map[string]any)
	if p, ok := m["MasterUserPassword"].(string); ok {
		return []string{p}
	}
	return nil
}

// Section is one wrapped DomainConfig section: its value and its status.
type Section struct {
	Options json.RawMessage `json:"Options"`
	Status  json.RawMessage `json:"Status,omitempty"`
}

// ListDomainNamesOutput is ListDomainNames' answer.
type ListDomainNamesOutput struct {
	DomainNames []DomainInfo `json:"DomainNames"`
}

// DomainInfo names one domain of ListDomainNames.
type DomainInfo struct {
	DomainName string `json:"DomainName"`
	// EngineType is EngineTypeOpenSearch or EngineTypeElasticsearch; a
	// value the client does not know is kept as it is.
	EngineType string `json:"EngineType"`
}

// DomainConfig is the configuration as UpdateDomainConfig and
// DescribeDomainConfig return it.
type DomainConfig struct {
	// Sections are the wrapped sections, by wire name.
	Sections              map[string]Section
	ChangeProgressDetails *ChangeProgressDetails
	ModifyingProperties   []ModifyingProperty
	// Clock is the service's clock when DescribeDomainConfig answered
	// (its Date header); zero when it sent none, and in an
	// UpdateDomainConfig answer.
	Clock client.ServiceClock `json:"-"`
}

// UnmarshalJSON sorts the members into sections and the change summary.
func (d *DomainConfig) UnmarshalJSON(b []byte) error {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(b, &members); err != nil {
		return err
	}
	d.Sections = make(map[string]Section, len(members))
	for k, v := range members {
		var err error
		switch k {
		case "ChangeProgressDetails":
			err = json.Unmarshal(v, &d.ChangeProgressDetails)
		case "ModifyingProperties":
			err = json.Unmarshal(v, &d.ModifyingProperties)
		default:
			var s Section
			err = json.Unmarshal(v, &s)
			d.Sections[k] = s
		}
		if err != nil {
			return fmt.Errorf("DomainConfig.%s: %w", k, err)
		}
	}
	return nil
}

// RunningChange is the id and status of the domain's change while one runs;
// empty when none does.
func (d *DomainConfig) RunningChange() (id, status string) {
	c := d.ChangeProgressDetails
	if c == nil || c.ChangeId == nil || !ChangeRunning(Deref(c.ConfigChangeStatus)) {
		return "", ""
	}
	return *c.ChangeId, Deref(c.ConfigChangeStatus)
}

// DomainStatus is a domain as a whole with plain (unwrapped) sections: a dry
// run's DryRunConfig.
type DomainStatus struct {
	// Members are every member, by wire name.
	Members               map[string]json.RawMessage
	ChangeProgressDetails *ChangeProgressDetails
	ModifyingProperties   []ModifyingProperty
}

// UnmarshalJSON keeps every member and types the change summary.
func (d *DomainStatus) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, &d.Members); err != nil {
		return err
	}
	if v, ok := d.Members["ChangeProgressDetails"]; ok {
		if err := json.Unmarshal(v, &d.ChangeProgressDetails); err != nil {
			return fmt.Errorf("DryRunConfig.ChangeProgressDetails: %w", err)
		}
	}
	if v, ok := d.Members["ModifyingProperties"]; ok {
		if err := json.Unmarshal(v, &d.ModifyingProperties); err != nil {
			return fmt.Errorf("DryRunConfig.ModifyingProperties: %w", err)
		}
	}
	return nil
}

// ChangeProgressDetails summarises a domain's current change.
type ChangeProgressDetails struct {
	ChangeId           *string       `json:"ChangeId,omitempty"` //nolint:revive // the wire name
	ConfigChangeStatus *string       `json:"ConfigChangeStatus,omitempty"`
	InitiatedBy        *string       `json:"InitiatedBy,omitempty"`
	LastUpdatedTime    *EpochSeconds `json:"LastUpdatedTime,omitempty"`
	Message            *string       `json:"Message,omitempty"`
	StartTime          *EpochSeconds `json:"StartTime,omitempty"`
}

// ModifyingProperty is one property a change (or a dry run's change) is
// modifying.
type ModifyingProperty struct {
	ActiveValue  *string `json:"ActiveValue,omitempty"`
	Name         *string `json:"Name,omitempty"`
	PendingValue *string `json:"PendingValue,omitempty"`
	ValueType    *string `json:"ValueType,omitempty"`
}

// ValidationFailure is one finding of a Verbose dry run.
type ValidationFailure struct {
	Code     *string `json:"Code,omitempty"`
	Message  *string `json:"Message,omitempty"`
	Severity *string `json:"Severity,omitempty"`
}

// DryRunProgressStatus is the progress of a dry run.
type DryRunProgressStatus struct {
	AcceptedWarnings   []string            `json:"AcceptedWarnings,omitempty"`
	CreationDate       *string             `json:"CreationDate,omitempty"`
	DryRunId           *string             `json:"DryRunId,omitempty"` //nolint:revive // the wire name
	DryRunStatus       *string             `json:"DryRunStatus,omitempty"`
	UpdateDate         *string             `json:"UpdateDate,omitempty"`
	ValidationFailures []ValidationFailure `json:"ValidationFailures,omitempty"`
}

// DryRunResults is what a dry run found.
type DryRunResults struct {
	DeploymentType *string `json:"DeploymentType,omitempty"`
	Message        *string `json:"Message,omitempty"`
}

// ChangeProgressStage is one stage of a change.
type ChangeProgressStage struct {
	Description *string       `json:"Description,omitempty"`
	LastUpdated *EpochSeconds `json:"LastUpdated,omitempty"`
	Name        *string       `json:"Name,omitempty"`
	Status      *string       `json:"Status,omitempty"`
}

// ChangeProgressStatus is the progress of a configuration change.
type ChangeProgressStatus struct {
	AcceptedWarnings     []string              `json:"AcceptedWarnings,omitempty"`
	ChangeId             *string               `json:"ChangeId,omitempty"` //nolint:revive // the wire name
	ChangeProgressStages []ChangeProgressStage `json:"ChangeProgressStages,omitempty"`
	CompletedProperties  []string              `json:"CompletedProperties,omitempty"`
	PendingProperties    []string              `json:"PendingProperties,omitempty"`
	ConfigChangeStatus   *string               `json:"ConfigChangeStatus,omitempty"`
	InitiatedBy          *string               `json:"InitiatedBy,omitempty"`
	LastUpdatedTime      *EpochSeconds         `json:"LastUpdatedTime,omitempty"`
	StartTime            *EpochSeconds         `json:"StartTime,omitempty"`
	Status               *string               `json:"Status,omitempty"`
	TotalNumberOfStages  *int64                `json:"TotalNumberOfStages,omitempty"`
	ValidationFailures   []ValidationFailure   `json:"ValidationFailures,omitempty"`
}

// UpdateDomainConfigOutput is the answer of UpdateDomainConfig.
// DryRunProgressStatus and DryRunResults are set for dry runs only.
type UpdateDomainConfigOutput struct {
	DomainConfig         *DomainConfig         `json:"DomainConfig,omitempty"`
	DryRunProgressStatus *DryRunProgressStatus `json:"DryRunProgressStatus,omitempty"`
	DryRunResults        *DryRunResults        `json:"DryRunResults,omitempty"`
}

// DescribeDryRunProgressOutput is the answer of DescribeDryRunProgress.
type DescribeDryRunProgressOutput struct {
	DryRunConfig         *DomainStatus         `json:"DryRunConfig,omitempty"`
	DryRunProgressStatus *DryRunProgressStatus `json:"DryRunProgressStatus,omitempty"`
	DryRunResults        *DryRunResults        `json:"DryRunResults,omitempty"`
	// Clock is the service's clock when it answered (its Date header);
	// zero when it sent none.
	Clock client.ServiceClock `json:"-"`
}

// DescribeDomainChangeProgressOutput is the answer of
// DescribeDomainChangeProgress.
type DescribeDomainChangeProgressOutput struct {
	ChangeProgressStatus *ChangeProgressStatus `json:"ChangeProgressStatus,omitempty"`
}

// DescribeDomainConfigOutput is the answer of DescribeDomainConfig.
type DescribeDomainConfigOutput struct {
	DomainConfig *DomainConfig `json:"DomainConfig,omitempty"`
}

// Deref is the string p points to, or "".
func Deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
