package search

import (
	"testing"
	"time"

	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
)

// A change's progress as package poll sees it: the completed stages'
// lengths, the running stage's start, the number of stages.
func TestChangeObservation(t *testing.T) {
	t.Parallel()
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(d time.Duration) *searchclient.EpochSeconds { e := searchclient.Epoch(start.Add(d)); return &e }
	total := int64(4)
	p := &searchclient.ChangeProgressStatus{
		StartTime:           at(0),
		TotalNumberOfStages: &total,
		ChangeProgressStages: []searchclient.ChangeProgressStage{
			{Name: ptr("Validation"), Status: ptr(searchclient.ChangeStatusCompleted), LastUpdated: at(10 * time.Second)},
			{Name: ptr("CreatingNewEnvironment"), Status: ptr(searchclient.ChangeStatusCompleted), LastUpdated: at(70 * time.Second)},
			{Name: ptr("CopyingShards"), Status: ptr(searchclient.ChangeStatusProcessing), LastUpdated: at(70 * time.Second)},
			{Name: ptr("DeletingOldEnvironment"), Status: ptr(searchclient.ChangeStatusPending)},
		},
	}
	o := ChangeObservation(p, start.Add(100*time.Second))
	if o.Total != 4 || len(o.Completed) != 2 || o.Completed[0] != 10*time.Second || o.Completed[1] != time.Minute ||
		!o.CurrentStart.Equal(start.Add(70*time.Second)) || !o.Start.Equal(start) {
		t.Errorf("ChangeObservation = %+v", o)
	}
	if o := ChangeObservation(nil, start); !o.Start.Equal(start) || o.Total != 0 {
		t.Errorf("ChangeObservation(nil) = %+v", o)
	}
}
