package search

import (
	"testing"
	"time"
)

// A change's progress as package poll sees it: the completed stages'
// lengths, the running stage's start, the number of stages.
func TestChangeObservation(t *testing.T) {
	t.Parallel()
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(d time.Duration) *EpochSeconds { e := Epoch(start.Add(d)); return &e }
	total := int64(4)
	p := &ChangeProgressStatus{
		StartTime:           at(0),
		TotalNumberOfStages: &total,
		ChangeProgressStages: []ChangeProgressStage{
			{Name: new("Validation"), Status: new(ChangeStatusCompleted), LastUpdated: at(10 * time.Second)},
			{Name: new("CreatingNewEnvironment"), Status: new(ChangeStatusCompleted), LastUpdated: at(70 * time.Second)},
			{Name: new("CopyingShards"), Status: new(ChangeStatusProcessing), LastUpdated: at(70 * time.Second)},
			{Name: new("DeletingOldEnvironment"), Status: new(ChangeStatusPending)},
		},
	}
	o := p.Observation(start.Add(100 * time.Second))
	if o.Total != 4 || len(o.Completed) != 2 || o.Completed[0] != 10*time.Second || o.Completed[1] != time.Minute ||
		!o.CurrentStart.Equal(start.Add(70*time.Second)) || !o.Start.Equal(start) {
		t.Errorf("Observation = %+v", o)
	}
	var none *ChangeProgressStatus
	if o := none.Observation(start); !o.Start.Equal(start) || o.Total != 0 {
		t.Errorf("Observation of nil = %+v", o)
	}
}
