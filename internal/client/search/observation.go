package search

import (
	"time"

	"github.com/cloudlabs/terraform-provider-cloud/internal/poll"
)

// Observation is what a DescribeDomainChangeProgress answer seen at now
// tells package poll: the change's start, its stages and how many there
// are. Stages without a LastUpdated time count as not started. A nil p is
// a change that shows nothing yet.
func (p *ChangeProgressStatus) Observation(now time.Time) poll.Observation {
	if p == nil {
		return poll.FromStages(now, time.Time{}, 0, nil)
	}
	var start time.Time
	if p.StartTime != nil {
		start = p.StartTime.Time()
	}
	stages := make([]poll.Stage, 0, len(p.ChangeProgressStages))
	for _, s := range p.ChangeProgressStages {
		st := poll.Stage{Completed: Deref(s.Status) == ChangeStatusCompleted, Running: Deref(s.Status) == ChangeStatusProcessing}
		if s.LastUpdated != nil && s.Status != nil {
			st.LastUpdated = s.LastUpdated.Time()
		}
		stages = append(stages, st)
	}
	total := 0
	if p.TotalNumberOfStages != nil {
		total = int(*p.TotalNumberOfStages)
	}
	return poll.FromStages(now, start, total, stages)
}
