package search

import (
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator/core"
)

// stageDef is one stage of a change; the tables are in README.md.
type stageDef struct{ name, description string }

var (
	blueGreenStages = []stageDef{
		{"Validation", "Validating the change and the health of the domain."},
		{"CreatingNewEnvironment", "Creating a new environment with the new configuration."},
		{"CopyingShards", "Copying shards from the old environment to the new one."},
		{"DeletingOldEnvironment", "Deleting the old environment."},
	}
	dynamicStages = []stageDef{
		{"Validation", "Validating the change and the health of the domain."},
		{"ApplyingDynamicChanges", "Applying the change to the running domain."},
	}
)

// stageNames are all the names FailNextChangeAt accepts.
func stageNames() []string {
	var out []string
	for _, s := range append(slices.Clone(blueGreenStages), dynamicStages...) {
		if !slices.Contains(out, s.name) {
			out = append(out, s.name)
		}
	}
	return out
}

// failPlan makes the next change that has the stage fail there.
type failPlan struct{ stage, message string }

// change is one real configuration change. Its progress is a function of
// the clock: stage i runs from start+i*stageDur to start+(i+1)*stageDur.
type change struct {
	id       string
	start    time.Time
	kind     string
	props    []propChange
	sections []string
	accepted []string
	findings []finding
	stages   []stageDef
	stageDur time.Duration
	failAt   int // -1: does not fail
	failMsg  string
	next     map[string]any
}

// startChange starts u on the domain as its active change, with the
// findings fs it was accepted with.
func (s *Service) startChange(d *domain, u *update, fs []finding, now time.Time) *change {
	c := &change{
		id: core.UUID(), start: now, kind: u.kind, props: u.props, sections: sectionsOf(u.props),
		accepted: slices.Clone(u.req.typed.AcceptedWarnings), findings: fs, next: u.next, failAt: -1,
	}
	if c.kind == deploymentBlueGreen {
		c.stages, c.stageDur = blueGreenStages, s.pace.BlueGreenStage
	} else {
		c.stages, c.stageDur = dynamicStages, s.pace.Dynamic/time.Duration(len(dynamicStages))
	}
	if f := s.failNext; f != nil {
		if i := slices.IndexFunc(c.stages, func(st stageDef) bool { return st.name == f.stage }); i >= 0 {
			c.failAt, c.failMsg = i, f.message
			s.failNext = nil
		}
	}
	d.changes = append(d.changes, c)
	d.active = c
	return c
}

func (c *change) at(i int) time.Time { return c.start.Add(time.Duration(i) * c.stageDur) }

// state is the change's Status, ConfigChangeStatus, current stage and the
// time it last moved.
func (c *change) state(now time.Time) (status, config string, stage int, updated time.Time) {
	elapsed := now.Sub(c.start)
	n := len(c.stages)
	switch {
	case c.failAt >= 0 && elapsed >= time.Duration(c.failAt+1)*c.stageDur:
		config = configChangeCancelled
		if c.stages[c.failAt].name == "Validation" {
			config = configChangeValidationFailed
		}
		return changeStatusFailed, config, c.failAt, c.at(c.failAt + 1)
	case elapsed >= time.Duration(n)*c.stageDur:
		return changeStatusCompleted, configChangeCompleted, n - 1, c.at(n)
	case elapsed <= 0:
		return changeStatusPending, configChangePending, 0, c.start
	}
	i := int(elapsed / c.stageDur)
	config = configChangeApplyingChanges
	if c.stages[i].name == "Validation" {
		config = configChangeValidating
	}
	return changeStatusProcessing, config, i, c.at(i)
}

func (c *change) terminal(now time.Time) bool {
	st, _, _, _ := c.state(now)
	return st == changeStatusCompleted || st == changeStatusFailed
}

func (c *change) message(now time.Time) string {
	st, _, i, _ := c.state(now)
	switch st {
	case changeStatusPending:
		return "The change is waiting to start."
	case changeStatusCompleted:
		return fmt.Sprintf("The %s change completed.", c.kind)
	case changeStatusFailed:
		return c.failMsg
	}
	return fmt.Sprintf("Stage %d of %d, %s: %s", i+1, len(c.stages), c.stages[i].name, c.stages[i].description)
}

// stagesAt is ChangeProgressStages.
func (c *change) stagesAt(now time.Time) []map[string]any {
	st, _, _, _ := c.state(now)
	elapsed := now.Sub(c.start)
	out := make([]map[string]any, len(c.stages))
	for j, def := range c.stages {
		m := map[string]any{"Name": def.name, "Description": def.description, "Status": changeStatusPending}
		switch {
		case st == changeStatusFailed && j == c.failAt:
			m["Status"], m["LastUpdated"] = changeStatusFailed, epoch(c.at(j+1))
		case st == changeStatusFailed && j > c.failAt:
		case elapsed >= time.Duration(j+1)*c.stageDur:
			m["Status"], m["LastUpdated"] = changeStatusCompleted, epoch(c.at(j+1))
		case elapsed > 0 && elapsed >= time.Duration(j)*c.stageDur:
			m["Status"], m["LastUpdated"] = changeStatusProcessing, epoch(c.at(j))
		}
		out[j] = m
	}
	return out
}

func (c *change) propertyNames() []string {
	out := make([]string, len(c.props))
	for i, p := range c.props {
		out[i] = p.name()
	}
	return out
}

// progress is ChangeProgressStatus. Properties stay pending until the
// change completes (a failed change leaves them pending: never applied).
func (c *change) progress(now time.Time) map[string]any {
	st, config, _, updated := c.state(now)
	out := map[string]any{
		"ChangeId":             c.id,
		"ChangeProgressStages": c.stagesAt(now),
		"ConfigChangeStatus":   config,
		"InitiatedBy":          "CUSTOMER",
		"LastUpdatedTime":      epoch(updated),
		"StartTime":            epoch(c.start),
		"Status":               st,
		"TotalNumberOfStages":  len(c.stages),
		"PendingProperties":    []string{},
		"CompletedProperties":  []string{},
	}
	if st == changeStatusCompleted {
		out["CompletedProperties"] = c.propertyNames()
	} else {
		out["PendingProperties"] = c.propertyNames()
	}
	if len(c.accepted) > 0 {
		out["AcceptedWarnings"] = c.accepted
	}
	if len(c.findings) > 0 {
		out["ValidationFailures"] = c.findings
	}
	return out
}

// details is ChangeProgressDetails.
func (c *change) details(now time.Time) map[string]any {
	_, config, _, updated := c.state(now)
	return map[string]any{
		"ChangeId": c.id, "ConfigChangeStatus": config, "InitiatedBy": "CUSTOMER",
		"LastUpdatedTime": epoch(updated), "Message": c.message(now), "StartTime": epoch(c.start),
	}
}

// settle finishes the domain's change once the clock has passed its end:
// a completed change is applied, a failed one is dropped.
func (s *Service) settle(d *domain, now time.Time) {
	c := d.active
	if c == nil || !c.terminal(now) {
		return
	}
	st, _, _, updated := c.state(now)
	if st == changeStatusCompleted {
		d.config = c.next
		d.touch(c.sections, updated)
	}
	d.active = nil
}

// describeChange is DescribeDomainChangeProgress. Without changeid it
// reports the most recent change; a domain never changed answers an empty
// ChangeProgressStatus.
func (s *Service) describeChange(d *domain, r *http.Request, now time.Time) (any, *apiError) {
	id := r.URL.Query().Get("changeid")
	var c *change
	if id == "" {
		c = d.mostRecentChange()
		if c == nil {
			return map[string]any{"ChangeProgressStatus": map[string]any{}}, nil
		}
	} else {
		if err := validID(id); err != nil {
			return nil, validationError("changeid: %v", err)
		}
		for _, x := range d.changes {
			if x.id == id {
				c = x
			}
		}
		if c == nil {
			return nil, notFound("Change %s not found for domain %s.", id, d.name)
		}
	}
	return map[string]any{"ChangeProgressStatus": c.progress(now)}, nil
}
