package search

import "testing"

// setsProperty places a ModifyingProperties name in the request: keys with
// dots (AdvancedOptions), leaves and lists it sets, and not an object it
// sets only in part, nor a member it leaves out.
func TestSetsProperty(t *testing.T) {
	t.Parallel()
	req := map[string]any{
		"ClusterConfig":   map[string]any{"InstanceType": "r6g.large.search", "ZoneAwarenessConfig": map[string]any{"AvailabilityZoneCount": 2}},
		"AdvancedOptions": map[string]any{"indices.fielddata.cache.size": "40"},
		"VPCOptions":      map[string]any{"SubnetIds": []any{"subnet-1"}},
		"IPAddressType":   "dualstack",
	}
	for name, want := range map[string]bool{
		"ClusterConfig.InstanceType":                              true,
		"ClusterConfig.ZoneAwarenessConfig.AvailabilityZoneCount": true,
		"AdvancedOptions.indices.fielddata.cache.size":            true,
		"VPCOptions.SubnetIds":                                    true,
		"IPAddressType":                                           true,
		"ClusterConfig.InstanceCount":                             false,
		"ClusterConfig.ZoneAwarenessConfig":                       false,
		"ClusterConfig":                                           false,
		"AdvancedOptions.indices.query.bool.max_clause_count":     false,
		"AdvancedOptions.indices":                                 false,
		"SnapshotOptions.AutomatedSnapshotStartHour":              false,
	} {
		if got := setsProperty(req, name); got != want {
			t.Errorf("setsProperty(%s) = %v, want %v", name, got, want)
		}
	}
}
